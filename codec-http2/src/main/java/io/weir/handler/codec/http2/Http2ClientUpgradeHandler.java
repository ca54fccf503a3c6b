package io.weir.handler.codec.http2;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.HttpClientCodec;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaders;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpResponse;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.util.AsciiString;
import io.weir.util.ReferenceCountUtil;
import java.util.Base64;
import java.util.Objects;

/**
 * The client side of the HTTP/1.1 Upgrade to h2c (RFC 7540 §3.2; RFC 9113 §3.1 deprecates it, but servers without
 * prior-knowledge support still offer it). Placed right after an {@link HttpClientCodec}:
 * <pre>{@code
 * ch.pipeline().addLast(new HttpClientCodec(),
 *         new Http2ClientUpgradeHandler(Http2FrameCodecBuilder.forClient(), upgradeStreamHandler),
 *         myHttp1ResponseHandler);
 * }</pre>
 * The first request written, when it has no body, goes out with {@code Upgrade: h2c}, one {@code HTTP2-Settings}
 * field (our initial SETTINGS, base64url) and {@code Connection: Upgrade, HTTP2-Settings}. A request with a body is
 * sent unchanged and the connection stays HTTP/1.1 (no body is buffered to be replayed).
 * <ul>
 *   <li><b>101 with {@code Upgrade: h2c}</b>: the {@code HttpClientCodec} and this handler leave the pipeline, an
 *   {@link Http2FrameCodec} from the builder and an {@link Http2MultiplexHandler} take their place (the connection
 *   preface and SETTINGS go out at once), and stream 1, half-closed (local) since the request was sent whole, gets
 *   a child channel initialised with {@code upgradeStreamHandler}: the response arrives there as HTTP/2 frames (add
 *   an {@link Http2StreamFrameToHttpObjectCodec} for HTTP/1 objects). Later requests use an
 *   {@link Http2StreamChannelBootstrap} on the connection. {@link UpgradeEvent#UPGRADE_SUCCESSFUL} is then fired
 *   down the pipeline, so the HTTP/1 handlers after this one can leave too; connection-level frames (SETTINGS,
 *   PING, GOAWAY) reach them from then on.</li>
 *   <li><b>Any other final response</b>: the server ignored the Upgrade (RFC 9110 §7.8 allows it). This handler
 *   leaves, the response goes on to the HTTP/1 handlers, and {@link UpgradeEvent#UPGRADE_REJECTED} is fired
 *   before it; the connection keeps speaking HTTP/1.1.</li>
 *   <li><b>101 naming another protocol</b>: nothing can be read any more; the channel is closed and an
 *   {@link IllegalStateException} goes to {@code exceptionCaught}.</li>
 * </ul>
 * Until the outcome is known, a second request's write fails (its message is released): HTTP/1.1 requests
 * pipelined behind an Upgrade would be read by a server that may have switched protocols.
 *
 * <p>Not sharable: one per connection. Event loop only.
 */
public final class Http2ClientUpgradeHandler implements ChannelHandler {

    /** The outcome of the upgrade, fired as a user event down the pipeline from this handler's position. */
    public enum UpgradeEvent {
        /** The server answered 101: the connection speaks HTTP/2 and the response comes on stream 1. */
        UPGRADE_SUCCESSFUL,
        /** The server answered over HTTP/1.1 without switching; the connection stays HTTP/1.1. */
        UPGRADE_REJECTED
    }

    private static final AsciiString H2C = AsciiString.cached("h2c");
    private static final AsciiString HTTP2_SETTINGS = AsciiString.cached("http2-settings");
    private static final String CONNECTION_TOKENS = "Upgrade, HTTP2-Settings";
    private static final int SETTING_ENTRY_BYTES = 6;

    private enum State { READY, AWAIT_RESPONSE, AWAIT_SWITCH, DONE }

    private final Http2FrameCodecBuilder codecBuilder;
    private final ChannelHandler upgradeStreamHandler;
    private State state = State.READY;
    private boolean headRequest;

    /**
     * @param codecBuilder a {@linkplain Http2FrameCodecBuilder#forClient() client} builder: its initial settings go
     *        in the HTTP2-Settings field and its codec runs the connection after the switch (read at those two
     *        moments; do not change it while connections use it)
     * @param upgradeStreamHandler the handler of stream 1's child channel: a {@code ChannelInitializer} or a
     *        {@link ChannelHandler.Sharable} handler
     * @throws IllegalArgumentException when {@code codecBuilder} builds server codecs
     */
    public Http2ClientUpgradeHandler(Http2FrameCodecBuilder codecBuilder, ChannelHandler upgradeStreamHandler) {
        this.codecBuilder = Objects.requireNonNull(codecBuilder, "codecBuilder");
        this.upgradeStreamHandler = Objects.requireNonNull(upgradeStreamHandler, "upgradeStreamHandler");
        if (codecBuilder.server) {
            throw new IllegalArgumentException("codecBuilder: a server builder (use Http2FrameCodecBuilder.forClient())");
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof HttpRequest request) {
            if (state == State.AWAIT_RESPONSE || state == State.AWAIT_SWITCH) {
                ReferenceCountUtil.release(msg);
                promise.tryFailure(new IllegalStateException("a request written before the h2c upgrade's outcome "
                        + "(wait for Http2ClientUpgradeHandler.UpgradeEvent)"));
                return;
            }
            if (state == State.READY) {
                if (hasBody(request)) {
                    state = State.DONE;
                    ctx.write(msg, promise);
                    ctx.pipeline().remove(this);
                    return;
                }
                addUpgradeFields(request.headers());
                headRequest = HttpMethod.HEAD.equals(request.method());
                state = State.AWAIT_RESPONSE;
            }
        }
        ctx.write(msg, promise);
    }

