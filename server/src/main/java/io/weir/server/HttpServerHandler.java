package io.weir.server;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.SimpleChannelInboundHandler;
import io.weir.handler.codec.haproxy.HAProxyMessageDecoder;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaderValues;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http2.Http2StreamChannel;
import io.weir.metrics.WeirMetrics;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Answers the example server's routes; anything else gets 404, a known path with the wrong method 405.
 * <ul>
 *   <li>{@code GET /plaintext}: {@code Hello, World!} as {@code text/plain} (TechEmpower's plaintext test);</li>
 *   <li>{@code GET /json}: {@code {"message":"Hello, World!"}} as {@code application/json};</li>
 *   <li>{@code POST /echo}: the request body back, with the request's {@code Content-Type};</li>
 *   <li>{@code GET /headers}: the request headers as a JSON object, each name (lower case) mapped to the list of
 *       its values in the order received, after {@code "remote": "IP:port"}, the client's address as the server
 *       sees it (from the PROXY protocol header behind a balancer, else the socket's peer); a request header named
 *       {@code remote} is left out, so that key always means the address;</li>
 *   <li>{@code GET /metrics}: the server's metrics in the Prometheus text format (see {@link PrometheusText}), when
 *       the handler was given a {@link WeirMetrics}; 404 otherwise;</li>
 *   <li>{@code OPTIONS *} (asterisk-form, RFC 9112 §3.2.4, the only method the codec lets use it): {@code 200}
 *       with {@code Allow} and no content. CONNECT never gets here: the codec answers it with 501.</li>
 * </ul>
 * Requests arrive aggregated ({@link FullHttpRequest}). A request rejected in its head never gets here, and one
 * whose body was rejected (a bad chunk) arrives with a failed decoder result and is left unanswered: the server codec
 * answers both itself, with the status the failure calls for. Keep-alive is left to {@code HttpServerKeepAliveHandler}. Sharable: it keeps no state.
 */
@ChannelHandler.Sharable
public final class HttpServerHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final System.Logger LOGGER = System.getLogger(HttpServerHandler.class.getName());
    private static final byte[] PLAINTEXT = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] JSON = "{\"message\":\"Hello, World!\"}".getBytes(StandardCharsets.US_ASCII);

    /** The metrics {@code GET /metrics} shows; null: the path is 404. */
    private final WeirMetrics metrics;

    /** Creates the handler, without {@code /metrics}; one instance may serve every connection. */
    public HttpServerHandler() {
        this(null);
    }

    /**
     * Creates the handler, serving {@code metrics} at {@code GET /metrics} (null: the path is 404); one instance may
     * serve every connection.
     */
    public HttpServerHandler(WeirMetrics metrics) {
        super(FullHttpRequest.class, true);
        this.metrics = metrics;
    }

    @Override
    protected void messageReceived(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (request.decoderResult().isFailure()) {
            // HttpServerCodec answers it (400, 413, ...) and closes; an answer here would claim success.
            return;
        }
        String path = pathOf(request.uri());
        HttpMethod method = request.method();
        FullHttpResponse response = switch (path) {
            case "/plaintext" -> method.equals(HttpMethod.GET)
                    ? ok(ctx, PLAINTEXT, HttpHeaderValues.TEXT_PLAIN) : notAllowed(ctx, "GET");
            case "/json" -> method.equals(HttpMethod.GET)
                    ? ok(ctx, JSON, HttpHeaderValues.APPLICATION_JSON) : notAllowed(ctx, "GET");
            case "/headers" -> method.equals(HttpMethod.GET)
                    ? ok(ctx, headersAsJson(remoteOf(ctx.channel()), request).getBytes(StandardCharsets.UTF_8),
                            HttpHeaderValues.APPLICATION_JSON)
                    : notAllowed(ctx, "GET");
            case "/echo" -> method.equals(HttpMethod.POST) ? echo(request) : notAllowed(ctx, "POST");
            case "/metrics" -> metrics == null ? status(ctx, HttpResponseStatus.NOT_FOUND)
                    : method.equals(HttpMethod.GET) ? ok(ctx, PrometheusText.render(metrics)
                            .getBytes(StandardCharsets.UTF_8), PrometheusText.CONTENT_TYPE)
                    : notAllowed(ctx, "GET");
            case "*" -> serverOptions();
            default -> status(ctx, HttpResponseStatus.NOT_FOUND);
        };
        // Connection: keep-alive / close and closing after the last response are HttpServerKeepAliveHandler's job.
        ctx.write(response, ctx.voidPromise());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // One flush per read: responses to pipelined requests leave together.
        ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (LOGGER.isLoggable(System.Logger.Level.DEBUG)) {
            // Checked first: a failing connection can raise many of these, and the message is not free to build.
            LOGGER.log(System.Logger.Level.DEBUG, "closing " + ctx.channel() + " after an error", cause);
        }
        ctx.close();
    }

    /** The path of a request target: everything before its query or fragment. */
    static String pathOf(String uri) {
        int end = uri.length();
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        return uri.substring(0, end);
    }

    private static FullHttpResponse ok(ChannelHandlerContext ctx, byte[] body, CharSequence contentType) {
        ByteBuf content = ctx.alloc().buffer(body.length).writeBytes(body);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.OK, content);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        HttpUtil.setContentLength(response, body.length);
        return response;
    }

    private static FullHttpResponse echo(FullHttpRequest request) {
        ByteBuf body = request.content().retain();
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.OK, body);
        CharSequence type = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE,
                type != null ? type : HttpHeaderValues.APPLICATION_OCTET_STREAM);
        HttpUtil.setContentLength(response, body.readableBytes());
        return response;
    }

    /** RFC 9110 §9.3.7: a successful OPTIONS answer without content says so with Content-Length: 0. */
    private static FullHttpResponse serverOptions() {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD, POST, OPTIONS");
        HttpUtil.setContentLength(response, 0);
        return response;
    }

    private static FullHttpResponse status(ChannelHandlerContext ctx, HttpResponseStatus status) {
        byte[] text = (status.code() + " " + status.reasonPhrase() + "\n").getBytes(StandardCharsets.US_ASCII);
        FullHttpResponse response = ok(ctx, text, HttpHeaderValues.TEXT_PLAIN);
        response.setStatus(status);
        return response;
    }

    private static FullHttpResponse notAllowed(ChannelHandlerContext ctx, String allowed) {
        FullHttpResponse response = status(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED);
        response.headers().set(HttpHeaderNames.ALLOW, allowed);
        return response;
    }

    /**
     * The client's address as "IP:port": the PROXY protocol header's source on a connection behind a balancer,
     * else the connection's peer (for an HTTP/2 stream, its connection's).
     */
    static String remoteOf(Channel channel) {
        Channel connection = channel instanceof Http2StreamChannel ? channel.parent() : channel;
        SocketAddress address = HAProxyMessageDecoder.clientAddress(connection);
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            String ip = inet.getAddress().getHostAddress();
            return (ip.indexOf(':') >= 0 ? "[" + ip + "]" : ip) + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }

    /**
     * {@code {"remote":"IP:port","name":["value", ...], ...}}: the client's address, then the request's headers in
     * the order received (one named {@code remote} is left out).
     */
    static String headersAsJson(String remote, FullHttpRequest request) {
        Map<String, List<String>> byName = new LinkedHashMap<>();
        for (Map.Entry<String, String> header : request.headers().entries()) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (!name.equals("remote")) {
                byName.computeIfAbsent(name, k -> new ArrayList<>()).add(header.getValue());
            }
        }
        StringBuilder json = new StringBuilder(64 + 32 * byName.size()).append('{');
        appendJsonString(json, "remote").append(':');
        appendJsonString(json, remote);
        for (Map.Entry<String, List<String>> entry : byName.entrySet()) {
            json.append(',');
            appendJsonString(json, entry.getKey()).append(":[");
            List<String> values = entry.getValue();
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                    json.append(',');
                }
                appendJsonString(json, values.get(i));
            }
            json.append(']');
        }
        return json.append('}').toString();
    }

    /** Appends {@code value} as a JSON string literal, non-ASCII and control characters escaped. */
    static StringBuilder appendJsonString(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c >= 0x7f) {
                        // Header values are bytes (ISO-8859-1); escaping everything else keeps the JSON ASCII.
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }
}
