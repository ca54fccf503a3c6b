package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.internal.Http2TestFrames.EMPTY_SETTINGS;
import static io.weir.handler.codec.http2.internal.Http2TestFrames.PREFACE;
import static io.weir.handler.codec.http2.internal.Http2TestFrames.feed;
import static io.weir.handler.codec.http2.internal.Http2TestFrames.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Malformed input -> the exact RFC 9113 error and scope, and the attacks the reader repels. Scope "conn" is a
 * connection error (GOAWAY); a number is a stream error on that stream (RST_STREAM), after which the reader goes on.
 */
class Http2FrameReaderMalformedTest {

    private final RecordingFrameListener listener = new RecordingFrameListener();

    private Http2FrameReader reader(boolean server) throws Http2Exception {
        Http2FrameReader reader = new Http2FrameReader(server, listener);
        feed(reader, (server ? PREFACE : "") + EMPTY_SETTINGS);
        listener.events.clear();
        return reader;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // side | input | error | scope
        "DATA on stream 0                   | c | 000001 00 00 00000000 00                     | PROTOCOL_ERROR     | conn",
        "DATA padded without Pad Length     | c | 000000 00 08 00000001                        | FRAME_SIZE_ERROR   | conn",
        "DATA padding beyond payload        | c | 000003 00 08 00000001 05 0102                | PROTOCOL_ERROR     | conn",
        "DATA padding equal to payload      | c | 000003 00 08 00000001 03 0000                | PROTOCOL_ERROR     | conn",
        "HEADERS on stream 0                | c | 000001 01 04 00000000 82                     | PROTOCOL_ERROR     | conn",
        "HEADERS too short for priority     | c | 000004 01 24 00000001 00000000               | FRAME_SIZE_ERROR   | conn",
        "HEADERS padding beyond payload     | c | 000003 01 0c 00000001 05 8286                | PROTOCOL_ERROR     | conn",
        "HEADERS padding eats priority      | c | 000006 01 2c 00000001 01 00000000 0f         | PROTOCOL_ERROR     | conn",
        "HEADERS depending on itself        | c | 000006 01 24 00000003 00000003 0f 82         | PROTOCOL_ERROR     | 3",
        "PRIORITY on stream 0               | c | 000005 02 00 00000000 00000001 0f            | PROTOCOL_ERROR     | conn",
        "PRIORITY of 4 octets               | c | 000004 02 00 00000001 00000003               | FRAME_SIZE_ERROR   | 1",
        "PRIORITY of 6 octets               | c | 000006 02 00 00000001 00000003 0f00          | FRAME_SIZE_ERROR   | 1",
        "PRIORITY depending on itself       | c | 000005 02 00 00000007 80000007 0f            | PROTOCOL_ERROR     | 7",
        "RST_STREAM on stream 0             | c | 000004 03 00 00000000 00000008               | PROTOCOL_ERROR     | conn",
        "RST_STREAM of 3 octets             | c | 000003 03 00 00000001 000008                 | FRAME_SIZE_ERROR   | conn",
        "RST_STREAM of 5 octets             | c | 000005 03 00 00000001 0000000800             | FRAME_SIZE_ERROR   | conn",
        "SETTINGS on stream 1               | c | 000000 04 00 00000001                        | PROTOCOL_ERROR     | conn",
        "SETTINGS of 5 octets               | c | 000005 04 00 00000000 0003000000             | FRAME_SIZE_ERROR   | conn",
        "SETTINGS ACK with payload          | c | 000006 04 01 00000000 000300000064           | FRAME_SIZE_ERROR   | conn",
        "SETTINGS ENABLE_PUSH 2             | c | 000006 04 00 00000000 000200000002           | PROTOCOL_ERROR     | conn",
        "SETTINGS INITIAL_WINDOW_SIZE 2^31  | c | 000006 04 00 00000000 000480000000           | FLOW_CONTROL_ERROR | conn",
        "SETTINGS MAX_FRAME_SIZE 2^14-1     | c | 000006 04 00 00000000 000500003fff           | PROTOCOL_ERROR     | conn",
        "SETTINGS MAX_FRAME_SIZE 2^24       | c | 000006 04 00 00000000 000501000000           | PROTOCOL_ERROR     | conn",
        "SETTINGS ENABLE_CONNECT_PROTOCOL 2 | c | 000006 04 00 00000000 000800000002           | PROTOCOL_ERROR     | conn",
        "SETTINGS NO_RFC7540_PRIORITIES 2   | c | 000006 04 00 00000000 000900000002           | PROTOCOL_ERROR     | conn",
        "PUSH_PROMISE on stream 0           | c | 000004 05 04 00000000 00000002               | PROTOCOL_ERROR     | conn",
        "PUSH_PROMISE without promised id   | c | 000003 05 04 00000001 000002                 | FRAME_SIZE_ERROR   | conn",
        "PUSH_PROMISE promising stream 0    | c | 000004 05 04 00000001 00000000               | PROTOCOL_ERROR     | conn",
        "PUSH_PROMISE promising odd stream  | c | 000004 05 04 00000001 00000003               | PROTOCOL_ERROR     | conn",
        "PUSH_PROMISE padding beyond        | c | 000006 05 0c 00000001 02 00000002 82         | PROTOCOL_ERROR     | conn",
        "PUSH_PROMISE received by a server  | s | 000004 05 04 00000001 00000002               | PROTOCOL_ERROR     | conn",
        "PING on stream 1                   | c | 000008 06 00 00000001 0000000000000000       | PROTOCOL_ERROR     | conn",
        "PING of 7 octets                   | c | 000007 06 00 00000000 00000000000000         | FRAME_SIZE_ERROR   | conn",
        "PING ACK of 9 octets               | c | 000009 06 01 00000000 000000000000000000     | FRAME_SIZE_ERROR   | conn",
        "GOAWAY on stream 1                 | c | 000008 07 00 00000001 0000000000000000       | PROTOCOL_ERROR     | conn",
        "GOAWAY of 7 octets                 | c | 000007 07 00 00000000 00000000000000         | FRAME_SIZE_ERROR   | conn",
        "WINDOW_UPDATE of 3 octets          | c | 000003 08 00 00000001 000001                 | FRAME_SIZE_ERROR   | conn",
        "WINDOW_UPDATE of 5 octets on 0     | c | 000005 08 00 00000000 0000000100             | FRAME_SIZE_ERROR   | conn",
        "WINDOW_UPDATE of 0 on connection   | c | 000004 08 00 00000000 00000000               | PROTOCOL_ERROR     | conn",
        "WINDOW_UPDATE of 0 on a stream     | c | 000004 08 00 00000001 00000000               | PROTOCOL_ERROR     | 1",
        "WINDOW_UPDATE of reserved bit only | c | 000004 08 00 00000005 80000000               | PROTOCOL_ERROR     | 5",
        "CONTINUATION without HEADERS       | c | 000001 09 04 00000001 82                     | PROTOCOL_ERROR     | conn",
        "CONTINUATION on stream 0           | c | 000001 09 04 00000000 82                     | PROTOCOL_ERROR     | conn",
        "PRIORITY_UPDATE on stream 1        | c | 000005 10 00 00000001 00000001 69            | PROTOCOL_ERROR     | conn",
        "PRIORITY_UPDATE for stream 0       | c | 000005 10 00 00000000 00000000 69            | PROTOCOL_ERROR     | conn",
        "PRIORITY_UPDATE of 3 octets        | c | 000003 10 00 00000000 000001                 | FRAME_SIZE_ERROR   | conn",
        "DATA beyond max frame size         | c | 004001 00 00 00000001                        | FRAME_SIZE_ERROR   | conn",
        "unknown type beyond max frame size | s | ffffff fa 00 00000000                        | FRAME_SIZE_ERROR   | conn",
        "HEADERS then DATA                  | c | 000001 01 00 00000001 82 000001 00 00 00000001 00 | PROTOCOL_ERROR | conn",
        "HEADERS then PING                  | c | 000001 01 00 00000001 82 000008 06 00 00000000 0000000000000000 | PROTOCOL_ERROR | conn",
        "HEADERS then unknown type          | c | 000001 01 00 00000001 82 000000 fa 00 00000001 | PROTOCOL_ERROR   | conn",
        "HEADERS then other CONTINUATION    | c | 000001 01 00 00000001 82 000001 09 04 00000003 84 | PROTOCOL_ERROR | conn",
        "PUSH_PROMISE then HEADERS          | c | 000005 05 00 00000001 00000002 82 000001 01 05 00000003 82 | PROTOCOL_ERROR | conn",
    })
    void malformedInputGetsTheRfcError(String name, String side, String hex, Http2Error error, String scope)
            throws Exception {
        Http2FrameReader reader = reader("s".equals(side.trim()));
        assertThatThrownBy(() -> feed(reader, hex.trim())).isInstanceOfSatisfying(Http2Exception.class, e -> {
            assertThat(e.error()).as(e.getMessage()).isEqualTo(error);
            if ("conn".equals(scope.trim())) {
                assertThat(e.isConnectionError()).as(e.getMessage()).isTrue();
            } else {
                assertThat(e.streamId()).as(e.getMessage()).isEqualTo(Integer.parseInt(scope.trim()));
            }
        });
        assertThat(listener.events).noneMatch(s -> s.startsWith("HEADERS") || s.startsWith("DATA"));
        if ("conn".equals(scope.trim())) {
            assertThat(reader.isFailed()).isTrue();
            assertThat(feed(reader, "000008 06 00 00000000 0000000000000001")).isZero();
            assertThat(listener.events).noneMatch(s -> s.startsWith("PING"));
        } else {
            // A stream error consumed its frame: the connection reads on.
            feed(reader, "000008 06 00 00000000 0000000000000001");
            assertThat(listener.events).endsWith("PING 1");
        }
    }

    private static Http2Exception connectionErrorOf(Http2FrameReader reader, String hex) {
        try {
            feed(reader, hex);
        } catch (Http2Exception e) {
            assertThat(e.isConnectionError()).as(e.getMessage()).isTrue();
            assertThat(reader.isFailed()).isTrue();
            assertThat(reader.isHeaderBlockOpen()).isFalse();
            return e;
        }
        throw new AssertionError("no error for " + hex);
    }

    @Test
    void continuationFloodIsRejected() throws Exception {
        Http2FrameReader reader = reader(true);
        StringBuilder hex = new StringBuilder(frame(Http2Frames.HEADERS, 0, 1, "82"));
        for (int i = 0; i < Http2FrameReader.DEFAULT_MAX_CONTINUATION_FRAMES + 1; i++) {
            hex.append(frame(Http2Frames.CONTINUATION, 0, 1, "84"));
        }
        Http2Exception e = connectionErrorOf(reader, hex.toString());
        assertThat(e.error()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM);
        assertThat(e.getMessage()).contains(Integer.toString(Http2FrameReader.DEFAULT_MAX_CONTINUATION_FRAMES));
        assertThat(listener.events).isEmpty();
    }

    @Test
    void emptyContinuationFloodIsRejected() throws Exception {
        Http2FrameReader reader = reader(true);
        StringBuilder hex = new StringBuilder(frame(Http2Frames.HEADERS, 0, 1, ""));
        for (int i = 0; i < 10_000; i++) {
            hex.append(frame(Http2Frames.CONTINUATION, 0, 1, ""));
        }
        assertThat(connectionErrorOf(reader, hex.toString()).error()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM);
        assertThat(listener.events).isEmpty();
    }

    @Test
    void continuationsUpToTheLimitAreAccepted() throws Exception {
        Http2FrameReader reader = reader(true).maxContinuationFrames(3);
        feed(reader, frame(Http2Frames.HEADERS, 0, 1, "82") + frame(Http2Frames.CONTINUATION, 0, 1, "")
                + frame(Http2Frames.CONTINUATION, 0, 1, "86") + frame(Http2Frames.CONTINUATION, 4, 1, "84"));
        assertThat(listener.events).containsExactly(
                "HEADERS s=1 pad=0 end=false prio=false dep=0 w=16 ex=false block=828684");
    }

    @Test
    void oversizedHeaderBlockIsRejectedBeforeItsPayloadArrives() throws Exception {
        Http2FrameReader reader = reader(true).maxHeaderBlockBytes(100);
        String fifty = "00".repeat(50);
        // HEADERS (50) + CONTINUATION (50) fill the limit; the next CONTINUATION's header alone is refused.
        String hex = frame(Http2Frames.HEADERS, 0, 1, fifty) + frame(Http2Frames.CONTINUATION, 0, 1, fifty)
                + "000001 09 04 00000001";
        Http2Exception e = connectionErrorOf(reader, hex);
        assertThat(e.error()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM);
        assertThat(e.getMessage()).contains("101").contains("100");
    }

    @Test
    void oversizedSingleHeadersFrameIsRejected() throws Exception {
        Http2FrameReader reader = reader(true).maxHeaderBlockBytes(100);
        Http2Exception e = connectionErrorOf(reader, "000065 01 05 00000001");
        assertThat(e.error()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM);
    }

    @Test
    void oversizedFrameIsRejected() throws Exception {
        Http2FrameReader reader = reader(true);
        // Only the 9-octet header of a 16 MiB frame: refused before any payload is buffered.
        Http2Exception e = connectionErrorOf(reader, "ffffff 00 00 00000001");
        assertThat(e.error()).isEqualTo(Http2Error.FRAME_SIZE_ERROR);
        assertThat(e.getMessage()).contains("16777215").contains("16384");
    }

    @Test
    void headerBlockInterleavingIsRejected() throws Exception {
        Http2FrameReader reader = reader(true);
        Http2Exception e = connectionErrorOf(reader, frame(Http2Frames.HEADERS, 0, 1, "82")
                + frame(Http2Frames.HEADERS, 5, 3, "82"));
        assertThat(e.error()).isEqualTo(Http2Error.PROTOCOL_ERROR);
        assertThat(e.getMessage()).contains("stream 3").contains("stream 1");
    }

    @Test
    void settingsWithBadValueIsRejected() throws Exception {
        Http2FrameReader reader = reader(false);
        Http2Exception e = connectionErrorOf(reader, "00000c 04 00 00000000 0003 00000064 0004 ffffffff");
        assertThat(e.error()).isEqualTo(Http2Error.FLOW_CONTROL_ERROR);
        assertThat(e.getMessage()).contains("4294967295");
        // Nothing of a refused SETTINGS frame is applied (RFC 9113 §6.5.3 processes a frame as a unit).
        assertThat(listener.events).isEmpty();
    }

    @Test
    void pushPromiseToServerIsRejected() throws Exception {
        Http2FrameReader reader = reader(true);
        assertThat(connectionErrorOf(reader, "000004 05 04 00000001 00000002").error())
                .isEqualTo(Http2Error.PROTOCOL_ERROR);
    }

    @Test
    void headerBlockBeingAssembledIsReleasedOnClose() throws Exception {
        Http2FrameReader reader = reader(true);
        feed(reader, frame(Http2Frames.HEADERS, 0, 1, "8286"));
        assertThat(reader.isHeaderBlockOpen()).isTrue();
        reader.close();
        reader.close();
        assertThat(reader.isHeaderBlockOpen()).isFalse();
    }
}
