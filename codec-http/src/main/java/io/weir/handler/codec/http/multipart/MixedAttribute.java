package io.weir.handler.codec.http.multipart;

import java.nio.charset.Charset;
import java.nio.file.Path;

/**
 * An attribute held in memory up to a size limit and moved to a temporary file when it grows beyond it. Not
 * thread-safe.
 */
public final class MixedAttribute extends AbstractAttribute {

    /**
     * An empty attribute.
     *
     * @param charset its charset, {@code null} for UTF-8
     * @param definedSize the announced size, 0 if unknown
     * @param limitBytes the size above which content moves to a file
     * @param baseDirectory where its temporary file goes, {@code null} for the system temp directory
     * @param deleteOnExit whether a file still present at JVM exit is deleted then
     * @throws IllegalArgumentException if {@code limitBytes} is negative
     */
    public MixedAttribute(String name, Charset charset, long definedSize, long limitBytes, Path baseDirectory,
                          boolean deleteOnExit) {
        super(name, charset, definedSize, checkLimit(limitBytes), baseDirectory, deleteOnExit);
    }

    static long checkLimit(long limitBytes) {
        if (limitBytes < 0) {
            throw new IllegalArgumentException("limitBytes: " + limitBytes + " (expected >= 0)");
        }
        return limitBytes;
    }
}
