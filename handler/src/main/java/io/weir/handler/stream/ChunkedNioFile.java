package io.weir.handler.stream;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * A {@link ChunkedInput} reading a region of a {@link FileChannel} chunk by chunk with positional reads (the
 * channel's own position is not used). A file that shrinks under it fails the transfer with
 * {@link EOFException}. Reads block the event loop for one chunk each. Event loop only.
 */
public final class ChunkedNioFile implements ChunkedInput<ByteBuf> {
    private final FileChannel in;
    private final long startOffset;
    private final long endOffset;
    private final int chunkSize;
    private long offset;

    /** The whole of {@code file} in chunks of {@link ChunkedStream#DEFAULT_CHUNK_SIZE_BYTES}; opens it. */
    public ChunkedNioFile(File file) throws IOException {
        this(FileChannel.open(Objects.requireNonNull(file, "file").toPath(), StandardOpenOption.READ));
    }

    /** The whole of {@code in} in chunks of {@link ChunkedStream#DEFAULT_CHUNK_SIZE_BYTES}; takes ownership. */
    public ChunkedNioFile(FileChannel in) throws IOException {
        this(in, ChunkedStream.DEFAULT_CHUNK_SIZE_BYTES);
    }

    /** The whole of {@code in} in chunks of at most {@code chunkSize} bytes; takes ownership. */
    public ChunkedNioFile(FileChannel in, int chunkSize) throws IOException {
        this(in, 0, in.size(), chunkSize);
    }

    /**
     * {@code length} bytes of {@code in} from {@code offset} in chunks of at most {@code chunkSize} bytes;
     * takes ownership of the channel.
     *
     * @throws IllegalArgumentException if {@code offset} or {@code length} is negative or {@code chunkSize}
     *         is not positive
     */
    public ChunkedNioFile(FileChannel in, long offset, long length, int chunkSize) {
        this.in = Objects.requireNonNull(in, "in");
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
        return offset >= endOffset || !in.isOpen();
    }

    @Override
    public void close() throws Exception {
        in.close();
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) throws Exception {
        long offset = this.offset;
        if (offset >= endOffset) {
            return null;
        }
        int size = (int) Math.min(chunkSize, endOffset - offset);
        ByteBuf buf = allocator.buffer(size);
        boolean release = true;
        try {
            int read = 0;
            while (read < size) {
                int n = buf.writeBytes(in, offset + read, size - read);
                if (n < 0) {
                    throw new EOFException("file ended at " + (offset + read) + " bytes, before the region's end "
                            + endOffset);
                }
                read += n;
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
