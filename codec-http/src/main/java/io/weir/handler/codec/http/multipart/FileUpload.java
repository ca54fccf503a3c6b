package io.weir.handler.codec.http.multipart;

/**
 * A file part of a multipart body. Same ownership and threading contract as {@link HttpData}.
 *
 * <p>{@link #getFilename()} has had any directory part removed by the decoder, but it still comes from the
 * client: never use it as a path without checking it against your own rules.
 */
public interface FileUpload extends HttpData {

    /** The client-supplied file name without any directory part; may be empty. */
    String getFilename();

    /** Sets the file name. */
    void setFilename(String filename);

    /** The part's media type, e.g. {@code image/png}. */
    String getContentType();

    /** Sets the part's media type. */
    void setContentType(String contentType);

    /** The part's {@code Content-Transfer-Encoding}, or {@code null} if none was given. */
    String getContentTransferEncoding();

    /** Sets the part's {@code Content-Transfer-Encoding}. */
    void setContentTransferEncoding(String contentTransferEncoding);
}
