package io.weir.handler.codec.http;

import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.compression.CompressionLibrary;
import io.weir.handler.codec.compression.CompressionOptions;
import io.weir.handler.codec.compression.ContentEncoderCache;

/**
 * Compresses response bodies with brotli, zstd, gzip or deflate (zlib), whichever the request's
 * {@code Accept-Encoding} prefers among the codings this compressor offers (RFC 9110 §12.5.3: q-values honoured;
 * {@code *} stands for codings not listed; {@code q=0} refuses a coding; on a tie {@code br} wins, then
 * {@code zstd}, then {@code gzip}, then {@code deflate}). Compression runs on pooled buffers from the channel's
 * allocator, chunk by chunk, each chunk flushed so that streamed responses (server-sent events, long polls)
 * reach the client as they are written.
 *
 * <p>gzip and deflate go through the JDK's {@link java.util.zip.Deflater}. {@code br} and {@code zstd} need the
 * optional dependencies described in {@link CompressionLibrary}; when one is missing the coding is simply not
 * offered. Which codings are offered, and their levels and windows, is set with {@link CompressionOptions}.
 *
 * <p>A {@link FullHttpResponse} smaller than the minimum size ({@value #DEFAULT_MIN_CONTENT_SIZE_BYTES} bytes by
 * default) is sent as it is: below that, the framing and CPU cost outweigh the bytes saved. See
 * {@link HttpContentEncoder} for the responses always left alone.
 *
 * <p>Native state (zlib and zstd contexts reused across the channel's responses, a brotli encoder per response)
 * is freed when the body ends, fails, or the handler is removed or the channel closes.
 *
 * <p>Only called from the channel's event loop; one instance per channel.
 */
public class HttpContentCompressor extends HttpContentEncoder {
    /** zlib's default trade-off between speed and ratio. */
    public static final int DEFAULT_COMPRESSION_LEVEL = 6;
    /** Full responses with fewer content bytes than this are not compressed. */
    public static final int DEFAULT_MIN_CONTENT_SIZE_BYTES = 1024;

    private static final String GZIP = HttpHeaderValues.GZIP.toString();

    private final int minContentSizeBytes;
    /** The offered codings and one native state per coding, reused by every response of the channel. */
    private final ContentEncoderCache encoders;

    /**
     * A compressor offering every available coding with its defaults (brotli quality 4, zstd level 3, gzip and
     * deflate level {@value #DEFAULT_COMPRESSION_LEVEL}), skipping bodies under 1 KiB.
     */
    public HttpContentCompressor() {
        this(DEFAULT_COMPRESSION_LEVEL, DEFAULT_MIN_CONTENT_SIZE_BYTES);
    }

    /**
     * A compressor offering every available coding, gzip and deflate at {@code compressionLevel} (1 fastest .. 9
     * smallest), brotli and zstd at their defaults, skipping full responses with fewer than
     * {@code minContentSizeBytes} bytes.
     *
     * @throws IllegalArgumentException if the level is not 1..9 or the size negative
     */
    public HttpContentCompressor(int compressionLevel, int minContentSizeBytes) {
        this(minContentSizeBytes, CompressionOptions.brotli(), CompressionOptions.zstd(),
                CompressionOptions.gzip(compressionLevel), CompressionOptions.deflate(compressionLevel));
    }

    /**
     * A compressor offering exactly the codings in {@code options} (each at most once) whose library is available,
     * or every available coding with its defaults when {@code options} is empty; full responses with fewer than
     * {@code minContentSizeBytes} bytes are not compressed.
     *
     * @throws IllegalArgumentException if the size is negative or a coding is given twice
     * @throws NullPointerException if an option is null
     */
    public HttpContentCompressor(int minContentSizeBytes, CompressionOptions... options) {
        if (minContentSizeBytes < 0) {
            throw new IllegalArgumentException("minContentSizeBytes must not be negative: " + minContentSizeBytes);
        }
        this.minContentSizeBytes = minContentSizeBytes;
        this.encoders = new ContentEncoderCache(options);
    }

    /** Whether this compressor offers {@code contentCoding} ({@code br}, {@code zstd}, {@code gzip}, {@code deflate}). */
    public boolean offers(String contentCoding) {
        return encoders.offers(contentCoding);
    }

    @Override
    protected boolean shouldEncode(FullHttpResponse response) {
        return response.content().readableBytes() >= Math.max(1, minContentSizeBytes);
    }

    @Override
    protected Result beginEncode(HttpResponse response, CharSequence acceptEncoding) {
        String coding = chooseEncoding(acceptEncoding);
        if (coding == null || !offers(coding)) {
            return null;
        }
        long knownLength = response instanceof FullHttpResponse full ? full.content().readableBytes() : -1;
        return new Result(coding, encoders.acquire(coding, knownLength));
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        super.handlerRemoved(ctx);
        endEncoders();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        super.channelInactive(ctx);
        endEncoders();
    }

    private void endEncoders() {
        encoders.end();
    }

