package io.weir.buffer;

import io.weir.util.platform.MemoryAccess;
import io.weir.util.platform.PlatformInfo;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.Objects;

/**
 * Creates unpooled buffers: new ones, views over existing arrays and ByteBuffers ({@code wrappedBuffer}, no
 * copy), and copies ({@code copiedBuffer}). Every buffer returned is owned by the caller and must be released
 * (releasing {@link #EMPTY_BUFFER} is harmless). Thread-safe.
 */
public final class Unpooled {
    private static final UnpooledByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    /**
     * A buffer of capacity and maximum capacity 0, shared by everyone. Its reference count stays 1 and
     * {@code release()} never frees it, so code may release it like any other buffer.
     */
    public static final ByteBuf EMPTY_BUFFER = new EmptyByteBuf(ALLOC);

    private Unpooled() {
    }

    /** A new heap buffer of a default initial capacity that may grow without limit. */
    public static ByteBuf buffer() {
        return ALLOC.heapBuffer();
    }

    /**
     * A new heap buffer.
     *
     * @throws IllegalArgumentException if {@code initialCapacity} is negative
     */
    public static ByteBuf buffer(int initialCapacity) {
        return ALLOC.heapBuffer(initialCapacity);
    }

    /**
     * A new heap buffer.
     *
     * @throws IllegalArgumentException unless {@code 0 <= initialCapacity <= maxCapacity}
     */
    public static ByteBuf buffer(int initialCapacity, int maxCapacity) {
        return ALLOC.heapBuffer(initialCapacity, maxCapacity);
    }

    /** A new direct buffer of a default initial capacity that may grow without limit. */
    public static ByteBuf directBuffer() {
        return ALLOC.directBuffer();
    }

    /**
     * A new direct buffer.
     *
     * @throws IllegalArgumentException if {@code initialCapacity} is negative
     */
    public static ByteBuf directBuffer(int initialCapacity) {
        return ALLOC.directBuffer(initialCapacity);
    }

    /**
     * A new direct buffer.
     *
     * @throws IllegalArgumentException unless {@code 0 <= initialCapacity <= maxCapacity}
     */
    public static ByteBuf directBuffer(int initialCapacity, int maxCapacity) {
        return ALLOC.directBuffer(initialCapacity, maxCapacity);
    }

    /**
     * A buffer over {@code array} (not copied: changes show on both sides), readable from 0 to its end, with a
     * fixed capacity. The array stays the caller's; releasing the buffer only drops it.
     */
    public static ByteBuf wrappedBuffer(byte[] array) {
        if (array.length == 0) {
            return EMPTY_BUFFER;
        }
        AbstractByteBuf buffer = newHeapOver(array);
        buffer.setIndex0(0, array.length);
        return buffer;
    }

