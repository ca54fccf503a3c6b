package io.weir.handler.codec.http.multipart;

import io.weir.buffer.ByteBuf;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;

/**
 * The content of a form item, held in memory or in a temporary file depending on the implementation and its size.
 *
 * <p><b>Ownership.</b> Buffers handed to {@link #setContent(ByteBuf)} and {@link #addContent(ByteBuf, boolean)}
 * pass to this object, which copies them out and releases them before returning (also when it throws). Buffers
 * returned by {@link #getByteBuf()} and {@link #getChunk(int)} belong to the caller.
 *
 * <p><b>Threads.</b> Not thread-safe; one thread at a time.
 */
public interface HttpData extends InterfaceHttpData {

    /** No limit for {@link #setMaxSize(long)}. */
    long UNLIMITED_SIZE = -1;

    /** The maximum size in bytes accepted by this item, or {@link #UNLIMITED_SIZE}. */
    long getMaxSize();

    /**
     * Sets the maximum size in bytes ({@link #UNLIMITED_SIZE} for none); content growing beyond it is refused with
     * an {@link IOException}.
     *
     * @throws IllegalArgumentException if {@code maxSize} is below -1
     */
    void setMaxSize(long maxSize);

    /** Throws an {@link HttpDataSizeExceededException} naming both values if {@code newSize} exceeds {@link #getMaxSize()}. */
    void checkSize(long newSize) throws IOException;

    /** Replaces the content with the readable bytes of {@code buffer} (released here) and marks it completed. */
    void setContent(ByteBuf buffer) throws IOException;

    /**
     * Appends the readable bytes of {@code buffer} (released here); {@code last} marks the content completed.
     *
     * @throws IOException if the size limit is exceeded or the temporary file cannot be written
     */
    void addContent(ByteBuf buffer, boolean last) throws IOException;

    /**
     * Replaces the content with {@code file}. A disk-backed item refers to the file in place and never deletes it;
     * a memory item reads it whole.
     */
    void setContent(File file) throws IOException;

    /** Replaces the content with what {@code inputStream} yields until its end (the stream is not closed). */
    void setContent(InputStream inputStream) throws IOException;

    /** Whether the content is complete (the item's delimiter was seen, or it was set whole). */
    boolean isCompleted();

    /** The current size of the content in bytes. */
    long length();

    /** The size announced before the content arrived, or 0 if none was. */
    long definedLength();

    /** Frees the memory and deletes the temporary file now; idempotent. The item is empty afterwards. */
    void delete();

    /** A copy of the whole content. @throws IOException if it cannot be read or exceeds 2 GiB */
    byte[] get() throws IOException;

    /** A new buffer holding the whole content, owned by the caller. */
    ByteBuf getByteBuf() throws IOException;

    /**
     * The next at most {@code length} bytes of content in a new buffer owned by the caller, reading sequentially
     * from the start; an empty buffer at the end, after which reading starts over.
     */
    ByteBuf getChunk(int length) throws IOException;

    /** The content decoded with {@link #getCharset()}. */
    String getString() throws IOException;

    /** The content decoded with {@code charset}. */
    String getString(Charset charset) throws IOException;

    /** Sets the charset of textual content; {@code null} is refused. */
    void setCharset(Charset charset);

    /** The charset of textual content. */
    Charset getCharset();

    /**
     * Moves (or, for in-memory content, writes) the content to {@code dest}; afterwards this item refers to
     * {@code dest} and no longer deletes it.
     *
     * @return {@code true} on success
     */
    boolean renameTo(File dest) throws IOException;

    /** Whether the content is in memory rather than in a file. */
    boolean isInMemory();

    /** The file holding the content. @throws IOException if the content is in memory */
    File getFile() throws IOException;

    @Override
    HttpData retain();

    @Override
    HttpData retain(int increment);

    @Override
    HttpData touch();

    @Override
    HttpData touch(Object hint);
}