    /**
     * The coding to use for {@code acceptEncoding} among those this compressor {@linkplain #offers offers}:
     * {@code "br"}, {@code "zstd"}, {@code "gzip"}, {@code "deflate"}, or {@code null} for identity (no header,
     * nothing acceptable, or identity preferred over all). A subclass may override it; a coding it returns that
     * is not offered means identity.
     */
    protected String chooseEncoding(CharSequence acceptEncoding) {
        if (acceptEncoding == null) {
            return null;
        }
        AcceptEncoding parsed = AcceptEncoding.parse(acceptEncoding);
        // Preference order on equal q: br, zstd, gzip, deflate; a strictly higher q is needed to displace one.
        String best = null;
        float bestQ = 0;
        for (String coding : ContentEncoderCache.CODINGS_BY_PREFERENCE) {
            if (offers(coding)) {
                float q = parsed.qualityOf(coding, coding.equals(GZIP) ? "x-gzip" : null);
                if (q > bestQ) {
                    best = coding;
                    bestQ = q;
                }
            }
        }
        // Identity is always acceptable as the fallback, but only wins over a compressed coding when the client
        // named it with a higher weight: "*" speaks for other codings, not for identity's preference.
        float identity = parsed.explicitQualityOf(HttpHeaderValues.IDENTITY.toString());
        if (best == null || bestQ < identity) {
            return null;
        }
        return best;
    }

    /** The q-values of one Accept-Encoding header; -1 means "not mentioned". */
    static final class AcceptEncoding {
        private final String[] codings;
        private final float[] qualities;
        private final int count;
        final float star;

        private AcceptEncoding(String[] codings, float[] qualities, int count, float star) {
            this.codings = codings;
            this.qualities = qualities;
            this.count = count;
            this.star = star;
        }

        static AcceptEncoding parse(CharSequence header) {
            String h = header.toString();
            int max = 1;
            for (int i = 0; i < h.length(); i++) {
                if (h.charAt(i) == ',') {
                    max++;
                }
            }
            String[] codings = new String[max];
            float[] qualities = new float[max];
            int count = 0;
            float star = -1;
            int start = 0;
            while (start <= h.length()) {
                int comma = h.indexOf(',', start);
                int end = comma < 0 ? h.length() : comma;
                int semi = h.indexOf(';', start);
                int nameEnd = semi >= 0 && semi < end ? semi : end;
                String name = h.substring(start, nameEnd).trim();
                float q = nameEnd < end ? parseQuality(h, nameEnd + 1, end) : 1f;
                if (name.equals("*")) {
                    star = Math.max(star, q);
                } else if (!name.isEmpty()) {
                    codings[count] = name;
                    qualities[count] = q;
                    count++;
                }
                start = end + 1;
            }
            return new AcceptEncoding(codings, qualities, count, star);
        }

        /** The highest q given to {@code name} or {@code alias}, else the "*" q, else -1. */
        float qualityOf(String name, String alias) {
            float q = -1;
            for (int i = 0; i < count; i++) {
                String c = codings[i];
                if (c.equalsIgnoreCase(name) || alias != null && c.equalsIgnoreCase(alias)) {
                    q = Math.max(q, qualities[i]);
                }
            }
            return q >= 0 ? q : star;
        }

        /** The highest q given to {@code name} itself, or 0 if it is not listed. */
        float explicitQualityOf(String name) {
            float q = 0;
            for (int i = 0; i < count; i++) {
                if (codings[i].equalsIgnoreCase(name)) {
                    q = Math.max(q, qualities[i]);
                }
            }
            return q;
        }

        /** Parses {@code q=0.8} among the parameters in {@code h[from, to)}; malformed weights count as 0. */
        private static float parseQuality(String h, int from, int to) {
            int i = from;
            while (i < to) {
                int semi = h.indexOf(';', i);
                int end = semi < 0 || semi > to ? to : semi;
                String param = h.substring(i, end).trim();
                if (param.length() >= 2 && (param.charAt(0) == 'q' || param.charAt(0) == 'Q')) {
                    int eq = param.indexOf('=');
                    if (eq > 0 && param.substring(1, eq).isBlank()) {
                        return weight(param.substring(eq + 1).trim());
                    }
                }
                i = end + 1;
            }
            return 1f;
        }

        /** RFC 9110 §12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ). */
        private static float weight(String v) {
            int n = v.length();
            if (n == 0 || n > 5 || (v.charAt(0) != '0' && v.charAt(0) != '1')) {
                return 0f;
            }
            if (n > 1 && v.charAt(1) != '.') {
                return 0f;
            }
            int frac = 0;
            int scale = 1000;
            for (int i = 2; i < n; i++) {
                char c = v.charAt(i);
                if (c < '0' || c > '9') {
                    return 0f;
                }
                scale /= 10;
                frac += (c - '0') * scale;
            }
            if (v.charAt(0) == '1') {
                return frac == 0 ? 1f : 0f;
            }
            return frac / 1000f;
        }
    }
}
