package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpTestSupport.bytes;
import static io.weir.handler.codec.http.HttpTestSupport.content;
import static io.weir.handler.codec.http.HttpTestSupport.decode;
import static io.weir.handler.codec.http.HttpTestSupport.outbound;
import static io.weir.handler.codec.http.HttpTestSupport.release;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.channel.embedded.EmbeddedChannel;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class HttpClientCodecTest {

    private static DefaultFullHttpRequest request(HttpMethod method, String uri) {
        DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, uri);
        req.headers().set(HttpHeaderNames.HOST, "example.com");
        return req;
    }

    @Test
    void responsesArePairedWithRequestsSoHeadHasNoBody() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
        ch.writeOutbound(request(HttpMethod.HEAD, "/a"), request(HttpMethod.GET, "/b"));
        assertThat(outbound(ch)).isEqualTo("HEAD /a HTTP/1.1\r\nhost: example.com\r\n\r\n"
                + "GET /b HTTP/1.1\r\nhost: example.com\r\n\r\n");
        List<Object> out = decode(ch, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello");
        assertThat(out).hasSize(4);
        assertThat(out.get(1)).isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(((HttpResponse) out.get(2)).decoderResult().isSuccess()).isTrue();
        assertThat(content(out)).isEqualTo("hello");
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aSuccessfulConnectTurnsTheConnectionIntoATunnel() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
        ch.writeOutbound(request(HttpMethod.CONNECT, "example.com:443"));
        assertThat(outbound(ch)).startsWith("CONNECT example.com:443 HTTP/1.1\r\n");
        List<Object> out = decode(ch, "HTTP/1.1 200 Connection Established\r\n\r\n\u0016\u0003\u0001tls");
        assertThat(((HttpResponse) out.get(0)).status().code()).isEqualTo(200);
        assertThat(out.get(1)).isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(((ByteBuf) out.get(2)).toString(StandardCharsets.ISO_8859_1)).isEqualTo("\u0016\u0003\u0001tls");
        release(out);
        ch.writeOutbound(bytes("client hello"));
        assertThat(outbound(ch)).isEqualTo("client hello");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aRefusedConnectStaysHttp() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
        ch.writeOutbound(request(HttpMethod.CONNECT, "example.com:443"));
        outbound(ch);
        List<Object> out = decode(ch, "HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 4\r\n\r\nauth");
        assertThat(content(out)).isEqualTo("auth");
        assertThat(out.get(out.size() - 1)).isInstanceOf(LastHttpContent.class);
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void anUnsolicitedResponseIsRejectedAndNothingAfterItIsRead() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
        List<Object> out = decode(ch, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\n\r\n");
        assertThat(out).hasSize(1);
        assertThat(((HttpResponse) out.get(0)).decoderResult().cause())
                .isInstanceOf(UnexpectedHttpResponseException.class);
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void interimResponsesLeaveTheRequestWaiting() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
        ch.writeOutbound(request(HttpMethod.HEAD, "/"));
        outbound(ch);
        List<Object> out = decode(ch, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n");
        assertThat(out).hasSize(4);
        assertThat(((HttpResponse) out.get(2)).decoderResult().isSuccess()).isTrue();
        assertThat(out.get(3)).isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void closingWithRequestsOutstandingFailsWithPrematureClosure() {
        HttpClientCodec codec = new HttpClientCodec();
        EmbeddedChannel ch = new EmbeddedChannel(codec);
        ch.writeOutbound(request(HttpMethod.GET, "/1"), request(HttpMethod.GET, "/2"));
        outbound(ch);
        List<Object> out = decode(ch, "HTTP/1.1 204 No Content\r\n\r\n");
        assertThat(codec.outstandingRequests()).isEqualTo(1);
        release(out);
        assertThatThrownBy(ch::finish).isInstanceOf(PrematureChannelClosureException.class)
                .hasMessageContaining("1 request");
    }

    @Test
    void closingAfterEveryResponseIsQuiet() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
        ch.writeOutbound(request(HttpMethod.GET, "/"));
        outbound(ch);
        List<Object> out = decode(ch, "HTTP/1.0 200 OK\r\n\r\nuntil close");
        ch.close();
        HttpTestSupport.drain(ch, out);
        assertThat(content(out)).isEqualTo("until close");
        assertThat(out.get(out.size() - 1)).isInstanceOf(LastHttpContent.class);
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aRequestWithoutHostGetsTheAuthorityOfItsAbsoluteTarget() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
        ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET,
                "http://user@a.example:8080/x?y=1"));
        assertThat(outbound(ch)).contains("\r\nhost: a.example:8080\r\n");
        release(decode(ch, "HTTP/1.1 204 No Content\r\n\r\n"));
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aRequestWithoutHostGetsTheAddressItIsSentTo() {
        HttpRequest get = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/x");
        assertThat(HttpClientCodec.hostFor(get, new InetSocketAddress("127.0.0.1", 8080)))
                .hasToString("127.0.0.1:8080");
        assertThat(HttpClientCodec.hostFor(get, new InetSocketAddress("127.0.0.1", 80))).hasToString("127.0.0.1");
        assertThat(HttpClientCodec.hostFor(get, new InetSocketAddress("::1", 8443)))
                .hasToString("[0:0:0:0:0:0:0:1]:8443");
        assertThat(HttpClientCodec.hostFor(get, null)).as("no address known").isNull();
        ((DefaultFullHttpRequest) get).release();
    }

    @Test
    void aHostTheApplicationSetIsKeptAndHttp10IsLeftAlone() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
        DefaultFullHttpRequest withHost = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET,
                "http://a.example/");
        withHost.headers().set(HttpHeaderNames.HOST, "b.example");
        ch.writeOutbound(withHost);
        assertThat(outbound(ch)).contains("host: b.example\r\n").doesNotContain("a.example\r\n");
        ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_0, HttpMethod.GET, "http://a.example/"));
        assertThat(outbound(ch)).doesNotContainIgnoringCase("host:");
        release(decode(ch, "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"));
        ch.finishAndReleaseAll();
    }
}
