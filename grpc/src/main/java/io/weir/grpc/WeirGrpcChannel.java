package io.weir.grpc;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.CompressorRegistry;
import io.grpc.DecompressorRegistry;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2GoAwayFrame;
import io.weir.handler.codec.http2.Http2MultiplexHandler;
import io.weir.handler.codec.http2.Http2PingFrame;
import io.weir.handler.codec.http2.Http2Settings;
import io.weir.handler.codec.http2.Http2SettingsFrame;
import io.weir.handler.ssl.SslContext;
import io.weir.util.AsciiString;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * A gRPC channel to one {@code host:port} on Weir's HTTP/2, for grpc-java's generated stubs (blocking, async and
 * future): {@code SimpleServiceGrpc.newBlockingStub(WeirGrpcChannel.forAddress(host, port).build())}. Plaintext h2c
 * by prior knowledge, or TLS with ALPN {@code h2} ({@link Builder#tls}).
 *
 * <p>One connection at a time, opened by the first call; calls beyond the server's
 * SETTINGS_MAX_CONCURRENT_STREAMS wait for a stream, in order. After the server's GOAWAY the calls in flight finish
 * on the old connection and new calls open a new one; a connection that closes fails its waiting calls with
 * UNAVAILABLE. A call's deadline (the earlier of its {@link CallOptions} and its {@link io.grpc.Context}) goes to
 * the server as {@code grpc-timeout} and is enforced here too; a cancel (the call's, or its context's) resets the
 * stream (RST_STREAM CANCEL). Response messages are read as the call's {@code request(n)} asks, so a slow listener
 * stops the server at the HTTP/2 window. With {@link Builder#keepAliveTime} set, a connection that reads nothing for
 * that long sends a PING, and one whose PING goes unanswered is closed, its calls ending UNAVAILABLE.
 *
 * <p>Listeners run on the call's {@link CallOptions#getExecutor()} (the blocking stubs set one), else on
 * {@link Builder#executor}, else on the connection's event loop. Thread-safe.
 */
public final class WeirGrpcChannel extends ManagedChannel {
    /** The largest response message accepted by default, in octets: 4 MiB, as grpc-java. */
    public static final int DEFAULT_MAX_INBOUND_MESSAGE_SIZE_BYTES = 4 << 20;
    /**
     * The receive window of each stream and of the connection by default, in octets: 1 MiB, as grpc-java's
     * {@code flowControlWindow}. HTTP/2's own 65,535 costs a WINDOW_UPDATE per 32 KiB of each stream.
     */
    public static final int DEFAULT_FLOW_CONTROL_WINDOW_BYTES = 1 << 20;
    /** The smallest {@link Builder#flowControlWindow}, in octets: HTTP/2's initial window (RFC 9113 §6.9.2). */
    public static final int MIN_FLOW_CONTROL_WINDOW_BYTES = 65_535;
    /** How long a connection attempt may take, in milliseconds. */
    public static final int DEFAULT_CONNECT_TIMEOUT_MILLIS = 10_000;
    /** How long a new connection waits for the server's first SETTINGS frame before it gives up, in milliseconds. */
    public static final long SETTINGS_TIMEOUT_MILLIS = 10_000;
    /**
     * How many methods' {@code :path} values a channel keeps ready-made; calls of further methods build theirs each
     * time. Methods come from generated code, so a few dozen is usual.
     */
    public static final int MAX_CACHED_PATHS = 1024;
    /** The shortest keepalive interval {@link Builder#keepAliveTime} takes, in milliseconds. */
    public static final long MIN_KEEPALIVE_TIME_MILLIS = 1_000;
    /** How long a keepalive PING may go unanswered by default, in milliseconds. */
    public static final long DEFAULT_KEEPALIVE_TIMEOUT_MILLIS = 20_000;

    private static final AsciiString HTTP = AsciiString.cached("http");
    private static final AsciiString HTTPS = AsciiString.cached("https");

    private final InetSocketAddress address;
    private final String authority;
    private final SslContext tls;
    private final Class<? extends Channel> channelType;
    private final EventLoopGroup ownGroup;
    private final EventLoop loop;
    private final Executor executor;
    private final int maxInboundMessageSize;
    private final int flowControlWindow;
    private final CompressorRegistry compressors;
    private final DecompressorRegistry decompressors;
    private final AsciiString acceptEncoding;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final ConcurrentHashMap<String, AsciiString> paths = new ConcurrentHashMap<>();
    private final long keepAliveTimeNanos;
    private final long keepAliveTimeoutNanos;
    private final boolean keepAliveWithoutCalls;

    // ---- event loop only
    private Connection connection;
    /** Every connection not yet gone: the current one and those draining after a GOAWAY. */
    private final Set<Connection> liveConnections = new HashSet<>();
    private volatile boolean shutdown;

    private WeirGrpcChannel(Builder b) {
        this.address = InetSocketAddress.createUnresolved(b.host, b.port);
        this.authority = b.authority != null ? b.authority : b.host + ":" + b.port;
        this.tls = b.tls;
        this.channelType = b.channelType;
        this.ownGroup = b.group == null ? new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory()) : null;
        this.loop = (b.group != null ? b.group : ownGroup).next();
        this.executor = b.executor;
        this.maxInboundMessageSize = b.maxInboundMessageSize;
        this.flowControlWindow = b.flowControlWindow;
        this.compressors = b.compressors;
        this.decompressors = b.decompressors;
        this.acceptEncoding = AsciiString.of(String.join(",", decompressors.getAdvertisedMessageEncodings()));
        this.keepAliveTimeNanos = b.keepAliveTimeNanos;
        this.keepAliveTimeoutNanos = b.keepAliveTimeoutNanos;
        this.keepAliveWithoutCalls = b.keepAliveWithoutCalls;
    }

    /** A builder for a channel to {@code host:port}, plaintext (h2c) unless {@link Builder#tls} is set. */
    public static Builder forAddress(String host, int port) {
        return new Builder(host, port);
    }

    @Override
    public <ReqT, RespT> ClientCall<ReqT, RespT> newCall(MethodDescriptor<ReqT, RespT> method,
            CallOptions callOptions) {
        return new ClientCallStream<>(this, method, callOptions);
    }

    @Override
    public String authority() {
        return authority;
    }

    // ---- what calls need

    EventLoop loop() {
        return loop;
    }

    Executor executor() {
        return executor;
    }

    int maxInboundMessageSize() {
        return maxInboundMessageSize;
    }

    CompressorRegistry compressors() {
        return compressors;
    }

    DecompressorRegistry decompressors() {
        return decompressors;
    }

    AsciiString acceptEncoding() {
        return acceptEncoding;
    }

    AsciiString scheme() {
        return tls != null ? HTTPS : HTTP;
    }

    /** The {@code :path} of {@code method}'s calls, built once per method (up to {@link #MAX_CACHED_PATHS}). */
    AsciiString path(MethodDescriptor<?, ?> method) {
        String name = method.getFullMethodName();
        AsciiString path = paths.get(name);
        if (path == null) {
            path = AsciiString.cached("/" + name);
            if (paths.size() < MAX_CACHED_PATHS) {
                paths.putIfAbsent(name, path);
            }
        }
        return path;
    }

    /** Gives {@code call} a stream on the current connection, now or when one is free. Event loop only. */
    void enqueue(ClientCallStream<?, ?> call) {
        if (shutdown) {
            call.failToStart(Status.UNAVAILABLE.withDescription("the channel is shut down"));
            return;
        }
        Connection c = connection;
        if (c == null) {
            c = connect();
        }
        c.waiting.addLast(call);
        c.startWaiting();
    }

    private Connection connect() {
        Connection c = new Connection();
        connection = c;
        liveConnections.add(c);
        new Bootstrap().group(loop).channel(channelType)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, DEFAULT_CONNECT_TIMEOUT_MILLIS)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc(), address.getHostString(),
                                    address.getPort()));
                        }
                        // Every read counts for keepalive, the streams' DATA too: noted before the codec.
                        Http2FrameCodecBuilder codec = Http2FrameCodecBuilder.forClient()
                                .initialSettings(new Http2Settings().initialWindowSize(flowControlWindow))
                                .connectionWindowSize(flowControlWindow);
                        c.multiplexer = new Http2MultiplexHandler(new RefusePushedStreams());
                        ch.pipeline().addLast(c.readClock, codec.build(), c.multiplexer, c);
                    }
                })
                .connect(new InetSocketAddress(address.getHostString(), address.getPort()))
                .addListener(f -> {
                    if (!f.isSuccess()) {
                        c.failed(Status.UNAVAILABLE.withDescription("could not connect to " + authority)
                                .withCause(f.cause()));
                    }
                });
        return c;
    }

    private void connectionGone(Connection c) {
        if (connection == c) {
            connection = null;
        }
        liveConnections.remove(c);
        maybeTerminated();
    }

    private void maybeTerminated() {
        if (shutdown && liveConnections.isEmpty() && terminated.getCount() > 0) {
            terminated.countDown();
            if (ownGroup != null) {
                ownGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            }
        }
    }

    @Override
    public ManagedChannel shutdown() {
        shutdown = true;
        onLoop(() -> {
            Connection c = connection;
            if (c != null) {
                connection = null;
                c.draining = true;
                c.failWaiting(Status.UNAVAILABLE.withDescription("the channel is shut down"));
                c.closeIfIdle();
            }
            maybeTerminated();
        });
        return this;
    }

    /**
     * Shuts down at once: the calls waiting for a stream and those in flight, on every connection (draining ones
     * too), end {@code UNAVAILABLE}, and the connections close without waiting for their streams.
     */
    @Override
    public ManagedChannel shutdownNow() {
        shutdown = true;
        onLoop(() -> {
            connection = null;
            Status why = Status.UNAVAILABLE.withDescription("the channel was shut down now");
            for (Connection c : new ArrayList<>(liveConnections)) {
                c.closeNow(why);
            }
            maybeTerminated();
        });
        return this;
    }

    /**
     * Runs a shutdown step on the loop. A loop that refuses it has ended (the channel's own, after the channel
     * terminated; or the caller's group, shut down first, which closed the connections): nothing is left to wait
     * for.
     */
    private void onLoop(Runnable task) {
        if (!LoopTasks.tryExecute(loop, task)) {
            terminated.countDown();
        }
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return terminated.getCount() == 0;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    /**
     * One connection: its stream slots (the server's SETTINGS_MAX_CONCURRENT_STREAMS), the calls waiting for one,
     * and its end. Event loop only.
     */
    final class Connection implements ChannelHandler {
        final ArrayDeque<ClientCallStream<?, ?>> waiting = new ArrayDeque<>();
        Channel channel;
        private boolean settingsSeen;
        private long maxStreams = Long.MAX_VALUE;
        private int openStreams;
        /** GOAWAY received or the channel shut down: no new stream here; closed when the last one ends. */
        boolean draining;
        private boolean gone;
        /** Why the connection was closed from this side, for the calls open on it; null otherwise. */
        Status closedBecause;
        /** When the connection last read anything, for keepalive. */
        private long lastReadNanos;
        private ScheduledFuture<?> keepAliveCheck;
        private ScheduledFuture<?> pingTimeout;
        private long pingPayload;
        /** How deep the listeners of this connection's calls running on the loop are nested; 0 if none runs. */
        private int listenersRunning;
        /** Calls written from a running listener: flushed when the outermost listener returns. */
        private final ArrayDeque<ClientCallStream<?, ?>> flushAfterListeners = new ArrayDeque<>();
        /** The connection's multiplexer, which flushes the calls' streams in one write (see {@link #flushSoon}). */
        Http2MultiplexHandler multiplexer;
        /** Calls written outside a read and outside a listener: flushed together by one task. */
        private final ArrayDeque<ClientCallStream<?, ?>> flushSoon = new ArrayDeque<>();
        private boolean flushSoonQueued;
        private final Runnable flushSoonTask = this::flushSoonNow;
        final ChannelHandler readClock = new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                lastReadNanos = System.nanoTime();
                ctx.fireChannelRead(msg);
            }
        };

        /** A call's listener starts running on the loop. */
        void listenersStarted() {
            listenersRunning++;
        }

        /**
         * A call's listener returned; after the outermost one the calls it wrote to are flushed, still inside the
         * read (or task) that ran it, so the streams' frames join one flush of the connection.
         */
        void listenersEnded() {
            if (--listenersRunning == 0 && !flushAfterListeners.isEmpty()) {
                multiplexer.flushingOnceAfter(() -> flushEach(flushAfterListeners));
            }
        }

        private static void flushEach(ArrayDeque<ClientCallStream<?, ?>> calls) {
            ClientCallStream<?, ?> call;
            while ((call = calls.pollFirst()) != null) {
                call.flushFromQueue();
            }
        }

        /**
         * Defers {@code call}'s flush to one task that flushes every call deferred so by then, with one write to the
         * socket for all of them (a timer or another task starting many calls on the loop); false once the
         * connection is gone. At most once per call and task: the call's own flags guard it.
         */
        boolean flushSoon(ClientCallStream<?, ?> call) {
            if (gone) {
                return false;
            }
            flushSoon.addLast(call);
            if (!flushSoonQueued) {
                flushSoonQueued = true;
                channel.eventLoop().execute(flushSoonTask);
            }
            return true;
        }

        private void flushSoonNow() {
            flushSoonQueued = false;
            multiplexer.flushingOnceAfter(() -> flushEach(flushSoon));
        }

        /**
         * Defers {@code call}'s flush to the end of the listener running on the loop, if one is (a call started or
         * written from another call's listener, as stubs with a direct executor do); false if none is. At most once
         * per call and listener: the call's own pending flag guards it, so the queue holds at most the open calls.
         */
        boolean flushAfterListeners(ClientCallStream<?, ?> call) {
            if (listenersRunning == 0 || gone) {
                return false;
            }
            flushAfterListeners.addLast(call);
            return true;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            channel = ctx.channel();
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (closedBecause != null) {
                // Closed now while it was still being set up.
                ctx.pipeline().firstContext().close();
                return;
            }
            // A server that never says SETTINGS would hold the waiting calls forever.
            ctx.executor().schedule(() -> {
                if (!settingsSeen) {
                    ctx.close();
                }
            }, SETTINGS_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2SettingsFrame settings) {
                long max = settings.settings().get(Http2Settings.MAX_CONCURRENT_STREAMS, -1);
                if (max >= 0) {
                    maxStreams = max;
                }
                // As grpc-java: streams open once the server's first SETTINGS (its stream limit) are known.
                if (!settingsSeen && keepAliveTimeNanos > 0) {
                    keepAliveCheck = ctx.executor().schedule(() -> keepAlive(ctx), keepAliveTimeNanos,
                            TimeUnit.NANOSECONDS);
                }
                settingsSeen = true;
                startWaiting();
            } else if (msg instanceof Http2PingFrame ping && ping.ack() && ping.content() == pingPayload
                    && pingTimeout != null) {
                pingTimeout.cancel(false);
                pingTimeout = null;
            } else if (msg instanceof Http2GoAwayFrame) {
                // RFC 9113 §6.8: the streams in flight finish here; new calls go to a new connection.
                draining = true;
                if (connection == this) {
                    connection = null;
                }
                ArrayDeque<ClientCallStream<?, ?>> moved = new ArrayDeque<>(waiting);
                waiting.clear();
                for (ClientCallStream<?, ?> call : moved) {
                    enqueue(call);
                }
                closeIfIdle();
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            cancelKeepAlive();
            failed(Status.UNAVAILABLE.withDescription("the connection to " + authority + " closed"));
            ctx.fireChannelInactive();
        }

        /**
         * Keepalive: a PING after {@code keepAliveTime} without a read (while calls are open, or always with
         * keepAliveWithoutCalls), and the connection closed if its ACK does not come within the timeout.
         */
        private void keepAlive(ChannelHandlerContext ctx) {
            keepAliveCheck = null;
            if (gone || !ctx.channel().isActive()) {
                return;
            }
            long idle = System.nanoTime() - lastReadNanos;
            if (idle >= keepAliveTimeNanos && pingTimeout == null && (keepAliveWithoutCalls || openStreams > 0)) {
                pingPayload = System.nanoTime();
                ctx.writeAndFlush(new Http2PingFrame(pingPayload, false));
                pingTimeout = ctx.executor().schedule(() -> {
                    pingTimeout = null;
                    closedBecause = Status.UNAVAILABLE.withDescription("keepalive PING to " + authority
                            + " not acknowledged within " + TimeUnit.NANOSECONDS.toMillis(keepAliveTimeoutNanos)
                            + " ms");
                    closeNow(closedBecause);
                }, keepAliveTimeoutNanos, TimeUnit.NANOSECONDS);
                idle = 0;
            }
            keepAliveCheck = ctx.executor().schedule(() -> keepAlive(ctx),
                    Math.max(1, keepAliveTimeNanos - Math.min(idle, keepAliveTimeNanos)), TimeUnit.NANOSECONDS);
        }

        private void cancelKeepAlive() {
            if (keepAliveCheck != null) {
                keepAliveCheck.cancel(false);
                keepAliveCheck = null;
            }
            if (pingTimeout != null) {
                pingTimeout.cancel(false);
                pingTimeout = null;
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

        void startWaiting() {
            if (!settingsSeen || gone) {
                return;
            }
            ClientCallStream<?, ?> next;
            while (openStreams < maxStreams && (next = waiting.pollFirst()) != null) {
                if (next.open(this)) {
                    openStreams++;
                }
            }
        }

        /** A call's stream closed: its slot goes to the next waiting call. */
        void streamReleased() {
            openStreams--;
            startWaiting();
            closeIfIdle();
        }

        void closeIfIdle() {
            if (draining && openStreams == 0 && waiting.isEmpty() && channel != null) {
                channel.close();
            }
        }

        /**
         * Closes this connection at once, below the codec (whose graceful close would wait for the open streams):
         * the calls on it end with {@code why}.
         */
        void closeNow(Status why) {
            if (closedBecause == null) {
                closedBecause = why;
            }
            draining = true;
            if (connection == this) {
                connection = null;
            }
            failWaiting(why);
            if (channel != null) {
                // The server learns why the streams end (RFC 9113 §6.8) before the socket closes; the frame leaves
                // if the socket takes it now, as the close does not wait.
                if (channel.isActive()) {
                    channel.writeAndFlush(new Http2GoAwayFrame(Http2Error.NO_ERROR), channel.voidPromise());
                }
                // Gone when the channel is: channelInactive, or the connect's failure if it was not yet connected.
                channel.pipeline().firstContext().close();
            } else {
                failed(why);
            }
        }

        void failWaiting(Status status) {
            ClientCallStream<?, ?> call;
            while ((call = waiting.pollFirst()) != null) {
                call.failToStart(status);
            }
        }

        void failed(Status status) {
            if (gone) {
                return;
            }
            gone = true;
            failWaiting(status);
            connectionGone(this);
        }
    }

    /**
     * The handler of streams the server pushes: a gRPC client asks for none (RFC 9113 §8.4), so one that comes is
     * released and reset.
     */
    static final class RefusePushedStreams implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
            ctx.close();
        }
    }

    /** Settings of a {@link WeirGrpcChannel}. Not thread-safe. */
    public static final class Builder {
        private final String host;
        private final int port;
        private String authority;
        private SslContext tls;
        private EventLoopGroup group;
        private Class<? extends Channel> channelType = NioSocketChannel.class;
        private Executor executor;
        private int maxInboundMessageSize = DEFAULT_MAX_INBOUND_MESSAGE_SIZE_BYTES;
        private int flowControlWindow = DEFAULT_FLOW_CONTROL_WINDOW_BYTES;
        private CompressorRegistry compressors = CompressorRegistry.getDefaultInstance();
        private DecompressorRegistry decompressors = DecompressorRegistry.getDefaultInstance();
        private long keepAliveTimeNanos;
        private long keepAliveTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(DEFAULT_KEEPALIVE_TIMEOUT_MILLIS);
        private boolean keepAliveWithoutCalls;

        private Builder(String host, int port) {
            this.host = Objects.requireNonNull(host, "host");
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port: " + port + " (expected 1-65535)");
            }
            this.port = port;
        }

        /** Plaintext HTTP/2 by prior knowledge (h2c), the default; returns this. */
        public Builder usePlaintext() {
            this.tls = null;
            return this;
        }

        /**
         * TLS with {@code context}, a client context that offers ALPN {@code h2}
         * ({@code SslContextBuilder.forClient().applicationProtocols("h2")}); returns this.
         *
         * @throws IllegalArgumentException for a server context or one that does not offer h2
         */
        public Builder tls(SslContext context) {
            Objects.requireNonNull(context, "context");
            if (!context.isClient() || !context.applicationProtocols().contains("h2")) {
                throw new IllegalArgumentException("a client SslContext offering ALPN h2 is needed: " + context);
            }
            this.tls = context;
            return this;
        }

        /** The {@code :authority} of the calls (default {@code host:port}); returns this. */
        public Builder overrideAuthority(String authority) {
            this.authority = Objects.requireNonNull(authority, "authority");
            return this;
        }

        /**
         * The loops the connection runs on (default: a NIO loop of the channel's own, shut down with it); a group of
         * another transport needs its {@link #channelType}. Returns this.
         */
        public Builder eventLoopGroup(EventLoopGroup group) {
            this.group = Objects.requireNonNull(group, "group");
            return this;
        }

        /**
         * The class of the connection's socket channel, which {@link #eventLoopGroup}'s transport must serve
         * (default {@code NioSocketChannel}; {@code EpollSocketChannel} on an epoll group, for one). Returns this.
         */
        public Builder channelType(Class<? extends Channel> type) {
            this.channelType = Objects.requireNonNull(type, "type");
            return this;
        }

        /**
         * Where listeners run when their call's options name no executor (default: the connection's event loop,
         * for listeners that never block); returns this.
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * The largest response message accepted, in octets, as received and once decompressed; a larger one ends
         * its call with RESOURCE_EXHAUSTED. Default {@value #DEFAULT_MAX_INBOUND_MESSAGE_SIZE_BYTES}. Returns this.
         *
         * @throws IllegalArgumentException if {@code bytes} is negative
         */
        public Builder maxInboundMessageSize(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("maxInboundMessageSize: " + bytes + " (expected >= 0)");
            }
            this.maxInboundMessageSize = bytes;
            return this;
        }

        /**
         * How many response octets the server may send ahead of what the calls read, per stream and for the
         * connection (SETTINGS_INITIAL_WINDOW_SIZE and the connection's window); default
         * {@value #DEFAULT_FLOW_CONTROL_WINDOW_BYTES}. A call reads its stream only as its listener asks, so this
         * bounds what a connection buffers for slow listeners. Returns this.
         *
         * @throws IllegalArgumentException below {@value #MIN_FLOW_CONTROL_WINDOW_BYTES}
         */
        public Builder flowControlWindow(int bytes) {
            if (bytes < MIN_FLOW_CONTROL_WINDOW_BYTES) {
                throw new IllegalArgumentException("flowControlWindow: " + bytes + " (expected >= "
                        + MIN_FLOW_CONTROL_WINDOW_BYTES + ")");
            }
            this.flowControlWindow = bytes;
            return this;
        }

        /** The compressors {@code CallOptions.withCompression} picks from (default: gzip); returns this. */
        public Builder compressorRegistry(CompressorRegistry registry) {
            this.compressors = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /** The decompressors of response messages, advertised in {@code grpc-accept-encoding}; returns this. */
        public Builder decompressorRegistry(DecompressorRegistry registry) {
            this.decompressors = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /**
         * Sends a PING when the connection has read nothing for {@code time}, and closes it (its calls end
         * UNAVAILABLE) when the PING is not acknowledged within {@link #keepAliveTimeout}: a peer or a path that
         * went silent is found without waiting for each call's deadline. Off by default; {@code time} of at least
         * {@value #MIN_KEEPALIVE_TIME_MILLIS} ms. Servers limit how often they accept pings (grpc-java's: once in
         * 5 minutes unless configured), and answer more with GOAWAY. Returns this.
         *
         * @throws IllegalArgumentException for a time below the minimum
         */
        public Builder keepAliveTime(long time, TimeUnit unit) {
            long nanos = unit.toNanos(time);
            if (nanos < TimeUnit.MILLISECONDS.toNanos(MIN_KEEPALIVE_TIME_MILLIS)) {
                throw new IllegalArgumentException("keepAliveTime: " + time + " " + unit + " (expected >= "
                        + MIN_KEEPALIVE_TIME_MILLIS + " ms)");
            }
            this.keepAliveTimeNanos = nanos;
            return this;
        }

        /**
         * How long a keepalive PING may go unacknowledged before the connection is closed (default
         * {@value #DEFAULT_KEEPALIVE_TIMEOUT_MILLIS} ms); returns this.
         *
         * @throws IllegalArgumentException if {@code timeout} is not positive
         */
        public Builder keepAliveTimeout(long timeout, TimeUnit unit) {
            if (timeout <= 0) {
                throw new IllegalArgumentException("keepAliveTimeout: " + timeout + " (expected > 0)");
            }
            this.keepAliveTimeoutNanos = unit.toNanos(timeout);
            return this;
        }

        /** Whether keepalive PINGs go out while no call is open (default false: only with calls); returns this. */
        public Builder keepAliveWithoutCalls(boolean enabled) {
            this.keepAliveWithoutCalls = enabled;
            return this;
        }

        /** The channel; it connects at its first call. */
        public WeirGrpcChannel build() {
            return new WeirGrpcChannel(this);
        }
    }
}
