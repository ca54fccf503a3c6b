package io.weir.handler.codec.http.multipart;

import java.nio.charset.Charset;

/** An attribute held in memory whatever its size; bound it with {@link #setMaxSize(long)}. Not thread-safe. */
public final class MemoryAttribute extends AbstractAttribute {

    /** An empty UTF-8 attribute named {@code name}. */
    public MemoryAttribute(String name) {
        this(name, null, 0);
    }

    /**
     * An empty attribute.
     *
     * @param charset its charset, {@code null} for UTF-8
     * @param definedSize the announced size, 0 if unknown
     */
    public MemoryAttribute(String name, Charset charset, long definedSize) {
        super(name, charset, definedSize, Long.MAX_VALUE, null, false);
    }
}
