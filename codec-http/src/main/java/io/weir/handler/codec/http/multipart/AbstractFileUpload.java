package io.weir.handler.codec.http.multipart;

import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.Objects;

/** A file upload whose storage policy (memory, disk, mixed) is fixed by its subclass. Not thread-safe. */
abstract class AbstractFileUpload extends AbstractHttpData implements FileUpload {
    private String filename;
    private String contentType;
    private String contentTransferEncoding;

    AbstractFileUpload(String name, String filename, String contentType, String contentTransferEncoding,
                       Charset charset, long definedSize, long memoryLimitBytes, Path baseDirectory,
                       boolean deleteOnExit) {
        super(name, charset, definedSize, memoryLimitBytes, baseDirectory, deleteOnExit);
        this.filename = Objects.requireNonNull(filename, "filename");
        this.contentType = Objects.requireNonNull(contentType, "contentType");
        this.contentTransferEncoding = contentTransferEncoding;
    }

    @Override
    final String tempFilePrefix() {
        return "weir-upload-";
    }

    @Override
    public final HttpDataType getHttpDataType() {
        return HttpDataType.FILE_UPLOAD;
    }

    @Override
    public final String getFilename() {
        return filename;
    }

    @Override
    public final void setFilename(String filename) {
        this.filename = Objects.requireNonNull(filename, "filename");
    }

    @Override
    public final String getContentType() {
        return contentType;
    }

    @Override
    public final void setContentType(String contentType) {
        this.contentType = Objects.requireNonNull(contentType, "contentType");
    }

    @Override
    public final String getContentTransferEncoding() {
        return contentTransferEncoding;
    }

    @Override
    public final void setContentTransferEncoding(String contentTransferEncoding) {
        this.contentTransferEncoding = contentTransferEncoding;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + getName() + ", filename=" + filename + ", type=" + contentType
                + ", " + length() + " bytes" + (isInMemory() ? "" : ", on disk") + "]";
    }
}
