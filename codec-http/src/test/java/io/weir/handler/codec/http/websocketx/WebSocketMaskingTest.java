package io.weir.handler.codec.http.websocketx;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http.websocketx.internal.WebSocketMasking;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/** Masking agrees with RFC 6455 §5.3's byte-wise definition on heap and direct memory, at every offset. */
class WebSocketMaskingTest {

    private static byte[] reference(byte[] data, int key, long payloadOffset) {
        byte[] out = new byte[data.length];
        for (int i = 0; i < data.length; i++) {
            out[i] = (byte) (data[i] ^ (key >>> (24 - 8 * (int) ((payloadOffset + i) & 3))));
        }
        return out;
    }

    @Test
    void maskingMatchesTheDefinitionForEveryKindOfBuffer() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        for (int len : new int[] {0, 1, 7, 8, 9, 255, 256, 257, 1000, 4099}) {
            byte[] data = new byte[len];
            r.nextBytes(data);
            int key = r.nextInt();
            for (long offset = 0; offset < 4; offset++) {
                for (boolean direct : new boolean[] {false, true}) {
                    ByteBuf b = direct ? Unpooled.directBuffer(len + 3) : Unpooled.buffer(len + 3);
                    b.writeBytes(new byte[3]).writeBytes(data);
                    WebSocketMasking.maskInPlace(b, 3, len, key, offset);
                    assertThat(ByteBufUtil.getBytes(b, 3, len)).isEqualTo(reference(data, key, offset));
                    b.release();
                }
            }
            for (boolean srcDirect : new boolean[] {false, true}) {
                for (boolean dstDirect : new boolean[] {false, true}) {
                    ByteBuf src = srcDirect ? Unpooled.directBuffer(len) : Unpooled.buffer(len);
                    src.writeBytes(data);
                    ByteBuf dst = dstDirect ? Unpooled.directBuffer(len + 2) : Unpooled.buffer(len + 2);
                    dst.writeShort(0x8100);
                    WebSocketMasking.maskCopy(src, 0, len, key, dst);
                    assertThat(dst.writerIndex()).isEqualTo(len + 2);
                    assertThat(ByteBufUtil.getBytes(dst, 2, len)).isEqualTo(reference(data, key, 0));
                    src.release();
                    dst.release();
                }
            }
        }
    }
}
