package io.weir.handler.codec.http2.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The RFC 9113 §5.1 receive and send tables, row by row: state, frame, END_STREAM -> next state or error. */
class Http2StreamStateTest {

    private static final int STREAM = 7;

    private static int type(String name) {
        switch (name) {
            case "DATA": return Http2Frames.DATA;
            case "HEADERS": return Http2Frames.HEADERS;
            case "PRIORITY": return Http2Frames.PRIORITY;
            case "RST_STREAM": return Http2Frames.RST_STREAM;
            case "PUSH_PROMISE": return Http2Frames.PUSH_PROMISE;
            case "WINDOW_UPDATE": return Http2Frames.WINDOW_UPDATE;
            default: throw new IllegalArgumentException(name);
        }
    }

    /** Expected: a state, or "ERROR_CODE/conn" or "ERROR_CODE/stream". */
    @ParameterizedTest(name = "{0} receives {1} end={2} -> {3}")
    @CsvSource({
        "IDLE, HEADERS, false, OPEN",
        "IDLE, HEADERS, true, HALF_CLOSED_REMOTE",
        "IDLE, PRIORITY, false, IDLE",
        "IDLE, DATA, false, PROTOCOL_ERROR/conn",
        "IDLE, RST_STREAM, false, PROTOCOL_ERROR/conn",
        "IDLE, WINDOW_UPDATE, false, PROTOCOL_ERROR/conn",
        "IDLE, PUSH_PROMISE, false, PROTOCOL_ERROR/conn",
        "RESERVED_LOCAL, RST_STREAM, false, CLOSED_RESET_RECEIVED",
        "RESERVED_LOCAL, WINDOW_UPDATE, false, RESERVED_LOCAL",
        "RESERVED_LOCAL, PRIORITY, false, RESERVED_LOCAL",
        "RESERVED_LOCAL, HEADERS, false, PROTOCOL_ERROR/conn",
        "RESERVED_LOCAL, DATA, false, PROTOCOL_ERROR/conn",
        "RESERVED_REMOTE, HEADERS, false, HALF_CLOSED_LOCAL",
        "RESERVED_REMOTE, HEADERS, true, CLOSED",
        "RESERVED_REMOTE, RST_STREAM, false, CLOSED_RESET_RECEIVED",
        "RESERVED_REMOTE, PRIORITY, false, RESERVED_REMOTE",
        "RESERVED_REMOTE, DATA, false, PROTOCOL_ERROR/conn",
        "RESERVED_REMOTE, WINDOW_UPDATE, false, PROTOCOL_ERROR/conn",
        "OPEN, DATA, false, OPEN",
        "OPEN, DATA, true, HALF_CLOSED_REMOTE",
        "OPEN, HEADERS, true, HALF_CLOSED_REMOTE",
        "OPEN, HEADERS, false, OPEN",
        "OPEN, RST_STREAM, false, CLOSED_RESET_RECEIVED",
        "OPEN, WINDOW_UPDATE, false, OPEN",
        "OPEN, PUSH_PROMISE, false, OPEN",
        "OPEN, PRIORITY, false, OPEN",
        "HALF_CLOSED_LOCAL, DATA, false, HALF_CLOSED_LOCAL",
        "HALF_CLOSED_LOCAL, DATA, true, CLOSED",
        "HALF_CLOSED_LOCAL, HEADERS, true, CLOSED",
        "HALF_CLOSED_LOCAL, RST_STREAM, false, CLOSED_RESET_RECEIVED",
        "HALF_CLOSED_LOCAL, WINDOW_UPDATE, false, HALF_CLOSED_LOCAL",
        "HALF_CLOSED_LOCAL, PUSH_PROMISE, false, HALF_CLOSED_LOCAL",
        "HALF_CLOSED_REMOTE, WINDOW_UPDATE, false, HALF_CLOSED_REMOTE",
        "HALF_CLOSED_REMOTE, PRIORITY, false, HALF_CLOSED_REMOTE",
        "HALF_CLOSED_REMOTE, RST_STREAM, false, CLOSED_RESET_RECEIVED",
        "HALF_CLOSED_REMOTE, DATA, false, STREAM_CLOSED/stream",
        "HALF_CLOSED_REMOTE, HEADERS, true, STREAM_CLOSED/stream",
        "HALF_CLOSED_REMOTE, PUSH_PROMISE, false, PROTOCOL_ERROR/conn",
        "CLOSED, PRIORITY, false, CLOSED",
        "CLOSED, WINDOW_UPDATE, false, CLOSED",
        "CLOSED, RST_STREAM, false, CLOSED",
        "CLOSED, DATA, false, STREAM_CLOSED/conn",
        "CLOSED, HEADERS, false, STREAM_CLOSED/conn",
        "CLOSED_RESET_SENT, DATA, true, CLOSED_RESET_SENT",
        "CLOSED_RESET_SENT, HEADERS, false, CLOSED_RESET_SENT",
        "CLOSED_RESET_SENT, WINDOW_UPDATE, false, CLOSED_RESET_SENT",
        "CLOSED_RESET_RECEIVED, PRIORITY, false, CLOSED_RESET_RECEIVED",
        "CLOSED_RESET_RECEIVED, RST_STREAM, false, CLOSED_RESET_RECEIVED",
        "CLOSED_RESET_RECEIVED, DATA, false, STREAM_CLOSED/stream",
        "CLOSED_RESET_RECEIVED, HEADERS, false, STREAM_CLOSED/stream",
        "CLOSED_RESET_RECEIVED, WINDOW_UPDATE, false, STREAM_CLOSED/stream",
    })
    void receiveTable(Http2StreamState state, String frame, boolean endStream, String expected) throws Exception {
        if (expected.contains("/")) {
            String[] parts = expected.split("/");
            assertThatThrownBy(() -> state.onReceive(type(frame), endStream, STREAM))
                    .isInstanceOfSatisfying(Http2Exception.class, e -> {
                        assertThat(e.error()).isEqualTo(Http2Error.valueOf(parts[0]));
                        assertThat(e.isConnectionError()).isEqualTo(parts[1].equals("conn"));
                        assertThat(e.streamId()).isEqualTo(parts[1].equals("conn") ? 0 : STREAM);
                        assertThat(e.getMessage()).contains(frame).contains(state.name());
                    });
        } else {
            assertThat(state.onReceive(type(frame), endStream, STREAM)).isEqualTo(Http2StreamState.valueOf(expected));
        }
    }

