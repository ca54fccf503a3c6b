package io.weir.handler.codec.http.multipart;

import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.ErrorDataDecoderException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A header value of the form {@code value; name=token; name="quoted"} (RFC 9110 §5.6.6), as used by
 * {@code Content-Type} and {@code Content-Disposition}. Parameter names are lower-cased; the first occurrence of
 * a name wins. Immutable.
 */
final class HeaderParams {
    final String value;
    private final Map<String, String> params;

    private HeaderParams(String value, Map<String, String> params) {
        this.value = value;
        this.params = params;
    }

    String get(String name) {
        return params.get(name);
    }

    /**
     * Parses {@code header}.
     *
     * @throws ErrorDataDecoderException on an unterminated quoted string or a parameter without a name
     */
    static HeaderParams parse(String header) {
        int len = header.length();
        int semi = header.indexOf(';');
        String value = (semi < 0 ? header : header.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
        Map<String, String> params = new HashMap<>(4);
        int i = semi < 0 ? len : semi + 1;
        while (i < len) {
            while (i < len && (header.charAt(i) == ' ' || header.charAt(i) == '\t' || header.charAt(i) == ';')) {
                i++;
            }
            if (i >= len) {
                break;
            }
            int eq = i;
            while (eq < len && header.charAt(eq) != '=' && header.charAt(eq) != ';') {
                eq++;
            }
            String name = header.substring(i, eq).trim().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                throw new ErrorDataDecoderException("parameter without a name in '" + header + "'");
            }
            if (eq >= len || header.charAt(eq) == ';') {
                params.putIfAbsent(name, "");
                i = eq;
                continue;
            }
            int v = eq + 1;
            while (v < len && (header.charAt(v) == ' ' || header.charAt(v) == '\t')) {
                v++;
            }
            String paramValue;
            if (v < len && header.charAt(v) == '"') {
                StringBuilder sb = new StringBuilder();
                int j = v + 1;
                boolean closed = false;
                while (j < len) {
                    char c = header.charAt(j);
                    if (c == '"') {
                        closed = true;
                        break;
                    }
                    // Browsers percent-encode quotes in file names rather than escaping them, and old ones send
                    // Windows paths raw: a backslash only escapes a quote or another backslash.
                    if (c == '\\' && j + 1 < len && (header.charAt(j + 1) == '"' || header.charAt(j + 1) == '\\')) {
                        j++;
                        c = header.charAt(j);
                    }
                    sb.append(c);
                    j++;
                }
                if (!closed) {
                    throw new ErrorDataDecoderException("unterminated quoted string in '" + header + "'");
                }
                paramValue = sb.toString();
                i = j + 1;
                while (i < len && header.charAt(i) != ';') {
                    i++;
                }
            } else {
                int end = header.indexOf(';', v);
                if (end < 0) {
                    end = len;
                }
                paramValue = header.substring(v, end).trim();
                i = end;
            }
            params.putIfAbsent(name, paramValue);
        }
        return new HeaderParams(value, params);
    }

    /**
     * Decodes an RFC 8187 ext-value ({@code charset'language'percent-encoded}), as in {@code filename*}; {@code null}
     * if it is malformed or its charset is unknown, so the caller falls back to the plain parameter.
     */
    static String decodeExtValue(String extValue) {
        int q1 = extValue.indexOf('\'');
        int q2 = q1 < 0 ? -1 : extValue.indexOf('\'', q1 + 1);
        if (q2 < 0) {
            return null;
        }
        Charset cs;
        try {
            cs = Charset.forName(extValue.substring(0, q1));
        } catch (IllegalArgumentException e) {
            return null;
        }
        byte[] out = new byte[extValue.length()];
        int n = 0;
        for (int i = q2 + 1; i < extValue.length(); i++) {
            char c = extValue.charAt(i);
            if (c == '%') {
                if (i + 2 >= extValue.length()) {
                    return null;
                }
                int hi = Character.digit(extValue.charAt(i + 1), 16);
                int lo = Character.digit(extValue.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else if (c < 0x80) {
                out[n++] = (byte) c;
            } else {
                return null;
            }
        }
        return new String(out, 0, n, cs);
    }

    /** {@code filename} without any directory part, and never {@code "."} or {@code ".."}. */
    static String stripPath(String filename) {
        int cut = Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\'));
        String leaf = cut < 0 ? filename : filename.substring(cut + 1);
        StringBuilder sb = null;
        for (int i = 0; i < leaf.length(); i++) {
            char c = leaf.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                if (sb == null) {
                    sb = new StringBuilder(leaf.substring(0, i));
                }
            } else if (sb != null) {
                sb.append(c);
            }
        }
        if (sb != null) {
            leaf = sb.toString();
        }
        return leaf.equals(".") || leaf.equals("..") ? "" : leaf;
    }

    /** The charset named by a {@code charset} parameter, or {@code defaultCharset} if absent. */
    static Charset charset(HeaderParams params, Charset defaultCharset) {
        String name = params == null ? null : params.get("charset");
        if (name == null || name.isEmpty()) {
            return defaultCharset;
        }
        try {
            return Charset.forName(name);
        } catch (IllegalArgumentException e) {
            throw new ErrorDataDecoderException("unsupported charset '" + name + "'", e);
        }
    }

    static final Charset HEADER_CHARSET = StandardCharsets.UTF_8;
}
