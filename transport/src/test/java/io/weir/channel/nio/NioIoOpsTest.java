package io.weir.channel.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.SelectionKey;
import org.junit.jupiter.api.Test;

class NioIoOpsTest {

    @Test
    void constantsCarryTheSelectionKeyBits() {
        assertThat(NioIoOps.NONE.value()).isZero();
        assertThat(NioIoOps.READ.value()).isEqualTo(SelectionKey.OP_READ);
        assertThat(NioIoOps.WRITE.value()).isEqualTo(SelectionKey.OP_WRITE);
        assertThat(NioIoOps.CONNECT.value()).isEqualTo(SelectionKey.OP_CONNECT);
        assertThat(NioIoOps.ACCEPT.value()).isEqualTo(SelectionKey.OP_ACCEPT);
        assertThat(NioIoOps.READ_AND_WRITE.value()).isEqualTo(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
    }

    @Test
    void combiningSetsReturnsTheSharedInstances() {
        NioIoOps readWrite = NioIoOps.READ.with(NioIoOps.WRITE);
        assertThat(readWrite).isSameAs(NioIoOps.READ_AND_WRITE);
        assertThat(readWrite.without(NioIoOps.WRITE)).isSameAs(NioIoOps.READ);
        assertThat(NioIoOps.READ.without(NioIoOps.READ)).isSameAs(NioIoOps.NONE);
        assertThat(NioIoOps.valueOf(SelectionKey.OP_CONNECT | SelectionKey.OP_READ))
                .isSameAs(NioIoOps.CONNECT.with(NioIoOps.READ));
        assertThat(readWrite.contains(NioIoOps.WRITE)).isTrue();
        assertThat(readWrite.contains(NioIoOps.ACCEPT)).isFalse();
        assertThat(readWrite.contains(NioIoOps.NONE)).isTrue();
        assertThat(readWrite.intersects(NioIoOps.WRITE.with(NioIoOps.ACCEPT))).isTrue();
        assertThat(NioIoOps.READ.intersects(NioIoOps.WRITE)).isFalse();
        assertThat(readWrite).hasToString("NioIoOps(READ|WRITE)");
        assertThat(NioIoOps.NONE).hasToString("NioIoOps(NONE)");
    }

    @Test
    void bitsThatAreNoNioOperationAreRefused() {
        assertThatThrownBy(() -> NioIoOps.valueOf(2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0x2");
        assertThatThrownBy(() -> NioIoOps.valueOf(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NioIoEvent.of(64)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eventsAreSharedPerReadySetAndAnswerEachOperation() {
        NioIoEvent event = NioIoEvent.of(SelectionKey.OP_READ | SelectionKey.OP_ACCEPT);
        assertThat(event).isSameAs(NioIoEvent.of(SelectionKey.OP_ACCEPT | SelectionKey.OP_READ));
        assertThat(event.isReadable()).isTrue();
        assertThat(event.isAcceptable()).isTrue();
        assertThat(event.isWritable()).isFalse();
        assertThat(event.isConnectable()).isFalse();
        assertThat(event.readyOps()).isSameAs(NioIoOps.READ.with(NioIoOps.ACCEPT));
        assertThat(NioIoEvent.of(SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT).isConnectable()).isTrue();
    }
}
