package io.weir.handler.codec.http.multipart;

import java.nio.charset.Charset;
import java.nio.file.Path;

/**
 * An attribute held in a temporary file from its first byte; the file is deleted by {@link #delete()} and by the
 * last release. Not thread-safe.
 */
public final class DiskAttribute extends AbstractAttribute {

    /**
     * An empty attribute.
     *
     * @param charset its charset, {@code null} for UTF-8
     * @param definedSize the announced size, 0 if unknown
     * @param baseDirectory where its temporary file goes, {@code null} for the system temp directory
     * @param deleteOnExit whether a file still present at JVM exit is deleted then
     */
    public DiskAttribute(String name, Charset charset, long definedSize, Path baseDirectory, boolean deleteOnExit) {
        super(name, charset, definedSize, 0, baseDirectory, deleteOnExit);
    }
}
