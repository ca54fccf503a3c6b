package io.weir.handler.stream;

import io.weir.buffer.ByteBufAllocator;

/**
 * A source of data written in chunks by {@link ChunkedWriteHandler}: a file or stream too large to hold in
 * memory at once. The handler reads one chunk at a time while the channel is writable.
 *
 * <p><b>Threads.</b> Called on the channel's event loop only, one call at a time. A blocking source (a file,
 * an {@code InputStream}) blocks the loop for the duration of one chunk read; keep chunks small.
 *
 * <p><b>Ownership.</b> Each chunk returned belongs to the caller. The handler {@linkplain #close() closes}
 * the input after the last chunk was written, or when writing fails or the channel closes.
 *
 * @param <B> the type of chunk (usually {@code ByteBuf})
 */
public interface ChunkedInput<B> {

    /** Whether no chunk is left; {@code true} once closed. */
    boolean isEndOfInput() throws Exception;

    /** Releases what the input holds (file handles, streams). Idempotent. */
    void close() throws Exception;

    /**
     * The next chunk, allocated with {@code allocator}; {@code null} if no data is available yet though the
     * input has not ended (the handler then waits for {@link ChunkedWriteHandler#resumeTransfer()}) or at the
     * end of input.
     */
    B readChunk(ByteBufAllocator allocator) throws Exception;

    /** The total length in bytes, or {@code -1} if unknown. */
    long length();

    /** The bytes read so far. */
    long progress();
}
