package io.weir.handler.stream;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.Objects;

/**
 * A {@link ChunkedInput} reading a region of a {@link RandomAccessFile} chunk by chunk into heap buffers.
 * Reads block the event loop for one chunk each. Event loop only.
 */
public final class ChunkedFile implements ChunkedInput<ByteBuf> {
    private final RandomAccessFile file;
    private final long startOffset;
    private final long endOffset;
    private final int chunkSize;
    private long offset;

    /** The whole of {@code file}, in chunks of {@link ChunkedStream#DEFAULT_CHUNK_SIZE_BYTES}; opens it. */
    public ChunkedFile(File file) throws IOException {
        this(new RandomAccessFile(Objects.requireNonNull(file, "file"), "r"));
    }

    /** The whole of {@code file} in chunks of {@link ChunkedStream#DEFAULT_CHUNK_SIZE_BYTES}; takes ownership. */
    public ChunkedFile(RandomAccessFile file) throws IOException {
        this(file, ChunkedStream.DEFAULT_CHUNK_SIZE_BYTES);
    }

    /** The whole of {@code file} in chunks of at most {@code chunkSize} bytes; takes ownership. */
    public ChunkedFile(RandomAccessFile file, int chunkSize) throws IOException {
        this(file, 0, file.length(), chunkSize);
    }

    /**
     * {@code length} bytes of {@code file} from {@code offset}, in chunks of at most {@code chunkSize} bytes;
     * takes ownership of the file.
     *
     * @throws IllegalArgumentException if {@code offset} or {@code length} is negative or {@code chunkSize}
     *         is not positive
     */
    public ChunkedFile(RandomAccessFile file, long offset, long length, int chunkSize) throws IOException {
        this.file = Objects.requireNonNull(file, "file");
        if (offset < 0) {
            throw new IllegalArgumentException("offset: " + offset + " (expected: >= 0)");
        }
        if (length < 0) {
            throw new IllegalArgumentException("length: " + length + " (expected: >= 0)");
        }
        this.chunkSize = ChunkedStream.checkChunkSize(chunkSize);
        this.startOffset = offset;
        this.offset = offset;
        this.endOffset = offset + length;
        file.seek(offset);
    }

    /** Where the region starts in the file. */
    public long startOffset() {
        return startOffset;
    }

    /** Where the region ends in the file (exclusive). */
    public long endOffset() {
        return endOffset;
    }

    /** The file offset of the next chunk. */
    public long currentOffset() {
        return offset;
    }

    @Override
    public boolean isEndOfInput() throws Exception {
        return offset >= endOffset || !file.getChannel().isOpen();
    }

    @Override
    public void close() throws Exception {
        file.close();
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) throws Exception {
        long offset = this.offset;
        if (offset >= endOffset) {
            return null;
        }
        int size = (int) Math.min(chunkSize, endOffset - offset);
        ByteBuf buf = allocator.heapBuffer(size);
        boolean release = true;
        try {
            if (buf.hasArray()) {
                file.readFully(buf.array(), buf.arrayOffset() + buf.writerIndex(), size);
                buf.writerIndex(buf.writerIndex() + size);
            } else {
                byte[] bytes = new byte[size];
                file.readFully(bytes);
                buf.writeBytes(bytes, 0, size);
            }
            this.offset = offset + size;
            release = false;
            return buf;
        } finally {
            if (release) {
                buf.release();
            }
        }
    }

    @Override
    public long length() {
        return endOffset - startOffset;
    }

    @Override
    public long progress() {
        return offset - startOffset;
    }
}
