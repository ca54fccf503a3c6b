package io.weir.server;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.DefaultFileRegion;
import io.weir.handler.codec.http.DateFormatter;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.DefaultHttpResponse;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpChunkedInput;
import io.weir.handler.codec.http.HttpContent;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaderValues;
import io.weir.handler.codec.http.HttpHeaders;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpResponse;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.handler.stream.ChunkedNioFile;
import io.weir.handler.codec.http2.Http2StreamChannel;
import io.weir.handler.codec.http2.HttpServerInitializer;
import io.weir.handler.stream.ChunkedWriteHandler;
import io.weir.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Serves {@code GET} and {@code HEAD /static/<path>} from a root directory, streaming: it sits before the
 * aggregator, answers {@code /static} requests itself (dropping their request bodies) and passes every other
 * request, with its content, on unchanged.
 *
 * <h2>Path resolution</h2>
 * The path is resolved so that it can never name anything outside the root:
 * <ol>
 *   <li>each segment between {@code /} is strictly percent-decoded (an invalid escape or invalid UTF-8 is a
 *       {@code 400}, so is a NUL or another control character);</li>
 *   <li>a backslash, an empty segment (so {@code //etc/passwd}), a {@code .} or {@code ..} segment (before or
 *       after decoding), an encoded {@code /} ({@code %2f}) and a segment starting with a dot (hidden files) are
 *       refused with {@code 403}, decided from the text alone before the file system is touched;</li>
 *   <li>the file is then resolved with {@link Path#toRealPath} (symbolic links followed) and must still be inside
 *       the root's real path and not hidden there; a file outside (a symlink pointing out), a missing file, a
 *       directory and anything but a regular file all get the same {@code 404}, so nothing tells an outside file
 *       from a missing one. Directories are 404 because there is no listing and no index file.</li>
 * </ol>
 * The root itself is trusted: someone who can swap a directory inside it for a symlink between the check and
 * the open could still redirect a request (the final component is opened with {@code NOFOLLOW_LINKS}).
 *
 * <h2>Responses</h2>
 * <ul>
 *   <li>Body: a {@link DefaultFileRegion} (sendfile, zero copy) unless the pipeline has a handler named
 *       {@value #SSL_HANDLER_NAME}, which needs the bytes in buffers; then an {@link HttpChunkedInput} over a
 *       {@link ChunkedNioFile} through a {@link ChunkedWriteHandler} (added on first use). The file is closed
 *       when the region or input is released, which the transport does after the write, on failure and on
 *       close.</li>
 *   <li>Validators: a strong {@code ETag} {@code "<mtime ms hex>-<size hex>"} (strong, so it may be used for
 *       {@code If-Range}; a rewrite of the same size within one millisecond would go unnoticed, as with most
 *       servers), {@code Last-Modified}, {@code Cache-Control: public, max-age=3600}. {@code If-None-Match}
 *       (weak comparison, {@code *} matches) or else {@code If-Modified-Since} answer {@code 304}.</li>
 *   <li>Ranges (GET only, RFC 9110 §14): one {@code bytes=a-b}, {@code a-} or {@code -n} range gives {@code 206}
 *       with {@code Content-Range}; a range starting past the end gives {@code 416} with
 *       {@code Content-Range: bytes *}{@code /size}; several ranges, or a range that does not parse, are ignored
 *       and the whole file is sent with {@code 200} (no multipart/byteranges). {@code If-Range} with a stale ETag
 *       or date also sends the whole file.</li>
 *   <li>{@code Content-Type} from the extension (a small table, {@code application/octet-stream} otherwise);
 *       {@code HEAD} sends the same headers and no body. Other methods get {@code 405}.</li>
 * </ul>
 * Keep-alive is left to {@code HttpServerKeepAliveHandler}. One instance per connection (it remembers whether
 * the request being read is its own); event loop only.
 */
public final class StaticFileHandler implements ChannelHandler {
    /** The URI prefix this handler answers. */
    public static final String PREFIX = "/static/";
    /** Name of a TLS handler in the pipeline: when present, file bodies are copied into buffers (no sendfile). */
    public static final String SSL_HANDLER_NAME = HttpServerInitializer.SSL_HANDLER_NAME;
    /** How long clients may cache a file without revalidating. */
    static final int CACHE_MAX_AGE_SECONDS = 3600;
    /** Chunk size when a file is copied through buffers (TLS). */
    static final int CHUNK_SIZE_BYTES = 16 * 1024;
    private static final String CACHE_CONTROL_VALUE = "public, max-age=" + CACHE_MAX_AGE_SECONDS;
    private static final int MAX_RANGE_NUMBER_DIGITS = 18;
    private static final String OCTET_STREAM = "application/octet-stream";
    private static final Map<String, String> CONTENT_TYPES = Map.ofEntries(
            Map.entry("html", "text/html; charset=utf-8"),
            Map.entry("htm", "text/html; charset=utf-8"),
            Map.entry("css", "text/css; charset=utf-8"),
            Map.entry("js", "text/javascript; charset=utf-8"),
            Map.entry("json", "application/json"),
            Map.entry("txt", "text/plain; charset=utf-8"),
            Map.entry("png", "image/png"),
            Map.entry("jpg", "image/jpeg"),
            Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("wasm", "application/wasm"),
            Map.entry("pdf", "application/pdf"));

    private final Path realRoot;
    /** Whether the request being read is one this handler answered, so its content is dropped here. */
    private boolean dropping;

    /**
     * A handler serving files under {@code root}, or answering {@code 404} to every {@code /static} request when
     * {@code root} is null.
     *
     * @throws IllegalArgumentException if {@code root} is not an existing directory
     */
    public StaticFileHandler(Path root) {
        this(root == null ? null : realDirectory(root), null);
    }

    /** A handler over {@code realRoot}, already resolved by {@link #realDirectory} (the marker only tells apart). */
    private StaticFileHandler(Path realRoot, Void resolved) {
        this.realRoot = realRoot;
    }

    /** The real path of {@code root}, checked to be a directory. */
    static Path realDirectory(Path root) {
        try {
            Path real = root.toRealPath();
            if (!Files.isDirectory(real)) {
                throw new IllegalArgumentException("static root: " + root + " (expected: a directory)");
            }
            return real;
        } catch (IOException e) {
            throw new IllegalArgumentException("static root: " + root + " (" + e + ')', e);
        }
    }

    /** A handler for one more connection over the same, already resolved root. */
    StaticFileHandler newConnectionHandler() {
        return new StaticFileHandler(realRoot, null);
    }

    /** Whether {@code uri} is answered by this handler: {@code /static} or anything under {@code /static/}. */
    static boolean matches(String uri) {
        return uri.startsWith(PREFIX) || uri.equals("/static") || uri.startsWith("/static?");
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request) {
            if (!matches(request.uri())) {
                dropping = false;
                ctx.fireChannelRead(msg);
                return;
            }
            dropping = !(msg instanceof LastHttpContent);
            try {
                serve(ctx, request);
            } finally {
                ReferenceCountUtil.release(msg);
            }
        } else if (dropping && msg instanceof HttpContent) {
            dropping = !(msg instanceof LastHttpContent);
            ReferenceCountUtil.release(msg);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void serve(ChannelHandlerContext ctx, HttpRequest request) {
        HttpMethod method = request.method();
        boolean head = method.equals(HttpMethod.HEAD);
        if (!head && !method.equals(HttpMethod.GET)) {
            FullHttpResponse response = text(HttpResponseStatus.METHOD_NOT_ALLOWED);
            response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            ctx.writeAndFlush(response);
            return;
        }
        Resolution resolved = resolve(request.uri());
        if (resolved.status != null) {
            ctx.writeAndFlush(text(resolved.status));
            return;
        }
        FileChannel file;
        long size;
        long modifiedMillis;
        try {
            // The real path has no links left; NOFOLLOW_LINKS keeps a last-moment swap of the final name out.
            file = FileChannel.open(resolved.path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException e) {
            ctx.writeAndFlush(text(HttpResponseStatus.NOT_FOUND));
            return;
        }
        boolean handedOver = false;
        try {
            size = file.size();
            modifiedMillis = Files.getLastModifiedTime(resolved.path, LinkOption.NOFOLLOW_LINKS).toMillis();
            handedOver = respond(ctx, request, head, file, size, modifiedMillis, resolved.path);
        } catch (IOException e) {
            ctx.writeAndFlush(text(HttpResponseStatus.NOT_FOUND));
        } finally {
            if (!handedOver) {
                closeQuietly(file);
            }
        }
    }

    /** Writes the response; returns whether {@code file} was handed to the transport (which then closes it). */
    private static boolean respond(ChannelHandlerContext ctx, HttpRequest request, boolean head, FileChannel file,
                                   long size, long modifiedMillis, Path path) {
        HttpHeaders requestHeaders = request.headers();
        String etag = '"' + Long.toHexString(modifiedMillis) + '-' + Long.toHexString(size) + '"';
        String lastModified = DateFormatter.format(modifiedMillis);
        if (notModified(requestHeaders, etag, modifiedMillis)) {
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.NOT_MODIFIED, Unpooled.EMPTY_BUFFER);
            setValidators(response.headers(), etag, lastModified);
            ctx.writeAndFlush(response);
            return false;
        }
        long start = 0;
        long length = size;
        HttpResponseStatus status = HttpResponseStatus.OK;
        String range = head ? null : requestHeaders.get(HttpHeaderNames.RANGE);
        if (range != null && ifRangeHolds(requestHeaders.get(HttpHeaderNames.IF_RANGE), etag, modifiedMillis)) {
            long[] span = parseRange(range, size);
            if (span == UNSATISFIABLE) {
                FullHttpResponse response = text(HttpResponseStatus.REQUESTED_RANGE_NOT_SATISFIABLE);
                response.headers().set(HttpHeaderNames.CONTENT_RANGE, "bytes */" + size);
                setValidators(response.headers(), etag, lastModified);
                ctx.writeAndFlush(response);
                return false;
            }
            if (span != null) {
                start = span[0];
                length = span[1] - span[0] + 1;
                status = HttpResponseStatus.PARTIAL_CONTENT;
            }
        }
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
        HttpHeaders headers = response.headers();
        headers.set(HttpHeaderNames.CONTENT_TYPE, contentType(path.getFileName().toString()));
        headers.set(HttpHeaderNames.ACCEPT_RANGES, HttpHeaderValues.BYTES);
        setValidators(headers, etag, lastModified);
        if (status == HttpResponseStatus.PARTIAL_CONTENT) {
            headers.set(HttpHeaderNames.CONTENT_RANGE, "bytes " + start + '-' + (start + length - 1) + '/' + size);
        }
        HttpUtil.setContentLength(response, length);
        ctx.write(response);
        if (head || length == 0) {
            ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
            return false;
        }
        if (needsBuffers(ctx.pipeline())) {
            if (ctx.pipeline().get(ChunkedWriteHandler.class) == null) {
                // Only TLS connections need it; adding it here keeps it off the plain (benchmarked) path.
                ctx.pipeline().addBefore(ctx.name(), "chunked-writer", new ChunkedWriteHandler());
            }
            ctx.writeAndFlush(new HttpChunkedInput(new ChunkedNioFile(file, start, length, CHUNK_SIZE_BYTES)));
        } else {
            ctx.write(new DefaultFileRegion(file, start, length));
            ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
        }
        return true;
    }

    /**
     * Whether file bytes must pass through buffers: a TLS handler encrypts {@code ByteBuf}s and cannot take a
     * {@code FileRegion}, whose bytes the kernel copies straight to the socket, and an HTTP/2 stream frames them.
     * Otherwise, sendfile it is.
     */
    static boolean needsBuffers(ChannelPipeline pipeline) {
        // An HTTP/2 stream carries bytes in DATA frames: no sendfile either.
        return pipeline.get(SSL_HANDLER_NAME) != null || pipeline.channel() instanceof Http2StreamChannel;
    }

    private static void setValidators(HttpHeaders headers, String etag, String lastModified) {
        headers.set(HttpHeaderNames.ETAG, etag);
        headers.set(HttpHeaderNames.LAST_MODIFIED, lastModified);
        headers.set(HttpHeaderNames.CACHE_CONTROL, CACHE_CONTROL_VALUE);
    }

    /** RFC 9110 §13.1.2 and §13.1.3: If-None-Match wins; If-Modified-Since only when it is absent. */
    static boolean notModified(HttpHeaders headers, String etag, long modifiedMillis) {
        String ifNoneMatch = headers.get(HttpHeaderNames.IF_NONE_MATCH);
        if (ifNoneMatch != null) {
            return etagListMatches(ifNoneMatch, etag);
        }
        String ifModifiedSince = headers.get(HttpHeaderNames.IF_MODIFIED_SINCE);
        if (ifModifiedSince == null) {
            return false;
        }
        long since = DateFormatter.parseMillis(ifModifiedSince);
        // HTTP dates have whole seconds: compare at that precision or a file would never look unmodified.
        return since != DateFormatter.INVALID_DATE && modifiedMillis / 1000 <= since / 1000;
    }

    /** Weak comparison (RFC 9110 §8.8.3.2) of {@code etag} with each entry of an If-None-Match list. */
    private static boolean etagListMatches(String list, String etag) {
        int i = 0;
        int n = list.length();
        while (i < n) {
            int comma = list.indexOf(',', i);
            int end = comma < 0 ? n : comma;
            String candidate = list.substring(i, end).trim();
            if (candidate.equals("*")) {
                return true;
            }
            if (candidate.startsWith("W/")) {
                candidate = candidate.substring(2);
            }
            if (candidate.equals(etag)) {
                return true;
            }
            i = end + 1;
        }
        return false;
    }

    /** RFC 9110 §13.1.5: a Range applies only if If-Range is absent or still names this representation. */
    private static boolean ifRangeHolds(String ifRange, String etag, long modifiedMillis) {
        if (ifRange == null) {
            return true;
        }
        String value = ifRange.trim();
        if (value.startsWith("\"") || value.startsWith("W/")) {
            // Strong comparison: a weak tag never matches.
            return value.equals(etag);
        }
        long date = DateFormatter.parseMillis(value);
        return date != DateFormatter.INVALID_DATE && date / 1000 == modifiedMillis / 1000;
    }

    /** Marker returned by {@link #parseRange} for a range that cannot be served. */
    static final long[] UNSATISFIABLE = new long[0];

    /**
     * The first and last byte (inclusive) of a single byte range (RFC 9110 §14.1.2), {@link #UNSATISFIABLE}, or
     * null when the header is to be ignored (not bytes, several ranges, not parseable).
     */
    static long[] parseRange(String header, long size) {
        String value = header.trim();
        if (value.length() < 6 || !value.regionMatches(true, 0, "bytes=", 0, 6)) {
            return null;
        }
        String spec = value.substring(6).trim();
        if (spec.indexOf(',') >= 0) {
            return null;
        }
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return null;
        }
        String first = spec.substring(0, dash).trim();
        String last = spec.substring(dash + 1).trim();
        if (first.isEmpty()) {
            long suffix = parseDigits(last);
            if (suffix < 0) {
                return null;
            }
            if (suffix == 0 || size == 0) {
                return UNSATISFIABLE;
            }
            return new long[] {Math.max(0, size - suffix), size - 1};
        }
        long start = parseDigits(first);
        if (start < 0) {
            return null;
        }
        long end;
        if (last.isEmpty()) {
            end = size - 1;
        } else {
            end = parseDigits(last);
            if (end < 0 || end < start) {
                return null;
            }
            end = Math.min(end, size - 1);
        }
        if (start >= size) {
            return UNSATISFIABLE;
        }
        return new long[] {start, end};
    }

    /** A non-negative decimal number, or -1 if {@code s} is empty, has a non-digit or is too long. */
    private static long parseDigits(String s) {
        if (s.isEmpty() || s.length() > MAX_RANGE_NUMBER_DIGITS) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    static String contentType(String fileName) {
        int dot = fileName.lastIndexOf('.');
        if (dot < 0) {
            return OCTET_STREAM;
        }
        return CONTENT_TYPES.getOrDefault(fileName.substring(dot + 1).toLowerCase(Locale.ROOT), OCTET_STREAM);
    }

    /** The file a URI names, or the status refusing it. */
    record Resolution(Path path, HttpResponseStatus status) {
        static Resolution refused(HttpResponseStatus status) {
            return new Resolution(null, status);
        }
    }

    /** Resolves {@code uri} (which {@linkplain #matches matches}) to a regular file inside the root; see the class doc. */
    Resolution resolve(String uri) {
        if (realRoot == null) {
            return Resolution.refused(HttpResponseStatus.NOT_FOUND);
        }
        int end = uri.length();
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        if (end < PREFIX.length()) {
            return Resolution.refused(HttpResponseStatus.NOT_FOUND);
        }
        String raw = uri.substring(PREFIX.length(), end);
        if (raw.isEmpty()) {
            return Resolution.refused(HttpResponseStatus.NOT_FOUND);
        }
        if (raw.indexOf('\\') >= 0) {
            return Resolution.refused(HttpResponseStatus.FORBIDDEN);
        }
        Path candidate = realRoot;
        int from = 0;
        while (from <= raw.length()) {
            int slash = raw.indexOf('/', from);
            int to = slash < 0 ? raw.length() : slash;
            String rawSegment = raw.substring(from, to);
            if (rawSegment.isEmpty() || rawSegment.charAt(0) == '.') {
                // Empty: "//" (an absolute path after the prefix) or a trailing "/"; dot: ".", "..", hidden.
                return Resolution.refused(HttpResponseStatus.FORBIDDEN);
            }
            String segment = percentDecode(rawSegment);
            if (segment == null) {
                return Resolution.refused(HttpResponseStatus.BAD_REQUEST);
            }
            HttpResponseStatus refusal = checkDecodedSegment(segment);
            if (refusal != null) {
                return Resolution.refused(refusal);
            }
            candidate = candidate.resolve(segment);
            from = to + 1;
        }
        if (!candidate.normalize().startsWith(realRoot)) {
            return Resolution.refused(HttpResponseStatus.FORBIDDEN);
        }
        Path real;
        BasicFileAttributes attributes;
        try {
            real = candidate.toRealPath();
            attributes = Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | SecurityException e) {
            return Resolution.refused(HttpResponseStatus.NOT_FOUND);
        }
        if (!real.startsWith(realRoot) || !attributes.isRegularFile() || hasHiddenPart(realRoot.relativize(real))) {
            // Same answer as a missing file: nothing reveals what exists outside the root.
            return Resolution.refused(HttpResponseStatus.NOT_FOUND);
        }
        return new Resolution(real, null);
    }

    private static HttpResponseStatus checkDecodedSegment(String segment) {
        if (segment.isEmpty()) {
            return HttpResponseStatus.FORBIDDEN;
        }
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return HttpResponseStatus.BAD_REQUEST;
            }
        }
        if (segment.charAt(0) == '.' || segment.indexOf('/') >= 0 || segment.indexOf('\\') >= 0) {
            return HttpResponseStatus.FORBIDDEN;
        }
        return null;
    }

    private static boolean hasHiddenPart(Path relative) {
        for (int i = 0; i < relative.getNameCount(); i++) {
            String name = relative.getName(i).toString();
            if (name.isEmpty() || name.charAt(0) == '.') {
                return true;
            }
        }
        return false;
    }

    /**
     * RFC 3986 §2.1 percent-decoding of one path segment as UTF-8; null if an escape is not {@code %} and two hex
     * digits or the bytes are not valid UTF-8. {@code +} stays a plus: it means space only in query strings.
     */
    static String percentDecode(String segment) {
        if (segment.indexOf('%') < 0) {
            return segment;
        }
        byte[] bytes = new byte[segment.length()];
        int n = 0;
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '%') {
                if (i + 2 >= segment.length()) {
                    return null;
                }
                int hi = Character.digit(segment.charAt(i + 1), 16);
                int lo = Character.digit(segment.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                bytes[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else if (c >= 0x80) {
                // The request line is ISO-8859-1; a raw non-ASCII byte in a path is not a valid URI.
                return null;
            } else {
                bytes[n++] = (byte) c;
            }
        }
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, n));
            return chars.toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static FullHttpResponse text(HttpResponseStatus status) {
        byte[] body = (status.code() + " " + status.reasonPhrase() + "\n").getBytes(StandardCharsets.US_ASCII);
        ByteBuf content = Unpooled.wrappedBuffer(body);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN);
        HttpUtil.setContentLength(response, body.length);
        return response;
    }

    private static void closeQuietly(FileChannel file) {
        try {
            file.close();
        } catch (IOException ignored) {
            // Nothing was written from it; a failing close of a read-only file loses nothing.
        }
    }
}