    /**
     * A buffer over {@code array[offset, offset + length)}, as {@link #wrappedBuffer(byte[])}.
     *
     * @throws IndexOutOfBoundsException if the range does not fit {@code array}
     */
    public static ByteBuf wrappedBuffer(byte[] array, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, array.length);
        if (length == 0) {
            return EMPTY_BUFFER;
        }
        if (offset == 0 && length == array.length) {
            return wrappedBuffer(array);
        }
        return wrappedBuffer(array).slice(offset, length);
    }

    private static AbstractByteBuf newHeapOver(byte[] array) {
        return PlatformInfo.hasUnsafe()
                ? new UnpooledUnsafeHeapByteBuf(ALLOC, array, array.length)
                : new UnpooledHeapByteBuf(ALLOC, array, array.length);
    }

    /**
     * A buffer over {@code buffer}'s remaining bytes (not copied), readable in full, with a fixed capacity.
     * Neither the ByteBuffer's position nor its limit move. The ByteBuffer stays the caller's: releasing the
     * result never frees it, and the caller must keep its memory valid while the result is in use. A read-only
     * ByteBuffer gives a {@linkplain ByteBuf#isReadOnly() read-only} buffer.
     */
    public static ByteBuf wrappedBuffer(ByteBuffer buffer) {
        if (!buffer.hasRemaining()) {
            return EMPTY_BUFFER;
        }
        if (buffer.hasArray()) {
            return wrappedBuffer(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
        }
        ByteBuffer view = buffer.slice();
        AbstractByteBuf wrapped = view.isDirect() && !view.isReadOnly() && MemoryAccess.hasAddress()
                ? new UnpooledUnsafeDirectByteBuf(ALLOC, view, view.capacity())
                : new UnpooledDirectByteBuf(ALLOC, view, view.capacity());
        wrapped.setIndex0(0, view.capacity());
        return view.isReadOnly() ? wrapped.asReadOnly() : wrapped;
    }

    /**
     * A view of {@code buffer}'s readable bytes ({@link ByteBuf#slice()}) that takes over the caller's
     * reference: releasing the result releases {@code buffer}. If nothing is readable, {@code buffer} is
     * released here and {@link #EMPTY_BUFFER} returned.
     */
    public static ByteBuf wrappedBuffer(ByteBuf buffer) {
        if (buffer.isReadable()) {
            return buffer.slice();
        }
        buffer.release();
        return EMPTY_BUFFER;
    }

    /**
     * A buffer over all of {@code arrays} in order (not copied), readable in full: with one non-empty array the
     * plain {@link #wrappedBuffer(byte[])}, with several a {@link CompositeByteBuf} of one component per
     * non-empty array, with none {@link #EMPTY_BUFFER}.
     */
    public static ByteBuf wrappedBuffer(byte[]... arrays) {
        ByteBuf[] buffers = new ByteBuf[arrays.length];
        int nonEmpty = 0;
        for (byte[] array : arrays) {
            if (array.length > 0) {
                buffers[nonEmpty++] = wrappedBuffer(array);
            }
        }
        return wrapNonEmpty(buffers, nonEmpty);
    }

    /**
     * A buffer over the readable bytes of all of {@code buffers} in order, taking over the caller's reference to
     * each (also if this throws): with one readable buffer {@link #wrappedBuffer(ByteBuf)}, with several a
     * {@link CompositeByteBuf} of one component per readable buffer. Buffers with nothing readable are released.
     */
    public static ByteBuf wrappedBuffer(ByteBuf... buffers) {
        ByteBuf[] readable = new ByteBuf[buffers.length];
        int count = 0;
        try {
            for (int i = 0; i < buffers.length; i++) {
                ByteBuf b = Objects.requireNonNull(buffers[i], "buffers[" + i + "]");
                if (b.isReadable()) {
                    readable[count++] = b;
                }
            }
        } catch (Throwable t) {
            for (ByteBuf b : buffers) {
                if (b != null) {
                    b.release();
                }
            }
            throw t;
        }
        for (ByteBuf b : buffers) {
            if (!b.isReadable()) {
                b.release();
            }
        }
        if (count == 1) {
            return wrappedBuffer(readable[0]);
        }
        return wrapNonEmpty(readable, count);
    }

    private static ByteBuf wrapNonEmpty(ByteBuf[] buffers, int count) {
        if (count == 0) {
            return EMPTY_BUFFER;
        }
        if (count == 1) {
            return buffers[0];
        }
        ByteBuf[] exact = buffers.length == count ? buffers : Arrays.copyOf(buffers, count);
        return new CompositeByteBuf(ALLOC, false, Math.max(count, CompositeByteBuf.DEFAULT_MAX_NUM_COMPONENTS))
                .addComponents(true, exact);
    }

    /**
     * A new empty {@link CompositeByteBuf} over heap memory holding up to
     * {@value CompositeByteBuf#DEFAULT_MAX_NUM_COMPONENTS} components before consolidating.
     */
    public static CompositeByteBuf compositeBuffer() {
        return ALLOC.compositeHeapBuffer();
    }

    /** A new empty {@link CompositeByteBuf} over heap memory holding up to {@code maxNumComponents} components. */
    public static CompositeByteBuf compositeBuffer(int maxNumComponents) {
        return ALLOC.compositeHeapBuffer(maxNumComponents);
    }

    /** A new heap buffer holding a copy of {@code array}. */
    public static ByteBuf copiedBuffer(byte[] array) {
        return copiedBuffer(array, 0, array.length);
    }

    /**
     * A new heap buffer holding a copy of {@code array[offset, offset + length)}.
     *
     * @throws IndexOutOfBoundsException if the range does not fit {@code array}
     */
    public static ByteBuf copiedBuffer(byte[] array, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, array.length);
        if (length == 0) {
            return EMPTY_BUFFER;
        }
        return ALLOC.heapBuffer(length).writeBytes(array, offset, length);
    }

    /** A new heap buffer holding a copy of {@code buffer}'s remaining bytes; its position does not move. */
    public static ByteBuf copiedBuffer(ByteBuffer buffer) {
        int length = buffer.remaining();
        if (length == 0) {
            return EMPTY_BUFFER;
        }
        return ALLOC.heapBuffer(length).writeBytes(buffer.duplicate());
    }

    /**
     * A new heap buffer holding a copy of {@code buffer}'s readable bytes; {@code buffer}'s indexes do not move
     * and it is not released.
     */
    public static ByteBuf copiedBuffer(ByteBuf buffer) {
        int length = buffer.readableBytes();
        if (length == 0) {
            return EMPTY_BUFFER;
        }
        return ALLOC.heapBuffer(length).writeBytes(buffer, buffer.readerIndex(), length);
    }

    /** A new heap buffer holding {@code sequence} encoded with {@code charset}. */
    public static ByteBuf copiedBuffer(CharSequence sequence, Charset charset) {
        Objects.requireNonNull(charset, "charset");
        if (sequence.length() == 0) {
            return EMPTY_BUFFER;
        }
        ByteBuf buffer = ALLOC.heapBuffer(sequence.length());
        buffer.writeCharSequence(sequence, charset);
        return buffer;
    }
}
