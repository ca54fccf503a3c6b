package io.weir.handler.codec.http;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.ChannelShutdownEvent;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayDeque;

/**
 * The client side of HTTP/1.1 in one handler: an {@link HttpRequestEncoder} for the requests the application
 * writes and an {@link HttpResponseDecoder} for what arrives, paired request by request.
 *
 * <pre>{@code
 * ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(1 << 20), new MyResponseHandler());
 * }</pre>
 *
 * <h2>Pairing</h2>
 * Each request written queues its method; each final (non-1xx) response takes the oldest one, so that
 * <ul>
 * <li>a response to HEAD is read without a body whatever its Content-Length says (RFC 9110 §9.3.2);</li>
 * <li>a 2xx response to CONNECT ends HTTP on the connection (RFC 9110 §9.3.6): later bytes in both directions pass
 *     through as {@link io.weir.buffer.ByteBuf}s; so do they after a 101 Switching Protocols response;</li>
 * <li>a response with no request outstanding is emitted with a failed
 *     {@link io.weir.handler.codec.DecoderResult} whose cause is an {@link UnexpectedHttpResponseException}, and
 *     every later byte is discarded: nothing after it can be paired reliably;</li>
 * <li>interim responses (100 Continue, 103 Early Hints) are passed on and leave the request waiting.</li>
 * </ul>
 * When the connection closes while requests still wait for their responses, a
 * {@link PrematureChannelClosureException} is passed to {@code exceptionCaught} after {@code channelInactive}; a
 * response cut short in its body ends with a failed {@link LastHttpContent} instead.
 *
 * <h2>Host</h2>
 * An HTTP/1.1 request written without a Host field gets one (RFC 9112 §3.2): the authority of an absolute-form
 * target, a CONNECT's target, or the address the channel is connected to. A Host the application set is kept.
 *
 * <h2>Threads</h2>
 * Called only on the channel's event loop. Keeps per-connection state: one instance per channel.
 */
public final class HttpClientCodec implements ChannelHandler {
    private final ArrayDeque<HttpMethod> methods = new ArrayDeque<>();
    private final ResponseDecoder decoder;
    private final HttpRequestEncoder encoder = new HttpRequestEncoder();
    /** The connection left HTTP (CONNECT tunnel, protocol switch): writes pass through untouched. */
    private boolean rawBytes;

    /** A codec with the {@link HttpDecoderConfig} defaults. */
    public HttpClientCodec() {
        this(new HttpDecoderConfig());
    }

    /**
     * A codec with the given decoder limits and the other defaults.
     *
     * @throws IllegalArgumentException if a limit is not positive
     */
    public HttpClientCodec(int maxInitialLineLength, int maxHeaderSize, int maxChunkSize) {
        this(new HttpDecoderConfig().setMaxInitialLineLength(maxInitialLineLength).setMaxHeaderSize(maxHeaderSize)
                .setMaxChunkSize(maxChunkSize));
    }

    /**
     * A codec whose decoder uses {@code config}, copied now.
     *
     * @throws NullPointerException if {@code config} is null
     */
    public HttpClientCodec(HttpDecoderConfig config) {
        decoder = new ResponseDecoder(config);
    }

    /** How many requests written still wait for the start of their response. */
    public int outstandingRequests() {
        return methods.size();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (rawBytes) {
            ctx.write(msg, promise);
            return;
        }
        if (msg instanceof HttpRequest req) {
            methods.add(req.method());
            if (!req.protocolVersion().equals(HttpVersion.HTTP_1_0) && !req.headers().contains(HttpHeaderNames.HOST)) {
                CharSequence host = hostFor(req, ctx.channel().remoteAddress());
                if (host != null) {
                    req.headers().set(HttpHeaderNames.HOST, host);
                }
            }
        }
        encoder.write(ctx, msg, promise);
    }

    /**
     * The Host a request without one gets (RFC 9112 §3.2: every HTTP/1.1 request carries one, and servers, Weir's
     * included, answer 400 without it): the authority of an absolute-form target, a CONNECT's target, or else the
     * address the channel is connected to ({@code host:port}, the port left out when it is 80); null when none of
     * them is known (a channel that is not an IP socket).
     */
    static CharSequence hostFor(HttpRequest req, SocketAddress remote) {
        String uri = req.uri();
        if (req.method().equals(HttpMethod.CONNECT)) {
            return uri;
        }
        int scheme = uri.indexOf("://");
        if (scheme > 0 && uri.charAt(0) != '/') {
            int start = scheme + 3;
            int end = start;
            while (end < uri.length() && uri.charAt(end) != '/' && uri.charAt(end) != '?' && uri.charAt(end) != '#') {
                end++;
            }
            String authority = uri.substring(start, end);
            int at = authority.lastIndexOf('@');
            return at >= 0 ? authority.substring(at + 1) : authority;
        }
        if (remote instanceof InetSocketAddress inet) {
            String name = inet.getHostString();
            String host = name.indexOf(':') >= 0 ? '[' + name + ']' : name;
            return inet.getPort() == 80 ? host : host + ':' + inet.getPort();
        }
        return null;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        decoder.channelRead(ctx, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        decoder.channelReadComplete(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        decoder.channelInactive(ctx);
        int missing = methods.size();
        if (missing > 0 && !decoder.isRejected()) {
            methods.clear();
            ctx.fireExceptionCaught(new PrematureChannelClosureException("the connection closed with " + missing
                    + " request(s) still waiting for a response"));
        }
    }

    @Override
    public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) throws Exception {
        decoder.channelShutdown(ctx, event);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        decoder.handlerRemoved(ctx);
    }

    private final class ResponseDecoder extends HttpResponseDecoder {
        private HttpMethod method;

        ResponseDecoder(HttpDecoderConfig config) {
            super(config);
        }

        @Override
        protected boolean isContentAlwaysEmpty(HttpMessage msg) {
            int code = ((HttpResponse) msg).status().code();
            if (code < 200 && code != 101) {
                // Interim: the final response to the same request is still to come.
                method = null;
                return true;
            }
            HttpMethod m = methods.poll();
            if (m == null) {
                throw new UnexpectedHttpResponseException("a " + code + " response arrived with no request "
                        + "outstanding");
            }
            method = m;
            return HttpMethod.HEAD.equals(m) || isConnectSuccess(m, code) || super.isContentAlwaysEmpty(msg);
        }

        @Override
        boolean switchesToRawBytes(HttpMessage msg) {
            int code = ((HttpResponse) msg).status().code();
            if (code == 101 || method != null && isConnectSuccess(method, code)) {
                rawBytes = true;
                return true;
            }
            return false;
        }

        private boolean isConnectSuccess(HttpMethod m, int code) {
            return HttpMethod.CONNECT.equals(m) && code >= 200 && code < 300;
        }
    }
}
