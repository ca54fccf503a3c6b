package io.weir.handler.stream;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Objects;

/**
 * A {@link ChunkedInput} reading a {@link ReadableByteChannel} chunk by chunk. A non-blocking channel that
 * has nothing to offer yields no chunk without ending the input; call
 * {@link ChunkedWriteHandler#resumeTransfer()} when it has data again. Event loop only.
 */
public final class ChunkedNioStream implements ChunkedInput<ByteBuf> {
    private final ReadableByteChannel in;
    private final int chunkSize;
    private final ByteBuffer byteBuffer;
    private long offset;

    /** Reads {@code in} in chunks of {@link ChunkedStream#DEFAULT_CHUNK_SIZE_BYTES}; takes ownership of it. */
    public ChunkedNioStream(ReadableByteChannel in) {
        this(in, ChunkedStream.DEFAULT_CHUNK_SIZE_BYTES);
    }

    /**
     * Reads {@code in} in chunks of at most {@code chunkSize} bytes; takes ownership of it.
     *
     * @throws IllegalArgumentException if {@code chunkSize} is not positive
     */
    public ChunkedNioStream(ReadableByteChannel in, int chunkSize) {
        this.in = Objects.requireNonNull(in, "in");
        this.chunkSize = ChunkedStream.checkChunkSize(chunkSize);
        this.byteBuffer = ByteBuffer.allocate(chunkSize);
    }

    /** Bytes transferred so far. */
    public long transferredBytes() {
        return offset;
    }

    @Override
    public boolean isEndOfInput() throws Exception {
        if (byteBuffer.position() > 0) {
            return false;
        }
        if (!in.isOpen()) {
            return true;
        }
        // Reads ahead into the chunk buffer: the only way to learn about the end of a channel.
        int b = in.read(byteBuffer);
        if (b < 0) {
            return true;
        }
        offset += b;
        return false;
    }

    @Override
    public void close() throws Exception {
        in.close();
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) throws Exception {
        if (isEndOfInput()) {
            return null;
        }
        int readBytes = byteBuffer.position();
        while (readBytes < chunkSize) {
            int n = in.read(byteBuffer);
            if (n <= 0) {
                break;
            }
            readBytes += n;
            offset += n;
        }
        if (readBytes == 0) {
            return null;
        }
        byteBuffer.flip();
        ByteBuf buffer = allocator.buffer(byteBuffer.remaining());
        try {
            buffer.writeBytes(byteBuffer);
        } catch (Throwable t) {
            buffer.release();
            throw t;
        } finally {
            byteBuffer.clear();
        }
        return buffer;
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
