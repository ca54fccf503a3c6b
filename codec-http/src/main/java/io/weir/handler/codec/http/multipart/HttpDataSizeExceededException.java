package io.weir.handler.codec.http.multipart;

import java.io.IOException;

/**
 * Thrown when an {@link HttpData} would grow beyond its {@linkplain HttpData#getMaxSize() maximum size}. The POST
 * decoder reports it as the cause of its {@link HttpPostRequestDecoder.ErrorDataDecoderException}, so a server can
 * answer 413 by type rather than by message.
 */
public final class HttpDataSizeExceededException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long size;
    private final long maxSize;

    /** The data named {@code name} would reach {@code size} bytes, above {@code maxSize}. */
    public HttpDataSizeExceededException(String name, long size, long maxSize) {
        super("size " + size + " of '" + name + "' exceeds the limit of " + maxSize + " bytes");
        this.size = size;
        this.maxSize = maxSize;
    }

    /** The size the data would have reached, in bytes. */
    public long size() {
        return size;
    }

    /** The limit it would have crossed, in bytes. */
    public long maxSize() {
        return maxSize;
    }
}
