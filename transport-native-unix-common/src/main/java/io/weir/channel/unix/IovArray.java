package io.weir.channel.unix;

import io.weir.buffer.ByteBuf;
import io.weir.util.platform.MemoryAccess;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * An off-heap array of {@code struct iovec} for {@link FileDescriptor#writev} and {@link FileDescriptor#readv},
 * filled with the native addresses of direct buffers, so a gathering write copies nothing in Java.
 *
 * <pre>
 *   entry i at memoryAddress() + i * IOV_SIZE_BYTES:
 *   0            8            16
 *   +------------+------------+
 *   | iov_base   | iov_len    |   both 8-byte native-order words (64-bit platforms only)
 *   +------------+------------+
 * </pre>
 *
 * <p><b>Limits.</b> At most {@link #maxCount()} entries ({@code IOV_MAX}) and {@link #maxBytes()} bytes: an
 * {@code add} that would pass either returns {@code false} and adds nothing, except that the first entry is
 * always accepted whatever its size (so every writev makes progress).
 *
 * <p><b>Buffers.</b> Only direct buffers: their {@link ByteBuf#memoryAddress()} where they have one, otherwise
 * the address of their {@link ByteBuf#nioBuffer NIO view}. Heap buffers are refused: copy them into (pooled)
 * direct memory first. The array does not retain buffers: the caller keeps every added buffer alive and
 * unchanged until the I/O call returns.
 *
 * <p><b>Threads and lifetime.</b> Not thread-safe; one array per event loop is the intended use. The memory is
 * {@code malloc}ed and freed by {@link #close()}; using the array afterwards throws
 * {@link IllegalStateException}.
 */
public final class IovArray implements AutoCloseable {
    /** Bytes of one {@code struct iovec}. */
    public static final int IOV_SIZE_BYTES = 16;
    /** Default {@link #maxBytes()}: what one write can report in an {@code int}. */
    public static final long DEFAULT_MAX_BYTES = Integer.MAX_VALUE;

    /** Read on first use, so that touching this class before a transport loaded the natives breaks nothing. */
    private static final class Limits {
        static final int MAX_COUNT = UnixNative.iovMax();
    }

    /** Entries stored straight at their native address (no bounds-checked ByteBuffer per store) when possible. */
    private static final boolean RAW_STORES = MemoryAccess.hasAddress();

    private final long memoryAddress;
    private final ByteBuffer memory;
    private long maxBytes = DEFAULT_MAX_BYTES;
    private int count;
    private long size;
    private boolean closed;

    private final int maxCount;

    /**
     * Entries an array holds: the platform's {@code IOV_MAX} (1024 on Linux).
     *
     * @throws UnsatisfiedLinkError if no native transport has registered this package's natives
     */
    public static int maxCount() {
        Unix.ensureAvailability();
        return Limits.MAX_COUNT;
    }

    /**
     * An empty array of {@link #maxCount()} entries.
     *
     * @throws OutOfMemoryError if the native memory cannot be allocated
     * @throws UnsatisfiedLinkError if no native transport has registered this package's natives
     */
    public IovArray() {
        this.maxCount = maxCount();
        int capacityBytes = maxCount * IOV_SIZE_BYTES;
        long address = UnixNative.allocateMemory(capacityBytes);
        if (address == 0) {
            throw new OutOfMemoryError("malloc(" + capacityBytes + ") failed for an IovArray");
        }
        ByteBuffer wrapped;
        try {
            wrapped = UnixNative.wrapMemory(address, capacityBytes).order(ByteOrder.nativeOrder());
        } catch (Throwable t) {
            UnixNative.freeMemory(address);
            throw t;
        }
        this.memoryAddress = address;
        this.memory = wrapped;
    }

    /**
     * Adds the bytes {@code [index, index + length)} of {@code buf}.
     *
     * @return {@code false} if the array is full (entries or bytes); nothing was added then
     * @throws IllegalArgumentException if {@code buf} is not direct, or claims to be but one of its
     *         {@link ByteBuf#nioBuffers NIO views} is not; nothing was added then
     * @throws IndexOutOfBoundsException if the range is outside {@code buf}'s capacity
     * @throws IllegalStateException if the array is closed
     */
    public boolean add(ByteBuf buf, int index, int length) {
        ensureOpen();
        if (index < 0 || length < 0 || index > buf.capacity() - length) {
            throw new IndexOutOfBoundsException("index: " + index + ", length: " + length + " (capacity: "
                    + buf.capacity() + ')');
        }
        if (!buf.isDirect()) {
            throw new IllegalArgumentException("heap buffer: " + buf + " (copy it into a direct buffer first)");
        }
        if (length == 0) {
            return true;
        }
        if (buf.hasMemoryAddress()) {
            return add0(buf.memoryAddress() + index, length);
        }
        if (buf.nioBufferCount() == 1) {
            ByteBuffer b = buf.nioBuffer(index, length);
            long address = UnixNative.directBufferAddress(b);
            if (address != 0) {
                // A view may start at a position other than 0; its address is that of its byte 0.
                return add0(address + b.position(), length);
            }
            // A direct buffer whose single view is a heap copy (a range across a composite's components, say):
            // its pieces, which share the direct memory, are what can be written.
        }
        ByteBuffer[] buffers = buf.nioBuffers(index, length);
        if (!fits(buffers.length, length)) {
            return false;
        }
        // Every piece is checked before any is added: a refused buffer leaves the array as it was.
        for (int i = 0; i < buffers.length; i++) {
            nioAddress(buffers[i], buf);
        }
        for (int i = 0; i < buffers.length; i++) {
            ByteBuffer b = buffers[i];
            if (b.hasRemaining()) {
                put(nioAddress(b, buf) + b.position(), b.remaining());
            }
        }
        return true;
    }

    /**
     * {@link #add(ByteBuf, int, int)} of {@code buf}'s readable bytes: the transports' path, one call per flushed
     * buffer, which skips the range check (a buffer's readable bytes are within its capacity by contract).
     */
    public boolean add(ByteBuf buf) {
        ensureOpen();
        int length = buf.readableBytes();
        if (!buf.isDirect()) {
            throw new IllegalArgumentException("heap buffer: " + buf + " (copy it into a direct buffer first)");
        }
        if (length == 0) {
            return true;
        }
        if (buf.hasMemoryAddress()) {
            return add0(buf.memoryAddress() + buf.readerIndex(), length);
        }
        return add(buf, buf.readerIndex(), length);
    }

    /**
     * Adds {@code length} bytes at a native {@code address} the caller keeps valid.
     *
     * @return {@code false} if the array is full (entries or bytes)
     * @throws IllegalArgumentException if {@code address} is 0 or {@code length} negative
     */
    public boolean add(long address, int length) {
        ensureOpen();
        if (address == 0 || length < 0) {
            throw new IllegalArgumentException("address: " + address + ", length: " + length
                    + " (expected: non-zero address, length >= 0)");
        }
        return length == 0 || add0(address, length);
    }

    private static long nioAddress(ByteBuffer buffer, ByteBuf of) {
        long address = UnixNative.directBufferAddress(buffer);
        if (address == 0) {
            throw new IllegalArgumentException("not a direct ByteBuffer: " + buffer + " of " + of
                    + " (copy it into a direct buffer first)");
        }
        return address;
    }

    /** Whether {@code entries} more entries of {@code bytes} in all fit (the first entry always does). */
    private boolean fits(int entries, long bytes) {
        return count <= maxCount - entries && (count == 0 || size + bytes <= maxBytes);
    }

    private boolean add0(long address, int length) {
        if (!fits(1, length)) {
            return false;
        }
        put(address, length);
        return true;
    }

    private void put(long address, int length) {
        int offset = count * IOV_SIZE_BYTES;
        if (RAW_STORES) {
            // In bounds: fits() keeps count below maxCount, and the memory holds maxCount entries.
            long entry = memoryAddress + offset;
            MemoryAccess.putLong(entry, address);
            MemoryAccess.putLong(entry + 8, length);
        } else {
            memory.putLong(offset, address);
            memory.putLong(offset + 8, length);
        }
        count++;
        size += length;
    }

    /** Entries added since the last {@link #clear()}. */
    public int count() {
        return count;
    }

    /** Bytes the entries cover. */
    public long size() {
        return size;
    }

    /** The byte limit of {@code add} (see the class comment). */
    public long maxBytes() {
        return maxBytes;
    }

    /**
     * Sets the byte limit of later {@code add}s.
     *
     * @throws IllegalArgumentException if {@code maxBytes} is not positive
     */
    public void maxBytes(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: > 0)");
        }
        this.maxBytes = maxBytes;
    }

    /** Forgets every entry; the memory is kept for reuse. */
    public void clear() {
        count = 0;
        size = 0;
    }

    /**
     * The native address of entry {@code offset}, where {@code count} entries from it are valid.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= offset <= offset + count <= count()}
     * @throws IllegalStateException if the array is closed
     */
    public long memoryAddress(int offset, int count) {
        ensureOpen();
        if (offset < 0 || count < 0 || offset > this.count - count) {
            throw new IndexOutOfBoundsException("offset: " + offset + ", count: " + count + " (entries: "
                    + this.count + ')');
        }
        return memoryAddress + (long) offset * IOV_SIZE_BYTES;
    }

    /** Frees the native memory; later calls do nothing. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            count = 0;
            size = 0;
            UnixNative.freeMemory(memoryAddress);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("IovArray closed");
        }
    }

    @Override
    public String toString() {
        return "IovArray(" + count + " entries, " + size + " bytes" + (closed ? ", closed)" : ")");
    }
}
