package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.handler.stream.ChunkedInput;
import io.weir.handler.stream.ChunkedWriteHandler;
import java.util.Objects;

/**
 * Turns a {@link ChunkedInput} of bytes (a {@code ChunkedFile}, {@code ChunkedNioFile}, {@code ChunkedStream})
 * into the {@link HttpContent} pieces of one HTTP message body, for {@link ChunkedWriteHandler}: each chunk of
 * the source becomes an {@link HttpContent}, and once the source has ended one {@link LastHttpContent} closes the
 * message (with the trailer fields given, if any). Write the message head ({@code Transfer-Encoding: chunked} or
 * a {@code Content-Length} equal to the source's length) first, then this input:
 *
 * <pre>{@code
 * ctx.write(responseHead);
 * ctx.writeAndFlush(new HttpChunkedInput(new ChunkedFile(raf)));
 * }</pre>
 *
 * <p><b>Ownership.</b> This input owns the source: {@link #close()} closes it. Every chunk returned belongs to
 * the caller (the {@link ChunkedWriteHandler} writes it on and the encoder releases it).
 *
 * <p><b>Threads.</b> Like every {@link ChunkedInput}: the channel's event loop only, one call at a time.
 */
public final class HttpChunkedInput implements ChunkedInput<HttpContent> {
    private final ChunkedInput<ByteBuf> input;
    private final LastHttpContent lastContent;
    private boolean sentLastChunk;

    /**
     * A body read from {@code input}, ended by an empty {@link LastHttpContent} without trailers.
     *
     * @throws NullPointerException if {@code input} is null
     */
    public HttpChunkedInput(ChunkedInput<ByteBuf> input) {
        this(input, LastHttpContent.EMPTY_LAST_CONTENT);
    }

    /**
     * A body read from {@code input}, ended by {@code lastContent} (typically a {@link DefaultLastHttpContent}
     * with trailer fields, which only a chunked message can carry). This input takes ownership of
     * {@code lastContent}: it is returned as the final chunk, or released by {@link #close()} if never returned.
     *
     * @throws NullPointerException if an argument is null
     */
    public HttpChunkedInput(ChunkedInput<ByteBuf> input, LastHttpContent lastContent) {
        this.input = Objects.requireNonNull(input, "input");
        this.lastContent = Objects.requireNonNull(lastContent, "lastContent");
    }

    /** Whether the source has ended and the {@link LastHttpContent} was returned too. */
    @Override
    public boolean isEndOfInput() throws Exception {
        return input.isEndOfInput() && sentLastChunk;
    }

    /**
     * Closes the source; releases the {@link LastHttpContent} if it was never returned. Idempotent.
     *
     * @throws Exception what closing the source throws
     */
    @Override
    public void close() throws Exception {
        if (!sentLastChunk) {
            // Marked first so a second close (or a late readChunk) cannot release or hand out the piece again.
            sentLastChunk = true;
            lastContent.release();
        }
        input.close();
    }

    /**
     * The next piece: an {@link HttpContent} wrapping the source's next chunk, the {@link LastHttpContent} once
     * the source has ended, then {@code null}. Also {@code null} when the source has no data yet but has not
     * ended.
     *
     * @throws Exception what reading the source throws
     */
    @Override
    public HttpContent readChunk(ByteBufAllocator allocator) throws Exception {
        if (input.isEndOfInput()) {
            if (sentLastChunk) {
                return null;
            }
            sentLastChunk = true;
            return lastContent;
        }
        ByteBuf chunk = input.readChunk(allocator);
        return chunk == null ? null : new DefaultHttpContent(chunk);
    }

    /** The source's length in bytes, or {@code -1} if it does not know it. */
    @Override
    public long length() {
        return input.length();
    }

    /** The bytes the source has produced so far. */
    @Override
    public long progress() {
        return input.progress();
    }
}
