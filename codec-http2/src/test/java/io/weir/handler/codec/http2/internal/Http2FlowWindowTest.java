package io.weir.handler.codec.http2.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import org.junit.jupiter.api.Test;

/** Window arithmetic of RFC 9113 §6.9: send windows, receive windows refilled on consumption. */
class Http2FlowWindowTest {

    private static void assertError(ThrowingRunnable r, Http2Error error, int streamId) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(Http2Exception.class, e -> {
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.streamId()).isEqualTo(streamId);
        });
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void sendWindowShrinksOnSendAndGrowsOnWindowUpdate() throws Exception {
        Http2FlowWindow w = new Http2FlowWindow(1, 65_535);
        w.consume(65_535);
        assertThat(w.available()).isZero();
        w.increment(100);
        assertThat(w.window()).isEqualTo(100);
        assertThatThrownBy(() -> w.consume(101)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("101");
    }

    @Test
    void windowUpdateOverflowIsAStreamErrorOnAStream() throws Exception {
        Http2FlowWindow w = new Http2FlowWindow(3, 65_535);
        w.increment(Integer.MAX_VALUE - 65_535);
        assertThat(w.window()).isEqualTo(Integer.MAX_VALUE);
        assertError(() -> w.increment(1), Http2Error.FLOW_CONTROL_ERROR, 3);
        assertThat(w.window()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void windowUpdateOverflowIsAConnectionErrorOnTheConnection() {
        Http2FlowWindow w = new Http2FlowWindow(0, 65_535);
        assertError(() -> w.increment(Integer.MAX_VALUE), Http2Error.FLOW_CONTROL_ERROR, 0);
    }

    @Test
    void initialWindowSizeDecreaseMayTakeAStreamWindowNegative() throws Exception {
        Http2FlowWindow w = new Http2FlowWindow(5, 65_535);
        w.consume(60_000);
        // Peer lowers SETTINGS_INITIAL_WINDOW_SIZE from 65,535 to 16,384 (§6.9.2 example).
        w.applyInitialWindowSizeDelta(16_384 - 65_535);
        assertThat(w.window()).isEqualTo(65_535 - 60_000 - (65_535 - 16_384));
        assertThat(w.window()).isNegative();
        assertThat(w.available()).isZero();
        w.increment(50_000);
        assertThat(w.window()).isEqualTo(-43_616 + 50_000);
    }

    @Test
    void initialWindowSizeIncreaseBeyondMaximumIsAConnectionError() throws Exception {
        Http2FlowWindow w = new Http2FlowWindow(5, 65_535);
        w.increment(Integer.MAX_VALUE - 65_535 - 10);
        assertError(() -> w.applyInitialWindowSizeDelta(11), Http2Error.FLOW_CONTROL_ERROR, 0);
        assertThatThrownBy(() -> new Http2FlowWindow(0, 1).applyInitialWindowSizeDelta(1))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void receiveWindowIsRefilledOnlyAsTheApplicationConsumes() throws Exception {
        Http2LocalFlowWindow w = new Http2LocalFlowWindow(1, 65_535);
        w.receive(40_000);
        assertThat(w.window()).isEqualTo(25_535);
        assertThat(w.unconsumedBytes()).isEqualTo(40_000);
        // Arrival alone announces nothing; consumption below half the window is batched.
        assertThat(w.consume(30_000)).isZero();
        assertThat(w.unannouncedBytes()).isEqualTo(30_000);
        // Crossing half the window (32,767) announces all that was consumed.
        assertThat(w.consume(5_000)).isEqualTo(35_000);
        assertThat(w.window()).isEqualTo(60_535);
        assertThat(w.unannouncedBytes()).isZero();
        assertThat(w.unconsumedBytes()).isEqualTo(5_000);
    }

    @Test
    void dataBeyondTheReceiveWindowIsAFlowControlError() throws Exception {
        Http2LocalFlowWindow stream = new Http2LocalFlowWindow(9, 100);
        stream.receive(100);
        assertError(() -> stream.receive(1), Http2Error.FLOW_CONTROL_ERROR, 9);
        Http2LocalFlowWindow connection = new Http2LocalFlowWindow(0, 100);
        assertError(() -> connection.receive(101), Http2Error.FLOW_CONTROL_ERROR, 0);
    }

    @Test
    void consumingMoreThanReceivedIsRefused() throws Exception {
        Http2LocalFlowWindow w = new Http2LocalFlowWindow(1, 100);
        w.receive(10);
        assertThatThrownBy(() -> w.consume(11)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("11");
    }

    @Test
    void raisingTheConnectionTargetIsAnnouncedAtOnce() {
        Http2LocalFlowWindow w = new Http2LocalFlowWindow(0, 65_535);
        assertThat(w.targetWindowSize(1 << 20)).isEqualTo((1 << 20) - 65_535);
        assertThat(w.window()).isEqualTo(1 << 20);
    }

    @Test
    void loweringTheTargetIsWithheldFromLaterAnnouncements() throws Exception {
        Http2LocalFlowWindow w = new Http2LocalFlowWindow(0, 1000);
        assertThat(w.targetWindowSize(600)).isZero();
        w.receive(1000);
        // 1000 consumed, 400 of it withheld: the peer ends up with a window of 600.
        assertThat(w.consume(1000)).isEqualTo(600);
        assertThat(w.window()).isEqualTo(600);
    }

    @Test
    void ourInitialWindowSizeChangeMovesTheReceiveWindow() throws Exception {
        Http2LocalFlowWindow w = new Http2LocalFlowWindow(3, 65_535);
        w.receive(65_535);
        w.applyInitialWindowSizeDelta(-65_535 + 1000);
        assertThat(w.window()).isEqualTo(1000 - 65_535);
        assertThat(w.targetWindowSize()).isEqualTo(1000);
        // 500 (half of 1000) consumed is enough to announce.
        assertThat(w.consume(500)).isEqualTo(500);
    }

    @Test
    void closingStreamReturnsItsUnconsumedBytes() throws Exception {
        Http2LocalFlowWindow w = new Http2LocalFlowWindow(3, 1000);
        w.receive(300);
        w.consume(100);
        assertThat(w.consumeAll()).isEqualTo(200);
        assertThat(w.unconsumedBytes()).isZero();
    }

    @Test
    void updateRatioIsConfigurable() throws Exception {
        Http2LocalFlowWindow w = new Http2LocalFlowWindow(1, 1000).updateRatio(0.1f);
        w.receive(100);
        assertThat(w.consume(100)).isEqualTo(100);
        assertThatThrownBy(() -> w.updateRatio(0)).hasMessageContaining("0.0");
        assertThatThrownBy(() -> w.updateRatio(1.5f)).hasMessageContaining("1.5");
    }
}
