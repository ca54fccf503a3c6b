package io.weir.handler.codec.http.multipart;

import java.nio.charset.Charset;

/** A file upload held in memory whatever its size; bound it with {@link #setMaxSize(long)}. Not thread-safe. */
public final class MemoryFileUpload extends AbstractFileUpload {

    /**
     * An empty upload.
     *
     * @param contentTransferEncoding the part's transfer encoding, {@code null} if none
     * @param charset the charset of textual content, {@code null} for UTF-8
     * @param definedSize the announced size, 0 if unknown
     */
    public MemoryFileUpload(String name, String filename, String contentType, String contentTransferEncoding,
                            Charset charset, long definedSize) {
        super(name, filename, contentType, contentTransferEncoding, charset, definedSize, Long.MAX_VALUE, null,
                false);
    }
}
