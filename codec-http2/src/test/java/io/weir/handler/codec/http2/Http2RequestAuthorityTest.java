package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.find;
import static io.weir.handler.codec.http2.internal.Http2Frames.GOAWAY;
import static io.weir.handler.codec.http2.internal.Http2Frames.RST_STREAM;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.handler.codec.http2.Http2FrameClient.Event;
import io.weir.handler.codec.http2.internal.Http2Frames;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Requests whose authority is ambiguous (RFC 9113 §8.3.1, RFC 9110 §7.2) or whose header section is malformed are
 * refused as malformed (RST_STREAM PROTOCOL_ERROR) and never served; the connection carries on.
 */
class Http2RequestAuthorityTest {

    private static Http2Headers request() {
        return new Http2Headers().method("GET").scheme("http").path("/");
    }

    /** Sends {@code headers} on stream 1; the frames the server answered with, after checking the app's view. */
    private static List<Event> send(Http2Headers headers, boolean served) {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), app).handshake()) {
            c.headers(1, headers, true);
            List<Event> events = c.read();
            assertThat(app.of(Http2HeadersFrame.class)).as("requests the application saw").hasSize(served ? 1 : 0);
            assertThat(c.channel.isOpen()).as("the connection").isTrue();
            return events;
        }
    }

    private static void assertMalformed(List<Event> events) {
        Event rst = find(events, RST_STREAM);
        Event goAway = find(events, GOAWAY);
        assertThat(rst).as("RST_STREAM in %s %s", events, goAway == null ? "" : Http2FrameClient.text(goAway)).isNotNull();
        assertThat(rst.code()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
        assertThat(find(events, GOAWAY)).isNull();
    }

    @Test
    void hostThatDiffersFromAuthorityIsMalformed() {
        assertMalformed(send(request().authority("a.example").add("host", "b.example"), false));
    }

    @Test
    void twoHostFieldsAreMalformed() {
        assertMalformed(send(request().add("host", "a.example").add("host", "a.example"), false));
    }

    @Test
    void neitherAuthorityNorHostIsMalformed() {
        assertMalformed(send(request(), false));
    }

    @Test
    void hostAloneOrEqualToAuthorityIsServed() {
        assertThat(find(send(request().add("host", "a.example"), true), RST_STREAM)).isNull();
        assertThat(find(send(request().authority("A.example").add("host", "a.example"), true), RST_STREAM))
                .isNull();
    }

    @Test
    void aThousandEmptyFieldNamesAreMalformedNotAnAttackOnTheConnection() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), app).handshake()) {
            ByteArrayOutputStream block = new ByteArrayOutputStream();
            for (String[] f : new String[][] {{":method", "GET"}, {":scheme", "http"}, {":path", "/"},
                    {":authority", "a.example"}}) {
                literal(block, f[0], f[1]);
            }
            for (int i = 0; i < 1000; i++) {
                literal(block, "", "x");
            }
            c.frame(Http2Frames.HEADERS, Http2Frames.FLAG_END_HEADERS | Http2Frames.FLAG_END_STREAM, 1,
                    block.toByteArray());
            List<Event> events = c.read();
            assertMalformed(events);
            assertThat(app.of(Http2HeadersFrame.class)).isEmpty();
            assertThat(c.channel.isOpen()).isTrue();
        }
    }

    /** RFC 7541 §6.2.2: a literal without indexing, new name, lengths below 127. */
    private static void literal(ByteArrayOutputStream block, String name, String value) {
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        byte[] v = value.getBytes(StandardCharsets.US_ASCII);
        block.write(0);
        block.write(n.length);
        block.write(n, 0, n.length);
        block.write(v.length);
        block.write(v, 0, v.length);
    }
}
