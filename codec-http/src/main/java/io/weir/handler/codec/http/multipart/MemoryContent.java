package io.weir.handler.codec.http.multipart;

import io.weir.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.util.Arrays;

/**
 * The bytes of an in-memory form item as a list of plain arrays, so an item of many MiB is never grown by
 * doubling one array: that would copy everything {@code log(n)} times and, past half a G1 region, make each
 * step a humongous allocation. Not thread-safe.
 *
 * <p>Layout: the first array has any length; it starts small and doubles up to 64 KiB, so a short field costs one
 * small array. Every further array is exactly 64 KiB. All arrays but the last are full. A byte's place is therefore
 * arithmetic, not a walk:
 * <pre>
 *   position p &lt; L0 (first array's length)  -&gt; array 0, offset p
 *   otherwise, q = p - L0                     -&gt; array 1 + (q &gt;&gt;&gt; 16), offset q &amp; 0xFFFF
 * </pre>
 * {@link #contiguous()} joins everything into one first array when a caller needs the bytes in one piece (a
 * {@code String}), which keeps the layout valid and serves later calls without joining again.
 *
 * <p>Plain arrays rather than retained slices of the received buffers: the decoder's buffer is compacted and
 * reused, and the caller's buffers may be pooled, so holding on to them would need a reference and a leak-tracked
 * object per piece; one copy into arrays the garbage collector owns needs neither.
 */
final class MemoryContent {
    private static final int CHUNK_SHIFT = 16;
    /** Length of every array after the first: 64 KiB, a power of two so positions split with a shift and a mask. */
    static final int CHUNK_BYTES = 1 << CHUNK_SHIFT;
    private static final int MIN_FIRST_ARRAY_BYTES = 64;
    /** The largest array the JVM reliably allocates. */
    static final int MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;
    private static final byte[][] NO_ARRAYS = new byte[0][];
    private static final byte[] NO_BYTES = new byte[0];

    private byte[][] arrays = NO_ARRAYS;
    private int arrayCount;
    private int size;

    /** Bytes held. */
    int size() {
        return size;
    }

    /** Drops every byte. */
    void clear() {
        arrays = NO_ARRAYS;
        arrayCount = 0;
        size = 0;
    }

    /**
     * Appends {@code src[offset, offset + length)}.
     *
     * @throws IOException if the content would exceed {@link #MAX_ARRAY_BYTES}, the most one array can return
     */
    void append(byte[] src, int offset, int length) throws IOException {
        checkFits(length);
        int off = offset;
        int left = length;
        while (left > 0) {
            int room = roomFor(left);
            int n = Math.min(room, left);
            byte[] last = arrays[arrayCount - 1];
            System.arraycopy(src, off, last, last.length - room, n);
            size += n;
            off += n;
            left -= n;
        }
    }

    /** Appends {@code length} bytes of {@code src} at {@code index} without touching its indexes or references. */
    void append(ByteBuf src, int index, int length) throws IOException {
        if (src.hasArray()) {
            append(src.array(), src.arrayOffset() + index, length);
            return;
        }
        checkFits(length);
        int i = index;
        int left = length;
        while (left > 0) {
            int room = roomFor(left);
            int n = Math.min(room, left);
            byte[] last = arrays[arrayCount - 1];
            src.getBytes(i, last, last.length - room, n);
            size += n;
            i += n;
            left -= n;
        }
    }

    private void checkFits(int length) throws IOException {
        if ((long) size + length > MAX_ARRAY_BYTES) {
            throw new IOException("too large to hold in memory: " + ((long) size + length) + " bytes (at most "
                    + MAX_ARRAY_BYTES + ")");
        }
    }

    /**
     * Free bytes at the end of the last array, after making some room for {@code wanted} more bytes: by growing
     * a first array still below {@link #CHUNK_BYTES}, else by adding an array.
     */
    private int roomFor(int wanted) {
        if (arrayCount == 0) {
            arrays = new byte[4][];
            arrays[0] = new byte[Math.max(MIN_FIRST_ARRAY_BYTES, Math.min(CHUNK_BYTES, wanted))];
            arrayCount = 1;
            return arrays[0].length;
        }
        if (arrayCount == 1) {
            byte[] first = arrays[0];
            int room = first.length - size;
            if (room >= wanted || first.length >= CHUNK_BYTES) {
                if (room > 0) {
                    return room;
                }
            } else {
                // Doubling is cheap while the array is small and keeps short fields in one array.
                long target = Math.max(2L * first.length, (long) size + wanted);
                arrays[0] = Arrays.copyOf(first, (int) Math.min(CHUNK_BYTES, target));
                return arrays[0].length - size;
            }
        } else {
            int room = (int) (((long) arrayCount - 1) * CHUNK_BYTES + arrays[0].length - size);
            if (room > 0) {
                return room;
            }
        }
        if (arrayCount == arrays.length) {
            arrays = Arrays.copyOf(arrays, arrayCount * 2);
        }
        arrays[arrayCount++] = new byte[CHUNK_BYTES];
        return CHUNK_BYTES;
    }

    /** A new array holding every byte. */
    byte[] toArray() {
        byte[] all = new byte[size];
        copyTo(0, all, 0, size);
        return all;
    }

    /**
     * The content in one array (the first {@link #size()} bytes of the returned array; it may be longer), joining
     * the arrays once if there are several. The array stays this object's: read it, do not keep it.
     */
    byte[] contiguous() {
        if (arrayCount > 1) {
            byte[] all = toArray();
            arrays = new byte[4][];
            arrays[0] = all;
            arrayCount = 1;
        }
        return arrayCount == 0 ? NO_BYTES : arrays[0];
    }

    /** The content decoded with {@code charset}. */
    String decode(Charset charset) {
        return new String(contiguous(), 0, size, charset);
    }

    /** Copies {@code length} bytes from {@code position} into {@code dst[dstOffset...]}. */
    void copyTo(int position, byte[] dst, int dstOffset, int length) {
        int p = position;
        int d = dstOffset;
        int left = length;
        while (left > 0) {
            byte[] array = arrayAt(p);
            int from = offsetAt(p);
            int n = Math.min(left, Math.min(array.length - from, size - p));
            System.arraycopy(array, from, dst, d, n);
            p += n;
            d += n;
            left -= n;
        }
    }

    /** Writes {@code length} bytes from {@code position} to {@code dst} at its writer index. */
    void copyTo(int position, ByteBuf dst, int length) {
        int p = position;
        int left = length;
        while (left > 0) {
            byte[] array = arrayAt(p);
            int from = offsetAt(p);
            int n = Math.min(left, Math.min(array.length - from, size - p));
            dst.writeBytes(array, from, n);
            p += n;
            left -= n;
        }
    }

    /** Writes every byte to {@code channel} from {@code position} on. */
    void writeTo(FileChannel channel, long position) throws IOException {
        long pos = position;
        int p = 0;
        while (p < size) {
            byte[] array = arrayAt(p);
            int n = Math.min(array.length, size - p);
            ByteBuffer src = ByteBuffer.wrap(array, 0, n);
            while (src.hasRemaining()) {
                pos += channel.write(src, pos);
            }
            p += n;
        }
    }

    private byte[] arrayAt(int position) {
        int first = arrays[0].length;
        return position < first ? arrays[0] : arrays[1 + ((position - first) >>> CHUNK_SHIFT)];
    }

    private int offsetAt(int position) {
        int first = arrays[0].length;
        return position < first ? position : (position - first) & (CHUNK_BYTES - 1);
    }
}
