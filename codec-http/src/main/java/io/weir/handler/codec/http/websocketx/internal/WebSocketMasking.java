package io.weir.handler.codec.http.websocketx.internal;

import io.weir.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * RFC 6455 §5.3 masking: byte {@code i} of the payload is XORed with byte {@code i mod 4} of the 32-bit masking
 * key. The same operation masks and unmasks. Works eight bytes at a time with the key repeated into a long.
 */
public final class WebSocketMasking {
    private static final VarHandle LONG_VIEW =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /**
     * Shortest run masked through NIO views of direct memory: below it, creating the views costs more than the
     * bounds checks of {@code ByteBuf.getLong} they save.
     */
    private static final int NIO_VIEW_MIN_BYTES = 256;

    private WebSocketMasking() {
    }

    /**
     * XORs {@code length} bytes of {@code buf} from {@code index} in place with {@code maskKey} (big-endian, as on
     * the wire), where the first byte is payload byte number {@code payloadOffset} (so a payload can be unmasked
     * in pieces as it arrives). Indexes are unchanged.
     */
    public static void maskInPlace(ByteBuf buf, int index, int length, int maskKey, long payloadOffset) {
        int key = Integer.rotateLeft(maskKey, 8 * (int) (payloadOffset & 3));
        long key64 = (long) key << 32 | key & 0xFFFFFFFFL;
        int end = index + length;
        int i = index;
        if (buf.hasArray()) {
            byte[] a = buf.array();
            int off = buf.arrayOffset();
            int ai = off + i;
            int aend = off + end;
            for (; ai + 8 <= aend; ai += 8) {
                LONG_VIEW.set(a, ai, (long) LONG_VIEW.get(a, ai) ^ key64);
            }
            for (int j = 0; ai < aend; ai++, j++) {
                a[ai] ^= (byte) (key >>> (24 - 8 * (j & 3)));
            }
            return;
        }
        if (length >= NIO_VIEW_MIN_BYTES && buf.nioBufferCount() == 1) {
            // Direct memory: one ByteBuffer view, whose long accesses the JIT compiles to plain loads and stores.
            ByteBuffer b = buf.nioBuffer(index, length);
            int k = 0;
            for (; k + 8 <= length; k += 8) {
                b.putLong(k, b.getLong(k) ^ key64);
            }
            for (int j = 0; k < length; k++, j++) {
                b.put(k, (byte) (b.get(k) ^ (key >>> (24 - 8 * (j & 3)))));
            }
            return;
        }
        for (; i + 8 <= end; i += 8) {
            buf.setLong(i, buf.getLong(i) ^ key64);
        }
        for (int j = 0; i < end; i++, j++) {
            buf.setByte(i, buf.getByte(i) ^ (key >>> (24 - 8 * (j & 3))));
        }
    }

    /**
     * Writes {@code length} bytes of {@code src} from {@code srcIndex}, masked with {@code maskKey}, to the end of
     * {@code dst} (which must have room). {@code src}'s indexes are unchanged; {@code dst}'s writer index advances.
     */
    public static void maskCopy(ByteBuf src, int srcIndex, int length, int maskKey, ByteBuf dst) {
        long key64 = (long) maskKey << 32 | maskKey & 0xFFFFFFFFL;
        int end = srcIndex + length;
        int i = srcIndex;
        int w = dst.writerIndex();
        if (src.hasArray() && dst.hasArray()) {
            byte[] s = src.array();
            int so = src.arrayOffset();
            byte[] d = dst.array();
            int dw = dst.arrayOffset() + w;
            for (; i + 8 <= end; i += 8, dw += 8) {
                LONG_VIEW.set(d, dw, (long) LONG_VIEW.get(s, so + i) ^ key64);
            }
            for (int j = 0; i < end; i++, j++, dw++) {
                d[dw] = (byte) (s[so + i] ^ (maskKey >>> (24 - 8 * (j & 3))));
            }
        } else if (length >= NIO_VIEW_MIN_BYTES && src.nioBufferCount() == 1 && dst.nioBufferCount() == 1) {
            ByteBuffer s = src.nioBuffer(srcIndex, length);
            ByteBuffer d = dst.nioBuffer(w, length);
            int k = 0;
            for (; k + 8 <= length; k += 8) {
                d.putLong(k, s.getLong(k) ^ key64);
            }
            for (int j = 0; k < length; k++, j++) {
                d.put(k, (byte) (s.get(k) ^ (maskKey >>> (24 - 8 * (j & 3)))));
            }
        } else {
            int k = w;
            for (; i + 8 <= end; i += 8, k += 8) {
                dst.setLong(k, src.getLong(i) ^ key64);
            }
            for (int j = 0; i < end; i++, j++, k++) {
                dst.setByte(k, src.getByte(i) ^ (maskKey >>> (24 - 8 * (j & 3))));
            }
        }
        dst.writerIndex(w + length);
    }
}
