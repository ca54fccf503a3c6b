package io.weir.handler.codec.http2.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import org.junit.jupiter.api.Test;

class Http2StreamIdsTest {

    @Test
    void clientOpensOddAndServerEvenIds() {
        Http2StreamIds client = new Http2StreamIds(false);
        assertThat(client.nextLocalStreamId()).isEqualTo(1);
        assertThat(client.nextLocalStreamId()).isEqualTo(3);
        Http2StreamIds server = new Http2StreamIds(true);
        assertThat(server.nextLocalStreamId()).isEqualTo(2);
        assertThat(server.peekLocalStreamId()).isEqualTo(4);
        assertThat(server.isLocal(4)).isTrue();
        assertThat(server.isRemote(3)).isTrue();
        assertThat(server.isRemote(0)).isFalse();
        assertThat(server.isLocal(0)).isFalse();
    }

    @Test
    void remoteIdsMustIncreaseAndHaveThePeersParity() throws Exception {
        Http2StreamIds server = new Http2StreamIds(true);
        server.acceptRemote(1);
        server.acceptRemote(5);
        assertThat(server.lastRemoteStreamId()).isEqualTo(5);
        assertThat(server.isIdle(3)).isFalse(); // implicitly closed by opening 5 (§5.1.1)
        assertThat(server.isIdle(7)).isTrue();
        for (int bad : new int[] {5, 3, 6}) {
            assertThatThrownBy(() -> server.acceptRemote(bad)).isInstanceOfSatisfying(Http2Exception.class, e -> {
                assertThat(e.error()).isEqualTo(Http2Error.PROTOCOL_ERROR);
                assertThat(e.isConnectionError()).isTrue();
                assertThat(e.getMessage()).contains(Integer.toString(bad));
            });
        }
    }

    @Test
    void streamIdExhaustionIsReportedForACleanGoAway() {
        Http2StreamIds client = new Http2StreamIds(false);
        client.markLocalUsedUpTo(Integer.MAX_VALUE - 4);
        assertThat(client.nextLocalStreamId()).isEqualTo(Integer.MAX_VALUE - 2);
        assertThat(client.isLocalExhausted()).isFalse();
        assertThat(client.nextLocalStreamId()).isEqualTo(Integer.MAX_VALUE);
        assertThat(client.isLocalExhausted()).isTrue();
        assertThat(client.nextLocalStreamId()).isEqualTo(Http2StreamIds.EXHAUSTED);
        assertThat(client.peekLocalStreamId()).isEqualTo(Http2StreamIds.EXHAUSTED);

        Http2StreamIds server = new Http2StreamIds(true);
        server.markLocalUsedUpTo(Integer.MAX_VALUE - 1);
        assertThat(server.nextLocalStreamId()).isEqualTo(Http2StreamIds.EXHAUSTED);
    }

    @Test
    void upgradeStreamOneIsMarkedUsed() throws Exception {
        Http2StreamIds client = new Http2StreamIds(false);
        client.markLocalUsedUpTo(1);
        assertThat(client.nextLocalStreamId()).isEqualTo(3);
        assertThatThrownBy(() -> client.markLocalUsedUpTo(1)).hasMessageContaining("streamId: 1");
        assertThatThrownBy(() -> client.markLocalUsedUpTo(4)).hasMessageContaining("streamId: 4");
        Http2StreamIds server = new Http2StreamIds(true);
        server.acceptRemote(1);
        assertThat(server.isIdle(1)).isFalse();
        assertThatThrownBy(() -> server.acceptRemote(1)).isInstanceOf(Http2Exception.class);
    }
}
