package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpTestSupport.bytes;
import static io.weir.handler.codec.http.HttpTestSupport.drain;
import static io.weir.handler.codec.http.HttpTestSupport.outbound;
import static io.weir.handler.codec.http.HttpTestSupport.release;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every row of the malformed-request table through {@link HttpServerCodec}: the exact status answered, with
 * {@code Connection: close}, the connection closed, and the handlers shown nothing they could act on.
 */
class HttpServerCodecMalformedRequestTest {

    static Stream<MalformedRequests.Row> rows() {
        return MalformedRequests.rows().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void isAnsweredWithItsStatusAndTheConnectionCloses(MalformedRequests.Row row) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(row.config()));
        ch.writeInbound(bytes(row.request() + "GET /after HTTP/1.1\r\nHost: a\r\n\r\n"));
        List<Object> seen = new ArrayList<>();
        drain(ch, seen);
        String answer = outbound(ch);
        try {
            assertThat(answer).startsWith("HTTP/1.1 " + row.status() + ' ');
            assertThat(answer.toLowerCase(Locale.ROOT)).contains("\r\nconnection: close\r\n")
                    .contains("\r\ncontent-length: 0\r\n").endsWith("\r\n\r\n");
            assertThat(ch.isOpen()).as("closed after the answer").isFalse();
            if (row.inBody()) {
                // The request itself was fine: the handler saw it, and the failed end of its body.
                assertThat(seen.get(0)).isInstanceOf(HttpRequest.class);
                Object last = seen.get(seen.size() - 1);
                assertThat(((LastHttpContent) last).decoderResult().cause()).isInstanceOf(row.cause());
            } else {
                assertThat(seen).as("nothing reaches the handlers").isEmpty();
            }
        } finally {
            release(seen);
            ch.finishAndReleaseAll();
        }
    }
}
