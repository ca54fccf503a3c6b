package io.weir.handler.codec.http.multipart;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http.DefaultFullHttpRequest;
import io.weir.handler.codec.http.DefaultHttpContent;
import io.weir.handler.codec.http.DefaultHttpHeaders;
import io.weir.handler.codec.http.DefaultLastHttpContent;
import io.weir.handler.codec.http.HttpContent;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaderValues;
import io.weir.handler.codec.http.HttpHeaders;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.stream.ChunkedInput;
import java.io.File;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Encodes a form body for a client request: {@code multipart/form-data} (RFC 7578) with attributes and file
 * uploads, or {@code application/x-www-form-urlencoded} with attributes only.
 *
 * <p>Usage: add items, call {@link #finalizeRequest()}, write the request it returns; if {@link #isChunked()}, then
 * write this encoder as a {@link ChunkedInput} through a {@code ChunkedWriteHandler}, which reads file content in
 * {@value #DEFAULT_CHUNK_SIZE_BYTES}-byte chunks so that no file is ever loaded whole. The total length is known in
 * advance, so the request carries {@code Content-Length}, not chunked transfer coding. Several files under one
 * name are sent as separate parts with the same name (RFC 7578 §4.3), not as nested {@code multipart/mixed}.
 *
 * <p><b>Threads and ownership.</b> Not thread-safe: build on one thread, then let the channel's event loop read
 * it. Each chunk returned belongs to the caller. Items are created through the factory, which owns them; call
 * {@link #cleanFiles()} when the request is done.
 */
public final class HttpPostRequestEncoder implements ChunkedInput<HttpContent> {
    /** Size of the chunks handed to {@code ChunkedWriteHandler}. */
    public static final int DEFAULT_CHUNK_SIZE_BYTES = 8 * 1024;
    private static final byte[] CRLF = {'\r', '\n'};

    private final HttpDataFactory factory;
    private final HttpRequest request;
    private final boolean multipart;
    private final Charset charset;
    private final String boundary;
    private final List<InterfaceHttpData> datas = new ArrayList<>();

    /** The body: literal bytes, or a file read lazily. */
    private record Segment(byte[] bytes, Path file, long length) {
    }

    private final List<Segment> segments = new ArrayList<>();
    private boolean finalized;
    private boolean chunked;
    private boolean ended;
    private long length;
    private long progress;
    private int segmentIndex;
    private long segmentOffset;
    private FileChannel openFile;

    /** An encoder using a {@link DefaultHttpDataFactory} in mixed mode and UTF-8. */
    public HttpPostRequestEncoder(HttpRequest request, boolean multipart) {
        this(new DefaultHttpDataFactory(), request, multipart, StandardCharsets.UTF_8);
    }

    /**
     * An encoder.
     *
     * @param multipart {@code multipart/form-data} if {@code true}, else {@code application/x-www-form-urlencoded}
     * @param charset the charset of attribute values
     */
    public HttpPostRequestEncoder(HttpDataFactory factory, HttpRequest request, boolean multipart, Charset charset) {
        this.factory = Objects.requireNonNull(factory, "factory");
        this.request = Objects.requireNonNull(request, "request");
        this.charset = Objects.requireNonNull(charset, "charset");
        this.multipart = multipart;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        this.boundary = "----weir" + Long.toHexString(random.nextLong() | Long.MIN_VALUE)
                + Long.toHexString(random.nextLong() | Long.MIN_VALUE);
    }

    /** Whether the body is multipart. */
    public boolean isMultipart() {
        return multipart;
    }

    /** The items added so far, in order. */
    public List<InterfaceHttpData> getBodyListAttributes() {
        return Collections.unmodifiableList(datas);
    }

    /**
     * Adds a text field, encoded with the encoder's charset.
     *
     * @throws ErrorDataEncoderException after {@link #finalizeRequest()} or if the factory's size limit refuses it
     */
    public void addBodyAttribute(String name, String value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        checkNotFinalized();
        Attribute attribute = factory.createAttribute(request, name);
        try {
            attribute.setCharset(charset);
            attribute.setValue(value);
        } catch (IOException e) {
            factory.removeHttpDataFromClean(request, attribute);
            attribute.release();
            throw new ErrorDataEncoderException("value of '" + name + "': " + e.getMessage(), e);
        }
        datas.add(attribute);
    }

    /** Adds {@code file} under {@code name}, sent with the file's own name. */
    public void addBodyFileUpload(String name, File file, String contentType, boolean isText) {
        addBodyFileUpload(name, file.getName(), file, contentType, isText);
    }

    /**
     * Adds {@code file} under {@code name}; its content is read when the body is written, never before.
     *
     * @param contentType {@code null} for {@code text/plain} if {@code isText}, else
     *        {@code application/octet-stream}
     * @param isText whether to send {@code Content-Transfer-Encoding: 8bit} (text) rather than {@code binary}
     * @throws ErrorDataEncoderException if the body is urlencoded, or after {@link #finalizeRequest()}
     */
    public void addBodyFileUpload(String name, String filename, File file, String contentType, boolean isText) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(filename, "filename");
        Objects.requireNonNull(file, "file");
        checkNotFinalized();
        if (!multipart) {
            throw new ErrorDataEncoderException("file uploads need a multipart body");
        }
        String type = contentType != null ? contentType : isText ? "text/plain" : "application/octet-stream";
        FileUpload upload = factory.createFileUpload(request, name, filename, type, isText ? "8bit" : "binary",
                isText ? charset : null, file.length());
        try {
            upload.setContent(file);
        } catch (IOException e) {
            factory.removeHttpDataFromClean(request, upload);
            upload.release();
            throw new ErrorDataEncoderException("cannot read " + file + ": " + e.getMessage(), e);
        }
        datas.add(upload);
    }

    /** Adds an item made by the caller; it must be an {@link Attribute} or, in multipart, a {@link FileUpload}. */
    public void addBodyHttpData(InterfaceHttpData data) {
        Objects.requireNonNull(data, "data");
        checkNotFinalized();
        if (data instanceof FileUpload && !multipart) {
            throw new ErrorDataEncoderException("file uploads need a multipart body");
        }
        if (!(data instanceof Attribute) && !(data instanceof FileUpload)) {
            throw new ErrorDataEncoderException("unsupported item type: " + data.getClass().getName());
        }
        datas.add(data);
    }

    private void checkNotFinalized() {
        if (finalized) {
            throw new ErrorDataEncoderException("request already finalized");
        }
    }

    /**
     * Sets {@code Content-Type} and {@code Content-Length} (removing any {@code Transfer-Encoding}) and returns the
     * request to write: a {@code FullHttpRequest} carrying the whole body when it is small and has no file on disk,
     * otherwise {@code request} itself, after which this encoder must be written ({@link #isChunked()}).
     *
     * @throws ErrorDataEncoderException if called twice or an item cannot be read
     */
    public HttpRequest finalizeRequest() {
        checkNotFinalized();
        finalized = true;
        try {
            if (multipart) {
                buildMultipart();
            } else {
                buildUrlEncoded();
            }
        } catch (IOException e) {
            throw new ErrorDataEncoderException("cannot encode the body: " + e.getMessage(), e);
        }
        HttpHeaders headers = request.headers();
        headers.remove(HttpHeaderNames.TRANSFER_ENCODING);
        headers.set(HttpHeaderNames.CONTENT_TYPE, multipart
                ? HttpHeaderValues.MULTIPART_FORM_DATA + "; boundary=" + boundary
                : HttpHeaderValues.APPLICATION_X_WWW_FORM_URLENCODED.toString());
        headers.set(HttpHeaderNames.CONTENT_LENGTH, Long.toString(length));
        boolean anyFile = false;
        for (int i = 0; i < segments.size(); i++) {
            anyFile |= segments.get(i).file != null;
        }
        if (anyFile || length > DEFAULT_CHUNK_SIZE_BYTES) {
            chunked = true;
            return request;
        }
        ByteBuf content = Unpooled.buffer((int) length);
        for (int i = 0; i < segments.size(); i++) {
            content.writeBytes(segments.get(i).bytes);
        }
        ended = true;
        progress = length;
        return new DefaultFullHttpRequest(request.protocolVersion(), request.method(), request.uri(), content,
                headers, new DefaultHttpHeaders());
    }

    /** Whether the body must be written after the request by writing this encoder. */
    public boolean isChunked() {
        return chunked;
    }

    private void buildUrlEncoded() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < datas.size(); i++) {
            Attribute attribute = (Attribute) datas.get(i);
            if (i > 0) {
                sb.append('&');
            }
            sb.append(URLEncoder.encode(attribute.getName(), charset)).append('=')
                    .append(URLEncoder.encode(attribute.getValue(), charset));
        }
        add(sb.toString().getBytes(StandardCharsets.US_ASCII));
    }

    private void buildMultipart() throws IOException {
        for (int i = 0; i < datas.size(); i++) {
            InterfaceHttpData data = datas.get(i);
            StringBuilder head = new StringBuilder(128).append("--").append(boundary).append("\r\n")
                    .append("Content-Disposition: form-data; name=\"").append(quote(data.getName())).append('"');
            if (data instanceof FileUpload upload) {
                head.append("; filename=\"").append(quote(upload.getFilename())).append("\"\r\n")
                        .append("Content-Type: ").append(upload.getContentType());
                if (upload.getContentType().startsWith("text/") && !upload.getContentType().contains("charset")) {
                    head.append("; charset=").append(upload.getCharset().name());
                }
                head.append("\r\n");
                if (upload.getContentTransferEncoding() != null) {
                    head.append("Content-Transfer-Encoding: ").append(upload.getContentTransferEncoding())
                            .append("\r\n");
                }
            } else {
                head.append("\r\nContent-Type: text/plain; charset=")
                        .append(((HttpData) data).getCharset().name()).append("\r\n");
            }
            head.append("\r\n");
            add(head.toString().getBytes(StandardCharsets.UTF_8));
            HttpData content = (HttpData) data;
            if (content.isInMemory()) {
                add(content.get());
            } else {
                Path file = content.getFile().toPath();
                segments.add(new Segment(null, file, content.length()));
                length += content.length();
            }
            add(CRLF);
        }
        add(("--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
    }

    /** WHATWG HTML form encoding: quote, CR and LF percent-encoded inside a quoted name. */
    private static String quote(String s) {
        return s.replace("\"", "%22").replace("\r", "%0D").replace("\n", "%0A");
    }

    private void add(byte[] bytes) {
        segments.add(new Segment(bytes, null, bytes.length));
        length += bytes.length;
    }

    @Override
    public boolean isEndOfInput() {
        return ended;
    }

    @Override
    public void close() throws IOException {
        ended = true;
        closeFile();
    }

    private void closeFile() throws IOException {
        if (openFile != null) {
            FileChannel f = openFile;
            openFile = null;
            f.close();
        }
    }

    /**
     * The next chunk of the body, at most {@value #DEFAULT_CHUNK_SIZE_BYTES} bytes; the last one is a
     * {@code LastHttpContent}. {@code null} once ended.
     *
     * @throws IllegalStateException before {@link #finalizeRequest()}
     * @throws IOException if a file cannot be read or got shorter
     */
    @Override
    public HttpContent readChunk(ByteBufAllocator allocator) throws IOException {
        if (!finalized) {
            throw new IllegalStateException("finalizeRequest() not called");
        }
        if (ended) {
            return null;
        }
        int size = (int) Math.min(DEFAULT_CHUNK_SIZE_BYTES, length - progress);
        ByteBuf buf = allocator.buffer(size);
        try {
            while (buf.readableBytes() < size) {
                Segment s = segments.get(segmentIndex);
                int n = (int) Math.min(size - buf.readableBytes(), s.length - segmentOffset);
                if (s.bytes != null) {
                    buf.writeBytes(s.bytes, (int) segmentOffset, n);
                } else {
                    if (openFile == null) {
                        openFile = FileChannel.open(s.file, StandardOpenOption.READ);
                    }
                    int read = buf.writeBytes(openFile, segmentOffset, n);
                    if (read < 0) {
                        throw new IOException(s.file + " got shorter than " + s.length + " bytes");
                    }
                    n = read;
                }
                segmentOffset += n;
                if (segmentOffset == s.length) {
                    closeFile();
                    segmentIndex++;
                    segmentOffset = 0;
                }
            }
        } catch (IOException | RuntimeException e) {
            buf.release();
            throw e;
        }
        progress += size;
        if (progress == length) {
            ended = true;
            return new DefaultLastHttpContent(buf);
        }
        return new DefaultHttpContent(buf);
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public long progress() {
        return progress;
    }

    /** Deletes the content of every item the factory created for this request. */
    public void cleanFiles() {
        factory.cleanRequestHttpData(request);
    }

    /** Misuse of the encoder or an item that cannot be encoded. */
    public static final class ErrorDataEncoderException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** An error described by {@code message}. */
        public ErrorDataEncoderException(String message) {
            super(message);
        }

        /** An error described by {@code message}, caused by {@code cause}. */
        public ErrorDataEncoderException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