    /** Expected: a state, or "refused" (IllegalStateException: our bug). */
    @ParameterizedTest(name = "{0} sends {1} end={2} -> {3}")
    @CsvSource({
        "IDLE, HEADERS, false, OPEN",
        "IDLE, HEADERS, true, HALF_CLOSED_LOCAL",
        "IDLE, PRIORITY, false, IDLE",
        "IDLE, DATA, false, refused",
        "IDLE, RST_STREAM, false, refused",
        "IDLE, WINDOW_UPDATE, false, refused",
        "RESERVED_LOCAL, HEADERS, false, HALF_CLOSED_REMOTE",
        "RESERVED_LOCAL, HEADERS, true, CLOSED",
        "RESERVED_LOCAL, RST_STREAM, false, CLOSED_RESET_SENT",
        "RESERVED_LOCAL, DATA, false, refused",
        "RESERVED_LOCAL, WINDOW_UPDATE, false, refused",
        "RESERVED_REMOTE, RST_STREAM, false, CLOSED_RESET_SENT",
        "RESERVED_REMOTE, WINDOW_UPDATE, false, RESERVED_REMOTE",
        "RESERVED_REMOTE, HEADERS, false, refused",
        "OPEN, DATA, false, OPEN",
        "OPEN, DATA, true, HALF_CLOSED_LOCAL",
        "OPEN, HEADERS, true, HALF_CLOSED_LOCAL",
        "OPEN, RST_STREAM, false, CLOSED_RESET_SENT",
        "OPEN, PUSH_PROMISE, false, OPEN",
        "HALF_CLOSED_LOCAL, DATA, false, refused",
        "HALF_CLOSED_LOCAL, HEADERS, true, refused",
        "HALF_CLOSED_LOCAL, WINDOW_UPDATE, false, HALF_CLOSED_LOCAL",
        "HALF_CLOSED_LOCAL, RST_STREAM, false, CLOSED_RESET_SENT",
        "HALF_CLOSED_REMOTE, DATA, false, HALF_CLOSED_REMOTE",
        "HALF_CLOSED_REMOTE, DATA, true, CLOSED",
        "HALF_CLOSED_REMOTE, HEADERS, true, CLOSED",
        "HALF_CLOSED_REMOTE, PUSH_PROMISE, false, HALF_CLOSED_REMOTE",
        "CLOSED, DATA, false, refused",
        "CLOSED, PRIORITY, false, CLOSED",
        "CLOSED, RST_STREAM, false, CLOSED_RESET_SENT",
        "CLOSED_RESET_RECEIVED, RST_STREAM, false, CLOSED_RESET_SENT",
        "CLOSED_RESET_RECEIVED, WINDOW_UPDATE, false, refused",
        "CLOSED_RESET_SENT, RST_STREAM, false, refused",
        "CLOSED_RESET_SENT, DATA, false, refused",
    })
    void sendTable(Http2StreamState state, String frame, boolean endStream, String expected) {
        if (expected.equals("refused")) {
            assertThat(state.canSend(type(frame))).isFalse();
            assertThatThrownBy(() -> state.onSend(type(frame), endStream)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(frame).hasMessageContaining(state.name());
        } else {
            assertThat(state.canSend(type(frame))).isTrue();
            assertThat(state.onSend(type(frame), endStream)).isEqualTo(Http2StreamState.valueOf(expected));
        }
    }

    @Test
    void pushPromiseReservesOnlyIdleStreams() throws Exception {
        assertThat(Http2StreamState.IDLE.onPushPromiseReceived(2)).isEqualTo(Http2StreamState.RESERVED_REMOTE);
        assertThat(Http2StreamState.IDLE.onPushPromiseSent()).isEqualTo(Http2StreamState.RESERVED_LOCAL);
        assertThatThrownBy(() -> Http2StreamState.OPEN.onPushPromiseReceived(2))
                .isInstanceOfSatisfying(Http2Exception.class, e -> {
                    assertThat(e.error()).isEqualTo(Http2Error.PROTOCOL_ERROR);
                    assertThat(e.isConnectionError()).isTrue();
                });
        assertThatThrownBy(Http2StreamState.CLOSED::onPushPromiseSent).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRequestResponseExchangeWalksTheDiagram() throws Exception {
        // Server view: request HEADERS + DATA(END_STREAM) in, response HEADERS + DATA(END_STREAM) out.
        Http2StreamState s = Http2StreamState.IDLE;
        s = s.onReceive(Http2Frames.HEADERS, false, 1);
        assertThat(s.isActive()).isTrue();
        s = s.onReceive(Http2Frames.DATA, true, 1);
        assertThat(s).isEqualTo(Http2StreamState.HALF_CLOSED_REMOTE);
        assertThat(s.remoteMaySendData()).isFalse();
        assertThat(s.localMaySendData()).isTrue();
        s = s.onSend(Http2Frames.HEADERS, false);
        s = s.onSend(Http2Frames.DATA, true);
        assertThat(s.isClosed()).isTrue();
        assertThat(s.isActive()).isFalse();
        assertThat(s.ignoresInbound()).isFalse();
        assertThat(Http2StreamState.OPEN.onSend(Http2Frames.RST_STREAM, false).ignoresInbound()).isTrue();
    }
}
