package io.weir.handler.codec.http.multipart;

import io.weir.util.ReferenceCounted;

/**
 * One item of a form body: an {@link Attribute} (a text field) or a {@link FileUpload}. Reference counted: the last
 * {@link #release()} frees its memory and deletes its temporary file, if any.
 *
 * <p>Not thread-safe: use an item from one thread at a time (normally the channel's event loop).
 */
public interface InterfaceHttpData extends ReferenceCounted {

    /** What an item is. */
    enum HttpDataType {
        /** A form field, {@link Attribute}. */
        ATTRIBUTE,
        /** A file part, {@link FileUpload}. */
        FILE_UPLOAD
    }

    /** The form field name (never {@code null}, may repeat within one body). */
    String getName();

    /** Whether this is an attribute or a file upload. */
    HttpDataType getHttpDataType();
}
