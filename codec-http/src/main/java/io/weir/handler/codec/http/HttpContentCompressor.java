package io.weir.handler.codec.http;

import io.weir.channel.ChannelHandlerContext;

/**
 * Compresses response bodies with gzip or deflate (zlib), whichever the request's {@code Accept-Encoding}
 * prefers (RFC 9110 §12.5.3, q-values honoured; on a tie gzip wins; {@code *} stands for codings not listed;
 * {@code q=0} refuses a coding). Compression goes through the JDK's {@link java.util.zip.Deflater} on pooled
 * buffers from the channel's allocator, chunk by chunk, each chunk flushed so that streamed responses (server-
 * sent events, long polls) reach the client as they are written.
 *
 * <p>A {@link FullHttpResponse} smaller than the {@linkplain #HttpContentCompressor(int, int) minimum size}
 * ({@value #DEFAULT_MIN_CONTENT_SIZE_BYTES} bytes by default) is sent as it is: below that, the gzip framing
 * and CPU cost outweigh the bytes saved. See {@link HttpContentEncoder} for the responses always left alone.
 *
 * <p>Only called from the channel's event loop; one instance per channel.
 */
public class HttpContentCompressor extends HttpContentEncoder {
    /** zlib's default trade-off between speed and ratio. */
    public static final int DEFAULT_COMPRESSION_LEVEL = 6;
    /** Full responses with fewer content bytes than this are not compressed. */
    public static final int DEFAULT_MIN_CONTENT_SIZE_BYTES = 1024;

    private static final String GZIP = HttpHeaderValues.GZIP.toString();
    private static final String DEFLATE = HttpHeaderValues.DEFLATE.toString();

    private final int compressionLevel;
    private final int minContentSizeBytes;
    /** One zlib state per coding, reused by every response of the channel; null until first needed. */
    private DeflateContentEncoder gzipEncoder;
    private DeflateContentEncoder deflateEncoder;

    /** A compressor at level {@value #DEFAULT_COMPRESSION_LEVEL} skipping bodies under 1 KiB. */
    public HttpContentCompressor() {
        this(DEFAULT_COMPRESSION_LEVEL, DEFAULT_MIN_CONTENT_SIZE_BYTES);
    }

    /**
     * A compressor at {@code compressionLevel} (1 fastest .. 9 smallest) skipping full responses with fewer than
     * {@code minContentSizeBytes} bytes.
     *
     * @throws IllegalArgumentException if the level is not 1..9 or the size negative
     */
    public HttpContentCompressor(int compressionLevel, int minContentSizeBytes) {
        if (compressionLevel < 1 || compressionLevel > 9) {
            throw new IllegalArgumentException("compressionLevel must be 1..9: " + compressionLevel);
        }
        if (minContentSizeBytes < 0) {
            throw new IllegalArgumentException("minContentSizeBytes must not be negative: " + minContentSizeBytes);
        }
        this.compressionLevel = compressionLevel;
        this.minContentSizeBytes = minContentSizeBytes;
    }

    @Override
    protected boolean shouldEncode(FullHttpResponse response) {
        return response.content().readableBytes() >= Math.max(1, minContentSizeBytes);
    }

    @Override
    protected Result beginEncode(HttpResponse response, CharSequence acceptEncoding) {
        String coding = chooseEncoding(acceptEncoding);
        if (coding == null) {
            return null;
        }
        boolean gzip = coding.equals(GZIP);
        DeflateContentEncoder encoder = gzip ? gzipEncoder : deflateEncoder;
        if (encoder == null || !encoder.acquire()) {
            encoder = new DeflateContentEncoder(compressionLevel, gzip);
            encoder.acquire();
            if (gzip) {
                gzipEncoder = encoder;
            } else {
                deflateEncoder = encoder;
            }
        }
        return new Result(coding, encoder);
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
        if (gzipEncoder != null) {
            gzipEncoder.end();
            gzipEncoder = null;
        }
        if (deflateEncoder != null) {
            deflateEncoder.end();
            deflateEncoder = null;
        }
    }

    /**
     * The coding to use for {@code acceptEncoding}: {@code "gzip"}, {@code "deflate"}, or {@code null} for
     * identity (no header, nothing acceptable, or identity preferred over both).
     */
    protected String chooseEncoding(CharSequence acceptEncoding) {
        if (acceptEncoding == null) {
            return null;
        }
        AcceptEncoding parsed = AcceptEncoding.parse(acceptEncoding);
        float gzip = parsed.qualityOf(GZIP, "x-gzip");
        float deflate = parsed.qualityOf(DEFLATE, null);
        // Identity is always acceptable as the fallback, but only wins over a compressed coding when the client
        // named it with a higher weight: "*" speaks for other codings, not for identity's preference.
        float identity = parsed.explicitQualityOf(HttpHeaderValues.IDENTITY.toString());
        float best = Math.max(gzip, deflate);
        if (best <= 0 || best < identity) {
            return null;
        }
        return gzip >= deflate ? GZIP : DEFLATE;
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
