package io.weir.handler.codec.http.multipart;

import java.nio.charset.Charset;
import java.nio.file.Path;

/**
 * A file upload held in memory up to a size limit and streamed to a temporary file beyond it. Not thread-safe.
 */
public final class MixedFileUpload extends AbstractFileUpload {

    /**
     * An empty upload.
     *
     * @param contentTransferEncoding the part's transfer encoding, {@code null} if none
     * @param charset the charset of textual content, {@code null} for UTF-8
     * @param definedSize the announced size, 0 if unknown
     * @param limitBytes the size above which content moves to a file
     * @param baseDirectory where its temporary file goes, {@code null} for the system temp directory
     * @param deleteOnExit whether a file still present at JVM exit is deleted then
     * @throws IllegalArgumentException if {@code limitBytes} is negative
     */
    public MixedFileUpload(String name, String filename, String contentType, String contentTransferEncoding,
                           Charset charset, long definedSize, long limitBytes, Path baseDirectory,
                           boolean deleteOnExit) {
        super(name, filename, contentType, contentTransferEncoding, charset, definedSize,
                MixedAttribute.checkLimit(limitBytes), baseDirectory, deleteOnExit);
    }
}
