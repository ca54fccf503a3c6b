package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpTestSupport.decode;
import static io.weir.handler.codec.http.HttpTestSupport.release;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.DecoderResult;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every row of the malformed-request table, decoded directly: the exact cause, and nothing decoded after it. */
class HttpRequestDecoderMalformedTest {

    static Stream<MalformedRequests.Row> rows() {
        return MalformedRequests.rows().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void isRejectedWithItsTypedCause(MalformedRequests.Row row) {
        // A valid request follows each malformed one: it must never be decoded.
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestDecoder(row.config()));
        List<Object> out = decode(ch, row.request() + "GET /after HTTP/1.1\r\nHost: a\r\n\r\n");
        ch.finish();
        HttpTestSupport.drain(ch, out);
        try {
            DecoderResult failed = null;
            int failures = 0;
            for (Object o : out) {
                DecoderResult r = ((HttpObject) o).decoderResult();
                if (r.isFailure()) {
                    failures++;
                    failed = r;
                    assertThat(o).as("the failed object").isInstanceOf(row.inBody() ? LastHttpContent.class
                            : HttpRequest.class);
                    assertThat(o).as("the failure is last").isSameAs(out.get(out.size() - 1));
                }
                if (o instanceof HttpRequest req) {
                    assertThat(req.uri()).isNotEqualTo("/after");
                }
            }
            assertThat(failures).isEqualTo(1);
            assertThat(failed.cause()).isInstanceOf(row.cause());
            if (row.violation() != null) {
                assertThat(((InvalidHttpMessageException) failed.cause()).violation()).isEqualTo(row.violation());
            }
        } finally {
            release(out);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void isRejectedTheSameWayWhenArrivingByteByByte(MalformedRequests.Row row) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestDecoder(row.config()));
        String request = row.request();
        String[] parts = new String[request.length()];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = request.substring(i, i + 1);
        }
        List<Object> out = decode(ch, parts);
        ch.finish();
        HttpTestSupport.drain(ch, out);
        try {
            Object last = out.get(out.size() - 1);
            Throwable cause = ((HttpObject) last).decoderResult().cause();
            assertThat(cause).isInstanceOf(row.cause());
            if (row.violation() != null) {
                assertThat(((InvalidHttpMessageException) cause).violation()).isEqualTo(row.violation());
            }
        } finally {
            release(out);
        }
    }
}
