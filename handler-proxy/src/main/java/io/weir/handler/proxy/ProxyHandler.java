package io.weir.handler.proxy;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.DecoderException;
import io.weir.handler.proxy.ProxyConnectException.Reason;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ConnectionPendingException;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Makes a client channel's connect go through a proxy. Put it first in the pipeline; the channel then connects to
 * the proxy's address instead of the destination, runs the proxy's handshake, and only then completes the
 * connect's future. To the handlers after it the channel looks directly connected to the destination.
 *
 * <pre>{@code
 * Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class)
 *         .handler(new ChannelInitializer<Channel>() {
 *             protected void initChannel(Channel ch) {
 *                 ch.pipeline().addLast(new Socks5ProxyHandler(proxy, "alice", "s3cret"), new MyHandler());
 *             }
 *         });
 * Channel ch = b.connect("example.com", 443).sync().channel();   // through the proxy
 * }</pre>
 *
 * <h2>What happens</h2>
 * <ol>
 *   <li>The connect that reaches the handler (its address is the destination) is turned into a connect to
 *       {@link #proxyAddress()}; the handler adds its protocol's codecs just before itself.</li>
 *   <li>When the connection to the proxy is up, the handler sends its request and reads the proxy's answers. The
 *       handlers after it see neither {@code channelActive} nor any byte of the handshake; what they write
 *       meanwhile is held (at most {@linkplain #setMaxPendingWriteBytes the pending-write limit}) and a flush is
 *       remembered.</li>
 *   <li>On success the held writes go out (and are flushed if a flush was asked for), a
 *       {@link ProxyConnectionEvent} and then {@code channelActive} travel on, the connect's future succeeds, and
 *       the handler removes its codecs and itself: every later byte, including bytes the destination sent right
 *       behind the proxy's answer, passes untouched.</li>
 *   <li>On failure the future fails with a {@link ProxyConnectException} naming the proxy, the destination and
 *       the {@linkplain ProxyConnectException#reason() reason}, the held writes fail with it, and the channel is
 *       closed. The handlers after it get no {@code exceptionCaught} for it: the future is the one report.</li>
 * </ol>
 * The whole of it, from the connect to the proxy to the tunnel, must finish within the
 * {@linkplain #setConnectTimeoutMillis connect timeout} (10 s by default), or the connect fails with
 * {@link Reason#TIMEOUT}. Nothing the proxy sends is buffered beyond one bounded answer.
 *
 * <h2>Host names</h2>
 * The destination travels to the proxy as its host name when it has one, for the proxy to resolve: an unresolved
 * {@link InetSocketAddress}, or one resolved from a name as {@code Bootstrap.connect(host, port)} makes it. An
 * address without a name travels as its IP address. {@code Bootstrap} resolves a name with its resolver before the
 * pipeline sees it, so the name is also looked up locally (and a name only the proxy knows fails there); to leave
 * names to the proxy, give the bootstrap {@code resolver(NoopAddressResolverGroup.INSTANCE)}
 * ({@link io.weir.resolver.NoopAddressResolverGroup}).
 *
 * <p><b>Threads.</b> Event loop only; one instance per channel. Settings are read when the connect starts; change
 * them before. The handler must be in the pipeline before the channel connects.
 */
public abstract sealed class ProxyHandler implements ChannelHandler
        permits HttpProxyHandler, Socks4ProxyHandler, Socks5ProxyHandler {
    /** Default time for the whole proxy connect, from the connect to the proxy to the tunnel: 10 s. */
    public static final long DEFAULT_CONNECT_TIMEOUT_MILLIS = 10_000;
    /** Default bound on what the handlers after it may write before the tunnel is up: 64 KiB. */
    public static final int DEFAULT_MAX_PENDING_WRITE_BYTES = 64 * 1024;

    /** The handler is transparent: no connect has passed through it. */
    private static final byte IDLE = 0;
    /** Connecting to the proxy. */
    private static final byte CONNECTING = 1;
    /** Connected to the proxy, handshake under way. */
    private static final byte HANDSHAKING = 2;
    /** The tunnel is up; the handler is leaving the pipeline. */
    private static final byte ESTABLISHED = 3;
    private static final byte FAILED = 4;

    private final SocketAddress proxyAddress;
    private long connectTimeoutMillis = DEFAULT_CONNECT_TIMEOUT_MILLIS;
    private int maxPendingWriteBytes = DEFAULT_MAX_PENDING_WRITE_BYTES;

    private byte state = IDLE;
    private ChannelHandlerContext ctx;
    private InetSocketAddress destination;
    private ChannelPromise connectPromise;
    private ScheduledFuture<?> timeout;
    private ArrayDeque<PendingWrite> pendingWrites;
    private long pendingBytes;
    private boolean flushPending;
    private ProxyConnectException failure;
    private ChannelHandler[] codecs;

    private record PendingWrite(Object msg, ChannelPromise promise) {
    }

    ProxyHandler(SocketAddress proxyAddress) {
        this.proxyAddress = Objects.requireNonNull(proxyAddress, "proxyAddress");
    }

    // ---------------------------------------------------------------- settings and state

    /** The proxy protocol: {@code "http"}, {@code "socks4a"} or {@code "socks5"}. */
    public abstract String protocol();

    /** How the handler authenticates: {@code "none"}, {@code "basic"}, {@code "userid"} or {@code "password"}. */
    public abstract String authScheme();

    /** The proxy's address, which the channel connects to. */
    public final SocketAddress proxyAddress() {
        return proxyAddress;
    }

    /** The destination of the connect that passed through the handler, or {@code null} before one did. */
    public final InetSocketAddress destinationAddress() {
        return destination;
    }

    /** Whether the tunnel is up. */
    public final boolean isConnected() {
        return state == ESTABLISHED;
    }

    /** The time the whole proxy connect may take, in milliseconds; 0 if unlimited. */
    public final long connectTimeoutMillis() {
        return connectTimeoutMillis;
    }

    /**
     * Sets the time the whole proxy connect may take, from the connect to the proxy until the tunnel is up, before
     * it fails with {@link Reason#TIMEOUT}. 0 disables it, leaving only the channel's own connect timeout for the
     * connection to the proxy and nothing for a proxy that never answers: not recommended.
     *
     * @return this handler
     * @throws IllegalArgumentException if negative
     */
    public final ProxyHandler setConnectTimeoutMillis(long connectTimeoutMillis) {
        if (connectTimeoutMillis < 0) {
            throw new IllegalArgumentException("connectTimeoutMillis: " + connectTimeoutMillis
                    + " (expected >= 0, 0 disables)");
        }
        this.connectTimeoutMillis = connectTimeoutMillis;
        return this;
    }

    /** The most bytes the handlers after it may write before the tunnel is up. */
    public final int maxPendingWriteBytes() {
        return maxPendingWriteBytes;
    }

    /**
     * Sets the most bytes (as the channel's message size estimator counts them) the handlers after it may write
     * before the tunnel is up; a write beyond it fails at once with an {@link IllegalStateException}, and the
     * writes before it stay held.
     *
     * @return this handler
     * @throws IllegalArgumentException if negative
     */
    public final ProxyHandler setMaxPendingWriteBytes(int maxPendingWriteBytes) {
        if (maxPendingWriteBytes < 0) {
            throw new IllegalArgumentException("maxPendingWriteBytes: " + maxPendingWriteBytes + " (expected >= 0)");
        }
        this.maxPendingWriteBytes = maxPendingWriteBytes;
        return this;
    }

    // ---------------------------------------------------------------- what each protocol supplies

    /**
     * Refuses a destination the protocol cannot carry.
     *
     * @throws ProxyConnectException with {@link Reason#UNSUPPORTED_DESTINATION}
     */
    void checkDestination(InetSocketAddress destination, String host) throws ProxyConnectException {
    }

    /** New instances of the protocol's codecs, in pipeline order; they go just before this handler. */
    abstract ChannelHandler[] newCodecs();

    /** The first message to the proxy, for {@code host} (see {@link #hostOf}) and the destination's port. */
    abstract Object initialRequest(String host, int port);

    /**
     * Handles one message from the proxy's decoder; may {@link #sendToProxy send} the next request. The caller
     * releases {@code msg}.
     *
     * @return whether the tunnel is now up
     * @throws ProxyConnectException if the proxy refused or broke its protocol
     */
    abstract boolean handleResponse(ChannelHandlerContext ctx, Object msg) throws ProxyConnectException;

    /** A failure of this connect, for {@link #handleResponse} and {@link #checkDestination} to throw. */
    final ProxyConnectException failure(Reason reason, int replyCode, String detail, Throwable cause) {
        return new ProxyConnectException(reason, protocol(), proxyAddress, destination, replyCode, detail, cause);
    }

    /** Writes and flushes {@code msg} to the proxy; a failed write fails the connect. */
    final void sendToProxy(ChannelHandlerContext ctx, Object msg) {
        ctx.writeAndFlush(msg).addListener(f -> {
            if (!f.isSuccess()) {
                fail(failure(f.cause() instanceof IOException ? Reason.CLOSED : Reason.PROTOCOL_ERROR,
                        ProxyConnectException.NO_REPLY_CODE, "sending to the proxy failed: " + f.cause(), f.cause()));
            }
        });
    }

    /**
     * The destination's host as it travels to the proxy: its name if it has one (unresolved, or resolved from a
     * name), else its IP address as text, without brackets or IPv6 zone. Never looks anything up.
     */
    static String hostOf(InetSocketAddress address) {
        String host = address.getHostString();
        int zone = host.indexOf('%');
        return zone >= 0 && host.indexOf(':') >= 0 ? host.substring(0, zone) : host;
    }

    // ---------------------------------------------------------------- life cycle

    /**
     * @throws IllegalStateException if the channel is already active: a connect that did not pass through the
     *         handler cannot be taken back
     */
    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            throw new IllegalStateException(getClass().getSimpleName() + " must be in the pipeline before the "
                    + "channel connects: " + ctx.channel() + " is already active");
        }
        this.ctx = ctx;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelTimeout();
        if (state == CONNECTING || state == HANDSHAKING) {
            // Removed by the application mid-handshake: nothing will complete the connect any more.
            fail(failure(Reason.CLOSED, ProxyConnectException.NO_REPLY_CODE,
                    "the proxy handler was removed before the tunnel was up", null));
        }
    }

    @Override
    public void connect(ChannelHandlerContext ctx, SocketAddress remoteAddress, SocketAddress localAddress,
                        ChannelPromise promise) throws Exception {
        if (state != IDLE) {
            promise.tryFailure(new ConnectionPendingException());
            return;
        }
        if (!promise.setUncancellable()) {
            return;
        }
        connectPromise = promise;
        if (!(remoteAddress instanceof InetSocketAddress address)) {
            fail(new ProxyConnectException(Reason.UNSUPPORTED_DESTINATION, protocol(), proxyAddress, remoteAddress,
                    ProxyConnectException.NO_REPLY_CODE, "a proxy destination is a host (or IP address) and a port",
                    null));
            return;
        }
        destination = address;
        try {
            checkDestination(address, hostOf(address));
        } catch (ProxyConnectException e) {
            fail(e);
            return;
        }
        state = CONNECTING;
        codecs = newCodecs();
        for (ChannelHandler codec : codecs) {
            ctx.pipeline().addBefore(ctx.name(), null, codec);
        }
        if (connectTimeoutMillis > 0) {
            timeout = ctx.executor().schedule(this::timedOut, connectTimeoutMillis, TimeUnit.MILLISECONDS);
        }
        ChannelPromise toProxy = ctx.newPromise();
        toProxy.addListener(f -> {
            if (!f.isSuccess()) {
                fail(failure(Reason.PROXY_UNREACHABLE, ProxyConnectException.NO_REPLY_CODE,
                        "cannot connect to the proxy: " + f.cause(), f.cause()));
            }
        });
        ctx.connect(proxyAddress, localAddress, toProxy);
    }

    /** The connection to the proxy is up: start the handshake, and keep {@code channelActive} until the tunnel is. */
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (state != CONNECTING) {
            if (state == IDLE) {
                ctx.fireChannelActive();
            }
            return;
        }
        state = HANDSHAKING;
        sendToProxy(ctx, initialRequest(hostOf(destination), destination.getPort()));
        if (!ctx.channel().config().isAutoRead()) {
            ctx.read();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (state == HANDSHAKING) {
            boolean up;
            try {
                up = handleResponse(ctx, msg);
            } catch (ProxyConnectException e) {
                fail(e);
                return;
            } finally {
                ReferenceCountUtil.release(msg);
            }
            if (up) {
                established(ctx);
            }
        } else if (state == FAILED) {
            // Closing: what the proxy still sends is dropped.
            ReferenceCountUtil.release(msg);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (state == HANDSHAKING) {
            // Nobody after this handler has seen a byte; with auto-read off, the handshake asks for more itself.
            if (!ctx.channel().config().isAutoRead()) {
                ctx.read();
            }
        } else if (state != FAILED) {
            ctx.fireChannelReadComplete();
        }
    }

    /** Before the tunnel is up the handlers after this one have not seen {@code channelActive}, nor see this. */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (state == CONNECTING || state == HANDSHAKING) {
            fail(failure(Reason.CLOSED, ProxyConnectException.NO_REPLY_CODE,
                    "the connection closed before the tunnel was up", null));
        } else if (state != FAILED) {
            ctx.fireChannelInactive();
        }
    }

    /** Before the tunnel is up an exception fails the connect; it does not travel on. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (state == CONNECTING || state == HANDSHAKING) {
            Reason reason = cause instanceof IOException ? Reason.CLOSED : Reason.PROTOCOL_ERROR;
            String what = cause instanceof DecoderException ? "the proxy's answer was refused: " : "failed: ";
            fail(failure(reason, ProxyConnectException.NO_REPLY_CODE, what + cause.getMessage(), cause));
        } else if (state != FAILED) {
            ctx.fireExceptionCaught(cause);
        }
    }

    /** Before the tunnel is up writes are held, up to {@link #maxPendingWriteBytes()}. */
    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (state == CONNECTING || state == HANDSHAKING) {
            int size = ctx.channel().config().getMessageSizeEstimator().newHandle().size(msg);
            if (pendingBytes + size > maxPendingWriteBytes) {
                ReferenceCountUtil.release(msg);
                promise.tryFailure(new IllegalStateException("the proxy handler holds at most "
                        + maxPendingWriteBytes + " bytes written before the tunnel is up; " + pendingBytes
                        + " are held and this write adds " + size));
                return;
            }
            if (pendingWrites == null) {
                pendingWrites = new ArrayDeque<>();
            }
            pendingWrites.add(new PendingWrite(msg, promise));
            pendingBytes += size;
        } else if (state == FAILED) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(failure);
        } else {
            ctx.write(msg, promise);
        }
    }

    /** Before the tunnel is up a flush is remembered and done once the held writes go out. */
    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (state == CONNECTING || state == HANDSHAKING) {
            flushPending = true;
        } else {
            ctx.flush();
        }
    }

    // ---------------------------------------------------------------- outcome

    private void established(ChannelHandlerContext ctx) {
        state = ESTABLISHED;
        cancelTimeout();
        ArrayDeque<PendingWrite> writes = takePendingWrites();
        for (PendingWrite w; (w = writes.poll()) != null; ) {
            ctx.write(w.msg(), w.promise());
        }
        if (flushPending) {
            ctx.flush();
        }
        ctx.fireUserEventTriggered(new ProxyConnectionEvent(protocol(), authScheme(), proxyAddress, destination));
        ctx.fireChannelActive();
        connectPromise.trySuccess();
        ChannelPipeline pipeline = ctx.pipeline();
        // Removing a decoder hands on what it still holds; this handler passes it on until it is gone too. A SOCKS
        // decoder has already removed itself, after its last answer.
        for (ChannelHandler codec : codecs) {
            if (pipeline.context(codec) != null) {
                pipeline.remove(codec);
            }
        }
        if (!ctx.isRemoved()) {
            pipeline.remove(this);
        }
    }

    private void timedOut() {
        timeout = null;
        if (state == CONNECTING) {
            fail(failure(Reason.TIMEOUT, ProxyConnectException.NO_REPLY_CODE, "no connection to the proxy within "
                    + connectTimeoutMillis + " ms", null));
        } else if (state == HANDSHAKING) {
            fail(failure(Reason.TIMEOUT, ProxyConnectException.NO_REPLY_CODE, "the proxy did not complete the "
                    + protocol() + " handshake within " + connectTimeoutMillis + " ms", null));
        }
    }

    private void fail(ProxyConnectException e) {
        if (state == FAILED || state == ESTABLISHED) {
            return;
        }
        state = FAILED;
        failure = e;
        cancelTimeout();
        ArrayDeque<PendingWrite> writes = takePendingWrites();
        for (PendingWrite w; (w = writes.poll()) != null; ) {
            ReferenceCountUtil.release(w.msg());
            w.promise().tryFailure(e);
        }
        connectPromise.tryFailure(e);
        ctx.close();
    }

    /** The held writes, in order (an empty queue if none), which this handler holds no longer. */
    private ArrayDeque<PendingWrite> takePendingWrites() {
        ArrayDeque<PendingWrite> writes = pendingWrites;
        pendingWrites = null;
        pendingBytes = 0;
        return writes != null ? writes : new ArrayDeque<>(0);
    }

    private void cancelTimeout() {
        ScheduledFuture<?> t = timeout;
        timeout = null;
        if (t != null) {
            t.cancel(false);
        }
    }
}
