package io.weir.handler.codec.http.multipart;

import java.io.IOException;

/** A form field: a named text value. Same ownership and threading contract as {@link HttpData}. */
public interface Attribute extends HttpData {

    /** The value decoded with {@link #getCharset()}. */
    String getValue() throws IOException;

    /** Replaces the value, encoded with {@link #getCharset()}. @throws IOException if over the size limit */
    void setValue(String value) throws IOException;
}
