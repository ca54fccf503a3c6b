package io.weir.handler.codec.http.cors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http.DefaultFullHttpRequest;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.DefaultHttpContent;
import io.weir.handler.codec.http.DefaultHttpRequest;
import io.weir.handler.codec.http.DefaultHttpResponse;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpResponse;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.buffer.Unpooled;
import io.weir.util.ReferenceCountUtil;
import java.util.List;
import org.junit.jupiter.api.Test;

class CorsHandlerTest {
    private static final String APP = "https://app.example.com";

    private static FullHttpRequest preflight(String origin, String method, String headers) {
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.OPTIONS, "/api",
                Unpooled.buffer(0));
        req.headers().set(HttpHeaderNames.ORIGIN, origin);
        req.headers().set(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD, method);
        if (headers != null) {
            req.headers().set(HttpHeaderNames.ACCESS_CONTROL_REQUEST_HEADERS, headers);
        }
        return req;
    }

    private static FullHttpRequest get(String origin) {
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/api");
        if (origin != null) {
            req.headers().set(HttpHeaderNames.ORIGIN, origin);
        }
        return req;
    }

    /** Sends {@code request} and returns the handler's own answer (or null if it was passed on). */
    private static FullHttpResponse answerOf(EmbeddedChannel ch, HttpRequest request) {
        ch.writeInbound(request);
        return ch.readOutbound();
    }

    /** Passes {@code request} through, answers it 200 from the application and returns what went out. */
    private static HttpResponse roundTrip(EmbeddedChannel ch, HttpRequest request, HttpResponse response) {
        assertThat(ch.writeInbound(request)).isTrue();
        ReferenceCountUtil.release(ch.readInbound());
        ch.writeOutbound(response);
        return ch.readOutbound();
    }

    private static EmbeddedChannel channel(CorsConfig config) {
        return new EmbeddedChannel(new CorsHandler(config));
    }

    @Test
    void allowedPreflightIsAnswered200WithTheConfiguredHeaders() {
        CorsConfig config = CorsConfigBuilder.forOrigin(APP)
                .allowedRequestMethods(HttpMethod.GET, HttpMethod.PUT)
                .allowedRequestHeaders("Content-Type", "X-Request-Id").maxAge(600)
                .preflightResponseHeader("x-custom", "1").build();
        EmbeddedChannel ch = channel(config);
        FullHttpResponse res = answerOf(ch, preflight(APP, "PUT", "content-type, x-request-id"));
        assertThat(res.status()).isEqualTo(HttpResponseStatus.OK);
        assertThat(res.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN)).isEqualTo(APP);
        assertThat(res.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS)).isEqualTo("GET, PUT");
        assertThat(res.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS))
                .isEqualTo("content-type, x-request-id");
        assertThat(res.headers().get(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE)).isEqualTo("600");
        assertThat(res.headers().get(HttpHeaderNames.VARY)).isEqualTo("origin");
        assertThat(res.headers().get("x-custom")).isEqualTo("1");
        assertThat(res.headers().get(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo("0");
        assertThat(res.headers().contains(HttpHeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS)).isFalse();
        assertThat((Object) ch.readInbound()).as("preflight is not passed on").isNull();
        res.release();
        assertThat(ch.isOpen()).isTrue();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void preflightFromUnknownOriginOrForUnlistedMethodOrHeaderIsRefused403() {
        CorsConfig config = CorsConfigBuilder.forOrigin(APP).allowedRequestHeaders("x-ok").build();
        EmbeddedChannel ch = channel(config);
        for (FullHttpRequest req : List.of(preflight("https://evil.example", "GET", null),
                preflight(APP, "DELETE", null), preflight(APP, "GET", "x-ok, x-secret"),
                preflight(APP, "G(E)T", null))) {
            FullHttpResponse res = answerOf(ch, req);
            assertThat(res.status()).isEqualTo(HttpResponseStatus.FORBIDDEN);
            assertThat(res.headers().contains(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN)).isFalse();
            assertThat(req.refCnt()).isZero();
            res.release();
        }
        assertThat((Object) ch.readInbound()).isNull();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void preflightWithCredentialsEchoesTheOriginNeverAStar() {
        EmbeddedChannel ch = channel(CorsConfigBuilder.forAnyOrigin().allowCredentials().build());
        FullHttpResponse res = answerOf(ch, preflight(APP, "POST", null));
        assertThat(res.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN)).isEqualTo(APP);
        assertThat(res.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS)).isEqualTo("true");
        assertThat(res.headers().get(HttpHeaderNames.VARY)).isEqualTo("origin");
        res.release();
        ch.finishAndReleaseAll();
    }

    @Test
    void anyOriginWithoutCredentialsAnswersStarWithoutVary() {
        EmbeddedChannel ch = channel(CorsConfigBuilder.forAnyOrigin().exposeHeaders("x-total").build());
        HttpResponse res = roundTrip(ch, get(APP), new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.OK));
        assertThat(res.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN)).isEqualTo("*");
        assertThat(res.headers().get(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS)).isEqualTo("x-total");
        assertThat(res.headers().contains(HttpHeaderNames.VARY)).isFalse();
        ReferenceCountUtil.release(res);
        ch.finishAndReleaseAll();
    }

    @Test
    void allowedOriginGetsOriginCredentialsExposeAndVaryAppendedToExistingVary() {
        EmbeddedChannel ch = channel(CorsConfigBuilder.forOrigins("https://other.example", APP).allowCredentials()
                .exposeHeaders("x-a", "x-b").build());
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers().set(HttpHeaderNames.VARY, "accept-encoding");
        HttpResponse res = roundTrip(ch, get(APP), response);
        assertThat(res.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN)).isEqualTo(APP);
        assertThat(res.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS)).isEqualTo("true");
        assertThat(res.headers().get(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS)).isEqualTo("x-a, x-b");
        assertThat(res.headers().getAll(HttpHeaderNames.VARY)).containsExactly("accept-encoding", "origin");
        ch.finishAndReleaseAll();
    }

    @Test
    void unknownOriginGetsNoAllowOriginButStillVary() {
        EmbeddedChannel ch = channel(CorsConfigBuilder.forOrigin(APP).build());
        HttpResponse res = roundTrip(ch, get("https://evil.example"),
                new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        assertThat(res.headers().contains(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN)).isFalse();
        assertThat(res.headers().get(HttpHeaderNames.VARY)).isEqualTo("origin");
        ch.finishAndReleaseAll();
    }

    @Test
    void sameOriginRequestsAreUntouched() {
        EmbeddedChannel ch = channel(CorsConfigBuilder.forOrigin(APP).build());
        HttpResponse res = roundTrip(ch, get(null), new DefaultHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.OK));
        assertThat(res.headers().isEmpty()).isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void shortCircuitRefusesUnknownOriginsAndDropsTheirBody() {
        EmbeddedChannel ch = channel(CorsConfigBuilder.forOrigin(APP).shortCircuit().build());
        HttpRequest head = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/api");
        head.headers().set(HttpHeaderNames.ORIGIN, "https://evil.example");
        DefaultHttpContent body = new DefaultHttpContent(Unpooled.copiedBuffer(new byte[] {1, 2, 3}));
        assertThat(ch.writeInbound(head, body, LastHttpContent.EMPTY_LAST_CONTENT)).isFalse();
        assertThat(body.refCnt()).isZero();
        FullHttpResponse res = ch.readOutbound();
        assertThat(res.status()).isEqualTo(HttpResponseStatus.FORBIDDEN);
        res.release();
        // The allowed origin still gets through.
        HttpResponse ok = roundTrip(ch, get(APP), new DefaultHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.OK));
        assertThat(ok.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN)).isEqualTo(APP);
        ch.finishAndReleaseAll();
    }

    @Test
    void nullOriginOnlyWhenAllowed() {
        EmbeddedChannel refused = channel(CorsConfigBuilder.forOrigin(APP).build());
        FullHttpResponse no = answerOf(refused, preflight("null", "GET", null));
        assertThat(no.status().code()).isEqualTo(403);
        no.release();
        refused.finishAndReleaseAll();
        EmbeddedChannel allowed = channel(CorsConfigBuilder.forOrigin(APP).allowNullOrigin().build());
        FullHttpResponse yes = answerOf(allowed, preflight("null", "GET", null));
        assertThat(yes.status().code()).isEqualTo(200);
        assertThat(yes.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN)).isEqualTo("null");
        yes.release();
        allowed.finishAndReleaseAll();
    }

    @Test
    void configIsChosenByOrigin() {
        CorsConfig api = CorsConfigBuilder.forOrigin(APP).allowCredentials().build();
        CorsConfig pub = CorsConfigBuilder.forOrigin("https://public.example").build();
        EmbeddedChannel ch = new EmbeddedChannel(new CorsHandler(List.of(api, pub)));
        HttpResponse a = roundTrip(ch, get("https://PUBLIC.example"), new DefaultHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.OK));
        assertThat(a.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN)).isEqualTo("https://PUBLIC.example");
        assertThat(a.headers().contains(HttpHeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS)).isFalse();
        HttpResponse b = roundTrip(ch, get(APP), new DefaultHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.OK));
        assertThat(b.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS)).isEqualTo("true");
        ch.finishAndReleaseAll();
    }

    @Test
    void pipelinedResponsesAreDecoratedForTheirOwnRequest() {
        EmbeddedChannel ch = channel(CorsConfigBuilder.forOrigin(APP).build());
        ch.writeInbound(get(APP), get(null), get(APP));
        for (Object o; (o = ch.readInbound()) != null; ) {
            ReferenceCountUtil.release(o);
        }
        ch.writeOutbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE),
                new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK),
                new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK),
                new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        HttpResponse interim = ch.readOutbound();
        assertThat(interim.headers().isEmpty()).isTrue();
        HttpResponse first = ch.readOutbound();
        HttpResponse second = ch.readOutbound();
        HttpResponse third = ch.readOutbound();
        assertThat(first.headers().contains(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN)).isTrue();
        assertThat(second.headers().contains(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN)).isFalse();
        assertThat(third.headers().contains(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN)).isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void disabledConfigPassesPreflightsThrough() {
        EmbeddedChannel ch = channel(CorsConfigBuilder.forOrigin(APP).disable().build());
        assertThat(ch.writeInbound(preflight(APP, "GET", null))).isTrue();
        assertThat((Object) ch.readOutbound()).isNull();
        ch.finishAndReleaseAll();
    }

    @Test
    void preflightWithConnectionCloseClosesAfterTheAnswer() {
        EmbeddedChannel ch = channel(CorsConfigBuilder.forOrigin(APP).build());
        FullHttpRequest req = preflight(APP, "GET", null);
        req.headers().set(HttpHeaderNames.CONNECTION, "close");
        FullHttpResponse res = answerOf(ch, req);
        assertThat(res.status().code()).isEqualTo(200);
        res.release();
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void builderRejectsBadArguments() {
        assertThatThrownBy(() -> CorsConfigBuilder.forOrigins("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CorsConfigBuilder.forAnyOrigin().maxAge(-1)).hasMessageContaining("-1");
        assertThatThrownBy(() -> CorsConfigBuilder.forAnyOrigin().exposeHeaders("x\r\ny"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CorsHandler(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThat(CorsConfigBuilder.forOrigin("*").build().isAnyOriginSupported()).isTrue();
    }
}
