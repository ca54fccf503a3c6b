package io.weir.handler.codec.http.multipart;

import java.nio.charset.Charset;
import java.nio.file.Path;

/**
 * A file upload written to a temporary file as its bytes arrive, so its size is bounded by the disk, not the heap;
 * the file is deleted by {@link #delete()} and by the last release. Not thread-safe.
 */
public final class DiskFileUpload extends AbstractFileUpload {

    /**
     * An empty upload.
     *
     * @param contentTransferEncoding the part's transfer encoding, {@code null} if none
     * @param charset the charset of textual content, {@code null} for UTF-8
     * @param definedSize the announced size, 0 if unknown
     * @param baseDirectory where its temporary file goes, {@code null} for the system temp directory
     * @param deleteOnExit whether a file still present at JVM exit is deleted then
     */
    public DiskFileUpload(String name, String filename, String contentType, String contentTransferEncoding,
                          Charset charset, long definedSize, Path baseDirectory, boolean deleteOnExit) {
        super(name, filename, contentType, contentTransferEncoding, charset, definedSize, 0, baseDirectory,
                deleteOnExit);
    }
}