    private static boolean hasBody(HttpRequest request) {
        if (request instanceof FullHttpRequest full && full.content().isReadable()) {
            return true;
        }
        return HttpUtil.getContentLength(request, 0L) != 0 || HttpUtil.isTransferEncodingChunked(request);
    }

    private void addUpgradeFields(HttpHeaders headers) {
        String connection = headers.get(HttpHeaderNames.CONNECTION);
        headers.set(HttpHeaderNames.CONNECTION, connection == null || connection.isBlank() ? CONNECTION_TOKENS
                : connection + ", " + CONNECTION_TOKENS);
        headers.set(HttpHeaderNames.UPGRADE, H2C);
        headers.set(HTTP2_SETTINGS, encodeSettings(codecBuilder.initialSettings));
    }

    /** RFC 7540 §3.2.1: the SETTINGS payload, base64url without padding. */
    static String encodeSettings(Http2Settings settings) {
        byte[] payload = new byte[settings.size() * SETTING_ENTRY_BYTES];
        int p = 0;
        for (int id = 1; id <= Http2Settings.MAX_KNOWN_ID; id++) {
            if (settings.has(id)) {
                long v = settings.get(id, 0);
                payload[p++] = (byte) (id >>> 8);
                payload[p++] = (byte) id;
                payload[p++] = (byte) (v >>> 24);
                payload[p++] = (byte) (v >>> 16);
                payload[p++] = (byte) (v >>> 8);
                payload[p++] = (byte) v;
            }
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(payload);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (state == State.AWAIT_SWITCH) {
            // The end of the 101 response; then the server's HTTP/2 bytes, which the codec must see.
            boolean last = msg instanceof LastHttpContent;
            ReferenceCountUtil.release(msg);
            if (last) {
                switchToHttp2(ctx);
            }
            return;
        }
        if (state != State.AWAIT_RESPONSE || !(msg instanceof HttpResponse response)) {
            ctx.fireChannelRead(msg);
            return;
        }
        int code = response.status().code();
        if (code == 101) {
            String upgrade = response.headers().get(HttpHeaderNames.UPGRADE);
            if (upgrade == null || !AsciiString.contentEqualsIgnoreCase(upgrade.trim(), H2C)) {
                state = State.DONE;
                ReferenceCountUtil.release(msg);
                ctx.close();
                ctx.fireExceptionCaught(new IllegalStateException("101 Switching Protocols to " + upgrade
                        + " in answer to an h2c upgrade"));
                return;
            }
            state = State.AWAIT_SWITCH;
            ReferenceCountUtil.release(msg);
            if (msg instanceof LastHttpContent) {
                switchToHttp2(ctx);
            }
            return;
        }
        if (code < 200) {
            ctx.fireChannelRead(msg); // 100 Continue, 103 Early Hints: the final answer is still to come
            return;
        }
        state = State.DONE;
        ctx.fireUserEventTriggered(UpgradeEvent.UPGRADE_REJECTED);
        ctx.fireChannelRead(msg);
        ctx.pipeline().remove(this);
    }

    private void switchToHttp2(ChannelHandlerContext ctx) {
        state = State.DONE;
        ChannelPipeline pipeline = ctx.pipeline();
        Http2FrameCodec codec;
        synchronized (codecBuilder) {
            codec = codecBuilder.build();
        }
        Http2MultiplexHandler multiplexer = new Http2MultiplexHandler(NoPushedStreams.INSTANCE);
        // After this handler: the HttpClientCodec before it passes bytes through since the 101, both ways, and
        // hands what it still holds (the server's first frames) on when it is removed.
        pipeline.addAfter(ctx.name(), null, codec);
        pipeline.addAfter(pipeline.context(codec).name(), null, multiplexer);
        multiplexer.newUpgradeChild(codec.upgradedAsHttp1Client(headRequest), upgradeStreamHandler);
        ChannelHandlerContext httpCodec = pipeline.context(HttpClientCodec.class);
        pipeline.remove(this);
        if (httpCodec != null) {
            pipeline.remove(httpCodec.handler());
        }
        pipeline.context(multiplexer).fireUserEventTriggered(UpgradeEvent.UPGRADE_SUCCESSFUL);
    }

    /** The multiplexer's handler for streams the server opens: none, since push is off (RFC 9113 §8.4). */
    @ChannelHandler.Sharable
    private static final class NoPushedStreams implements ChannelHandler {
        static final NoPushedStreams INSTANCE = new NoPushedStreams();
    }
}
