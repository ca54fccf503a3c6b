package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.find;
import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static io.weir.handler.codec.http2.internal.Http2Frames.GOAWAY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.handler.codec.http2.Http2FrameClient.Event;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Rapid Reset spread over many connections, each under its own limit, spends a budget they share: the connection
 * that resets past it ends with GOAWAY ENHANCE_YOUR_CALM.
 */
class Http2ResetBudgetTest {

    /** Opens and resets {@code streams} streams from {@code firstId} on; the GOAWAY the server sent, if any. */
    private static Event openAndReset(Http2FrameClient c, int firstId, int streams) {
        for (int i = 0; i < streams; i++) {
            int id = firstId + 2 * i;
            c.headers(id, get("/" + id), false);
            c.rst(id, Http2Error.CANCEL);
        }
        return find(c.read(), GOAWAY);
    }

    @Test
    void rapidResetSpreadOverConnectionsSpendsTheSharedBudget() {
        Http2ResetBudget budget = new Http2ResetBudget(5, 1, TimeUnit.MINUTES);
        try (Http2FrameClient first = new Http2FrameClient(Http2FrameCodecBuilder.forServer()
                .sharedResetBudget(budget).build(), new FrameRecorder()).handshake();
                Http2FrameClient second = new Http2FrameClient(Http2FrameCodecBuilder.forServer()
                        .sharedResetBudget(budget).build(), new FrameRecorder()).handshake()) {
            assertThat(openAndReset(first, 1, 3)).as("3 of 5").isNull();
            assertThat(openAndReset(second, 1, 2)).as("5 of 5").isNull();
            Event goAway = openAndReset(second, 5, 2);
            assertThat(goAway).as("past the shared budget, each connection far below its own limit").isNotNull();
            assertThat(goAway.code()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM.code());
            assertThat(second.channel.isOpen()).isFalse();
        }
    }

    @Test
    void withoutASharedBudgetEachConnectionHasItsOwn() {
        try (Http2FrameClient first = new Http2FrameClient(Http2FrameCodec.forServer(), new FrameRecorder())
                .handshake();
                Http2FrameClient second = new Http2FrameClient(Http2FrameCodec.forServer(), new FrameRecorder())
                        .handshake()) {
            assertThat(openAndReset(first, 1, 10)).isNull();
            assertThat(openAndReset(second, 1, 10)).isNull();
        }
    }

    @Test
    void aBudgetNeedsALimitAndAWindow() {
        assertThatThrownBy(() -> new Http2ResetBudget(0, 1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxResets: 0");
        assertThatThrownBy(() -> new Http2ResetBudget(1, 0, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("window: 0");
    }
}
