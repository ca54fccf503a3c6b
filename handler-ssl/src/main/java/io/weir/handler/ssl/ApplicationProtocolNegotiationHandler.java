package io.weir.handler.ssl;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * Configures the rest of a pipeline once the TLS handshake has chosen an application protocol (ALPN), e.g. HTTP/2
 * or HTTP/1.1 on one port. Put it after the {@link SslHandler}; when the handshake completes it calls
 * {@link #configurePipeline} with the negotiated protocol, or with the fallback when none was negotiated, and
 * removes itself. Messages that arrive before that are held (at most {@link #MAX_HELD_MESSAGES}) and passed on
 * afterwards, so the configured handlers see every byte. A failed handshake calls {@link #handshakeFailure}, which
 * closes the channel by default. Built for extension; one instance per channel; event-loop thread only.
 *
 * <pre>{@code
 * ch.pipeline().addLast(sslContext.newHandler(ch.alloc()), new ApplicationProtocolNegotiationHandler("http/1.1") {
 *     protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
 *         if (protocol.equals("h2")) { ... } else { ctx.pipeline().addLast(new HttpServerCodec(), ...); }
 *     }
 * });
 * }</pre>
 */
public abstract class ApplicationProtocolNegotiationHandler implements ChannelHandler {
    private static final System.Logger LOGGER =
            System.getLogger(ApplicationProtocolNegotiationHandler.class.getName());
    /** Messages held before the handshake completes; more means the peer sent data a TLS handshake cannot carry. */
    public static final int MAX_HELD_MESSAGES = 64;

    private final String fallbackProtocol;
    private final ArrayDeque<Object> held = new ArrayDeque<>();
    private boolean configured;

    /** A handler that uses {@code fallbackProtocol} when ALPN chose nothing (e.g. {@code "http/1.1"}). */
    protected ApplicationProtocolNegotiationHandler(String fallbackProtocol) {
        this.fallbackProtocol = Objects.requireNonNull(fallbackProtocol, "fallbackProtocol");
    }

    /**
     * Adds the handlers for {@code protocol} (the negotiated one, or the fallback) to {@code ctx.pipeline()}.
     * Called once, on the event loop, before any application data is passed on.
     */
    protected abstract void configurePipeline(ChannelHandlerContext ctx, String protocol) throws Exception;

    /** Called when the handshake failed; closes the channel. */
    protected void handshakeFailure(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        ctx.close();
    }

    /**
     * An I/O error before the protocol is configured (a client that resets during the handshake, a record that is
     * not TLS) closes the connection quietly, logged at DEBUG: no protocol handler is there yet to take it, and a
     * client must not be able to fill the server's log. Other errors go on down the pipeline.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (cause instanceof IOException) {
            if (LOGGER.isLoggable(System.Logger.Level.DEBUG)) {
                LOGGER.log(System.Logger.Level.DEBUG, "closing " + ctx.channel() + " before ALPN chose a protocol",
                        cause);
            }
            ctx.close();
        } else {
            ctx.fireExceptionCaught(cause);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (configured) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (held.size() >= MAX_HELD_MESSAGES) {
            ReferenceCountUtil.release(msg);
            ctx.close();
            return;
        }
        held.add(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent && !configured) {
            configured = true;
            SslHandshakeCompletionEvent e = (SslHandshakeCompletionEvent) evt;
            try {
                if (e.isSuccess()) {
                    SslHandler ssl = ctx.pipeline().get(SslHandler.class);
                    if (ssl == null) {
                        throw new IllegalStateException("no SslHandler in the pipeline " + ctx.pipeline().names());
                    }
                    String protocol = ssl.applicationProtocol();
                    configurePipeline(ctx, protocol != null ? protocol : fallbackProtocol);
                } else {
                    handshakeFailure(ctx, e.cause());
                }
            } catch (Throwable t) {
                ctx.fireExceptionCaught(t);
                ctx.close();
            } finally {
                ctx.fireUserEventTriggered(evt);
                for (Object m; (m = held.poll()) != null; ) {
                    ctx.fireChannelRead(m);
                }
                if (!ctx.isRemoved()) {
                    ctx.pipeline().remove(this);
                }
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        for (Object m; (m = held.poll()) != null; ) {
            ReferenceCountUtil.release(m);
        }
    }
}
