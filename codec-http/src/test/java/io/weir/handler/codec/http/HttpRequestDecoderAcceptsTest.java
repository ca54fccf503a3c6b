package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpTestSupport.decode;
import static io.weir.handler.codec.http.HttpTestSupport.release;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.embedded.EmbeddedChannel;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The other side of the malformed-request table: requests at the edges of the RFC 9112 rules the decoder enforces
 * (Host, request-target forms, chunk extensions, empty lines) that are legal and must be decoded unchanged.
 */
class HttpRequestDecoderAcceptsTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: example.com:8080\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: [2001:db8::7]\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: xn--caf-dma.example\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a%2Db.example\r\n\r\n",
        "GET / HTTP/1.1\r\nHost:\r\n\r\n",
        "GET / HTTP/1.0\r\n\r\n",
        "GET http://example.com/a?b HTTP/1.1\r\nHost: example.com\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: example.com\r\n\r\n",
        "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;name\r\nhello\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5 ; a = b ;c=\"d\\\"e\"\r\nhello\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1000000\r\n",
    })
    void legalRequestIsDecoded(String request) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestDecoder());
        List<Object> out = decode(ch, request);
        try {
            assertThat(out).isNotEmpty();
            for (Object o : out) {
                assertThat(((HttpObject) o).decoderResult().isSuccess()).as("%s", o).isTrue();
            }
        } finally {
            release(out);
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
        "CONNECT [::1]:443 HTTP/1.1\r\nHost: [::1]:443\r\n\r\n"})
    void connectIsPassedOnWhenAllowed(String request) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestDecoder(new HttpDecoderConfig().setAllowConnect(true)));
        List<Object> out = decode(ch, request);
        try {
            HttpRequest req = (HttpRequest) out.get(0);
            assertThat(req.decoderResult().isSuccess()).isTrue();
            assertThat(req.method()).isEqualTo(HttpMethod.CONNECT);
        } finally {
            release(out);
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"CONNECT /path HTTP/1.1\r\nHost: a\r\n\r\n"
            + "", "CONNECT example.com HTTP/1.1\r\nHost: a\r\n\r\n"})
    void connectWithATargetOtherThanHostAndPortIsRejectedEvenWhenAllowed(String request) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestDecoder(new HttpDecoderConfig().setAllowConnect(true)));
        List<Object> out = decode(ch, request);
        try {
            assertThat(((HttpRequest) out.get(0)).decoderResult().cause())
                    .isInstanceOfSatisfying(InvalidHttpMessageException.class,
                            e -> assertThat(e.violation()).isEqualTo(HttpViolation.INVALID_TARGET_FORM));
        } finally {
            release(out);
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"GET / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nX-A: b\r\n\r\n"})
    void missingHostIsAcceptedWhenNotRequired(String request) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestDecoder(new HttpDecoderConfig().setRequireHost(false)));
        List<Object> out = decode(ch, request);
        try {
            assertThat(((HttpRequest) out.get(0)).decoderResult().isSuccess()).isTrue();
        } finally {
            release(out);
            ch.finishAndReleaseAll();
        }
    }
}
