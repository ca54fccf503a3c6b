package io.weir.grpc;

import io.weir.bootstrap.Bootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2MultiplexHandler;
import io.weir.handler.codec.http2.Http2Settings;
import io.weir.handler.codec.http2.Http2SettingsFrame;
import io.weir.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A minimal gRPC client on one HTTP/2 connection (h2c by prior knowledge, as grpc-java's {@code usePlaintext()}):
 * each call is a stream opened with an {@code Http2StreamChannelBootstrap}. {@link #newCall} gives the streaming
 * API (any of the four kinds); {@link #unary}, {@link #serverStreaming} and {@link #clientStreaming} are shortcuts
 * over byte arrays whose futures fail with a {@link GrpcException} for a status other than OK.
 *
 * <p>Every call has a deadline unless given {@link Long#MAX_VALUE}: it is sent as {@code grpc-timeout} and enforced
 * here too (DEADLINE_EXCEEDED and RST_STREAM CANCEL), from the moment the call is made. Calls beyond the server's
 * SETTINGS_MAX_CONCURRENT_STREAMS wait, in order, for a stream to close (their deadline runs while they wait).
 * Response messages above {@link #maxMessageSize(int)} end their call with RESOURCE_EXHAUSTED. Thread-safe.
 *
 * <p>A cancel, an expired deadline or a response found bad (too large, malformed) ends the call at once for the
 * caller and resets the stream (RST_STREAM CANCEL); what the server had already sent on it is ignored on arrival
 * (RFC 9113 §5.1), and the connection's other calls carry on.
 */
public final class GrpcClient implements AutoCloseable {
    /** The largest response message accepted by default, in octets: 4 MiB, as grpc-java. */
    public static final int DEFAULT_MAX_MESSAGE_SIZE_BYTES = 4 << 20;
    /** How long {@link #connect} waits for the server's first SETTINGS frame, in milliseconds. */
    public static final long SETTINGS_TIMEOUT_MILLIS = 10_000;

    private final Channel channel;
    private final String authority;
    private volatile int maxMessageSize = DEFAULT_MAX_MESSAGE_SIZE_BYTES;
    // Event loop only: the streams open and the calls waiting for one.
    private long maxStreams = Long.MAX_VALUE;
    private int openStreams;
    private final ArrayDeque<GrpcClientCall> waiting = new ArrayDeque<>();

    private GrpcClient(Channel channel, String authority) {
        this.channel = channel;
        this.authority = authority;
    }

    /**
     * Connects to {@code address} over h2c on {@code group} with channels of {@code channelType} (one that the
     * group's loops run: {@code NioSocketChannel} for NIO loops, {@code EpollSocketChannel} for epoll) and waits
     * until connected. A failed connect throws what the transport reported ({@code ConnectTimeoutException},
     * {@code ConnectException}, ...).
     *
     * @throws InterruptedException if interrupted while connecting
     * @throws IllegalStateException if the server's first SETTINGS frame does not arrive within
     *         {@link #SETTINGS_TIMEOUT_MILLIS}
     */
    public static GrpcClient connect(EventLoopGroup group, Class<? extends Channel> channelType,
            InetSocketAddress address) throws InterruptedException {
        CompletableFuture<GrpcClient> ready = new CompletableFuture<>();
        String authority = address.getHostString() + ':' + address.getPort();
        Channel ch = new Bootstrap().group(group).channel(channelType)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel c) {
                        c.pipeline().addLast(Http2FrameCodecBuilder.forClient().build(),
                                new Http2MultiplexHandler(new RefusePushedStreams()),
                                new SettingsWatcher(new GrpcClient(c, authority), ready));
                    }
                })
                .connect(address).sync().channel();
        try {
            // As grpc-java: calls start once the server's SETTINGS (its stream limit) are known.
            return ready.get(SETTINGS_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            ch.close();
            throw new IllegalStateException("no SETTINGS from " + address + " within " + SETTINGS_TIMEOUT_MILLIS
                    + " ms", e);
        }
    }

    /**
     * The largest response message accepted, in octets (default {@value #DEFAULT_MAX_MESSAGE_SIZE_BYTES}), for calls
     * started afterwards. Returns this.
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public GrpcClient maxMessageSize(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("maxMessageSize: " + bytes + " (expected >= 0)");
        }
        this.maxMessageSize = bytes;
        return this;
    }

    int maxMessageSize() {
        return maxMessageSize;
    }

    /** The connection's channel. */
    public Channel channel() {
        return channel;
    }

    String authority() {
        return authority;
    }

    CharSequence scheme() {
        return "http";
    }

    /**
     * Starts a call of {@code fullMethodName} ({@code package.Service/Method}) with a deadline of {@code timeout}
     * ({@link Long#MAX_VALUE}: none); {@code listener} hears its answers on the connection's event loop.
     */
    public GrpcClientCall newCall(String fullMethodName, long timeout, TimeUnit unit, GrpcClientCall.Listener listener) {
        Objects.requireNonNull(fullMethodName, "fullMethodName");
        Objects.requireNonNull(listener, "listener");
        long nanos = timeout == Long.MAX_VALUE ? Long.MAX_VALUE : unit.toNanos(timeout);
        GrpcClientCall call = new GrpcClientCall(this, fullMethodName, nanos, listener, channel.eventLoop());
        if (channel.eventLoop().inEventLoop()) {
            startOrQueue(call);
        } else {
            channel.eventLoop().execute(() -> startOrQueue(call));
        }
        return call;
    }

    private void startOrQueue(GrpcClientCall call) {
        call.armDeadline();
        if (openStreams < maxStreams) {
            openStreams++;
            call.start();
        } else {
            waiting.addLast(call);
        }
    }

    /** A call's stream closed (or never opened): its slot goes to the next waiting call. Event loop only. */
    void streamReleased() {
        openStreams--;
        startWaiting();
    }

    private void startWaiting() {
        GrpcClientCall next;
        while (openStreams < maxStreams && (next = waiting.pollFirst()) != null) {
            if (!next.isDone()) {
                openStreams++;
                next.start();
            }
        }
    }

    /** A unary call: {@code request} in, one response out. */
    public CompletableFuture<byte[]> unary(String fullMethodName, byte[] request, long timeout, TimeUnit unit) {
        Collect collect = new Collect();
        GrpcClientCall call = newCall(fullMethodName, timeout, unit, collect);
        call.sendMessage(Unpooled.wrappedBuffer(request));
        call.halfClose();
        return collect.result.thenApply(GrpcClient::single);
    }

    /** A server-streaming call: {@code request} in, every response out, in order. */
    public CompletableFuture<List<byte[]>> serverStreaming(String fullMethodName, byte[] request, long timeout,
            TimeUnit unit) {
        Collect collect = new Collect();
        GrpcClientCall call = newCall(fullMethodName, timeout, unit, collect);
        call.sendMessage(Unpooled.wrappedBuffer(request));
        call.halfClose();
        return collect.result;
    }

    /** A client-streaming call: every request in, one response out. */
    public CompletableFuture<byte[]> clientStreaming(String fullMethodName, List<byte[]> requests, long timeout,
            TimeUnit unit) {
        Collect collect = new Collect();
        GrpcClientCall call = newCall(fullMethodName, timeout, unit, collect);
        for (byte[] request : requests) {
            call.sendMessage(Unpooled.wrappedBuffer(request));
        }
        call.halfClose();
        return collect.result.thenApply(GrpcClient::single);
    }

    private static byte[] single(List<byte[]> messages) {
        if (messages.size() != 1) {
            throw new IllegalStateException("expected one response message, got " + messages.size());
        }
        return messages.get(0);
    }

    /** Closes the connection (streams still open are reset by the close). */
    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
    }

    /** Gathers a call's responses as byte arrays; completes at the status. */
    private static final class Collect implements GrpcClientCall.Listener {
        final CompletableFuture<List<byte[]>> result = new CompletableFuture<>();
        private final List<byte[]> messages = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void onMessage(ByteBuf message) {
            try {
                messages.add(ByteBufUtil.getBytes(message));
            } finally {
                message.release();
            }
        }

        @Override
        public void onClose(GrpcStatus status, String description) {
            if (status == GrpcStatus.OK) {
                result.complete(messages);
            } else {
                result.completeExceptionally(new GrpcException(status, description));
            }
        }
    }

    /** Learns the server's stream limit from its SETTINGS; the first one makes the client ready. */
    private static final class SettingsWatcher implements ChannelHandler {
        private final GrpcClient client;
        private final CompletableFuture<GrpcClient> ready;

        SettingsWatcher(GrpcClient client, CompletableFuture<GrpcClient> ready) {
            this.client = client;
            this.ready = ready;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2SettingsFrame settings) {
                long max = settings.settings().get(Http2Settings.MAX_CONCURRENT_STREAMS, -1);
                if (max >= 0) {
                    client.maxStreams = max;
                    client.startWaiting();
                }
                ready.complete(client);
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ready.completeExceptionally(new IllegalStateException("connection closed before SETTINGS"));
            ctx.fireChannelInactive();
        }
    }

    /** The server may not open streams on a gRPC connection (no push): whatever it sends on one is dropped. */
    @ChannelHandler.Sharable
    static final class RefusePushedStreams implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
            ctx.close();
        }
    }
}
