package io.weir.handler.stream;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.Objects;

/**
 * A {@link ChunkedInput} reading an {@link InputStream} chunk by chunk. The end is detected by reading one
 * byte ahead, so the stream's length need not be known. Reads block the event loop; use it for streams that
 * answer quickly (files, memory). Event loop only, like every {@code ChunkedInput}.
 */
public final class ChunkedStream implements ChunkedInput<ByteBuf> {
    /** The chunk size used when none is given. */
    public static final int DEFAULT_CHUNK_SIZE_BYTES = 8192;

    private final PushbackInputStream in;
    private final int chunkSize;
    private long offset;
    private boolean closed;

    /** Reads {@code in} in chunks of {@link #DEFAULT_CHUNK_SIZE_BYTES}; takes ownership of the stream. */
    public ChunkedStream(InputStream in) {
        this(in, DEFAULT_CHUNK_SIZE_BYTES);
    }

    /**
     * Reads {@code in} in chunks of at most {@code chunkSize} bytes; takes ownership of the stream.
     *
     * @throws IllegalArgumentException if {@code chunkSize} is not positive
     */
    public ChunkedStream(InputStream in, int chunkSize) {
        Objects.requireNonNull(in, "in");
        this.chunkSize = checkChunkSize(chunkSize);
        this.in = in instanceof PushbackInputStream p ? p : new PushbackInputStream(in);
    }

    static int checkChunkSize(int chunkSize) {
        if (chunkSize <= 0) {
            throw new IllegalArgumentException("chunkSize: " + chunkSize + " (expected: > 0)");
        }
        return chunkSize;
    }

    /** Bytes transferred so far. */
    public long transferredBytes() {
        return offset;
    }

    @Override
    public boolean isEndOfInput() throws Exception {
        if (closed) {
            return true;
        }
        if (in.available() > 0) {
            return false;
        }
        int b = in.read();
        if (b < 0) {
            return true;
        }
        in.unread(b);
        return false;
    }

    @Override
    public void close() throws Exception {
        closed = true;
        in.close();
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) throws Exception {
        if (isEndOfInput()) {
            return null;
        }
        int available = in.available();
        int size = available <= 0 ? chunkSize : Math.min(chunkSize, available);
        ByteBuf buffer = allocator.heapBuffer(size);
        boolean release = true;
        try {
            int n = buffer.writeBytes(in, size);
            if (n > 0) {
                offset += n;
            }
            release = false;
            return buffer;
        } finally {
            if (release) {
                buffer.release();
            }
        }
    }

    @Override
    public long length() {
        return -1;
    }

    @Override
    public long progress() {
        return offset;
    }
}
