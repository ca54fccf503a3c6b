package io.weir.handler.codec.http.multipart;

import io.weir.handler.codec.http.HttpRequest;
import java.nio.charset.Charset;

/**
 * Creates the {@link Attribute}s and {@link FileUpload}s of a request and remembers them per request, so that
 * {@link #cleanRequestHttpData(HttpRequest)} can free them all (and delete their files) when the request is done.
 *
 * <p>Implementations must be thread-safe: one factory usually serves every channel of a server.
 */
public interface HttpDataFactory {

    /** Sets the maximum size of every item created from now on ({@link HttpData#UNLIMITED_SIZE} for none). */
    void setMaxLimit(long maxSize);

    /** An empty attribute named {@code name} for {@code request}. */
    Attribute createAttribute(HttpRequest request, String name);

    /** An empty attribute whose size is announced as {@code definedSize} bytes. */
    Attribute createAttribute(HttpRequest request, String name, long definedSize);

    /** An attribute holding {@code value}. @throws IllegalArgumentException if the value exceeds the limit */
    Attribute createAttribute(HttpRequest request, String name, String value);

    /**
     * An empty file upload.
     *
     * @param contentTransferEncoding {@code null} if the part gave none
     * @param charset the charset of textual content, {@code null} if unknown
     * @param size the announced size, 0 if unknown
     */
    FileUpload createFileUpload(HttpRequest request, String name, String filename, String contentType,
                                String contentTransferEncoding, Charset charset, long size);

    /** Stops tracking {@code data}: the caller now owns it and must release it. */
    void removeHttpDataFromClean(HttpRequest request, InterfaceHttpData data);

    /** Deletes the content of every item still tracked for {@code request} and forgets them. */
    void cleanRequestHttpData(HttpRequest request);

    /** Deletes the content of every item still tracked for any request. */
    void cleanAllHttpData();
}
