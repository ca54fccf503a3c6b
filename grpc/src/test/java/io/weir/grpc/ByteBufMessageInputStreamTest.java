package io.weir.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** The stream marshallers read a message from: the same bytes whichever way they read it, and no more. */
class ByteBufMessageInputStreamTest {
    private static ByteBuf message(int length) {
        ByteBuf buf = Unpooled.buffer(length);
        for (int i = 0; i < length; i++) {
            buf.writeByte(i * 7);
        }
        return buf;
    }

    @Test
    void readAllBytesIsTheWholeMessageAndLeavesNothing() throws Exception {
        ByteBuf buf = message(1024);
        byte[] expected = new byte[1024];
        buf.getBytes(0, expected);
        InputStream in = new ByteBufMessageInputStream(buf);
        assertThat(in.read()).isEqualTo(0);
        byte[] rest = in.readAllBytes();
        assertThat(rest).hasSize(1023).isEqualTo(java.util.Arrays.copyOfRange(expected, 1, 1024));
        assertThat(in.available()).isZero();
        assertThat(in.read()).isEqualTo(-1);
        assertThat(in.readAllBytes()).isEmpty();
        buf.release();
    }

    @Test
    void readNBytesStopsAtTheMessagesEnd() throws Exception {
        ByteBuf buf = message(10);
        InputStream in = new ByteBufMessageInputStream(buf);
        assertThat(in.readNBytes(4)).containsExactly(0, 7, 14, 21);
        assertThat(in.readNBytes(100)).hasSize(6);
        assertThat(in.readNBytes(5)).isEmpty();
        assertThatThrownBy(() -> in.readNBytes(-1)).isInstanceOf(IllegalArgumentException.class);
        buf.release();
    }
}
