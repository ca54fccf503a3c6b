package io.weir.handler.codec.http.websocketx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code Sec-WebSocket-Extensions} (RFC 6455 §9.1): a comma-separated list of extensions, each a token
 * followed by {@code ; name[=value]} parameters, values tokens or quoted strings. A malformed element yields
 * null for the whole header.
 */
final class WebSocketExtensionParameters {
    /** One extension of the list: its name and its parameters (a null value for a bare parameter). */
    record Extension(String name, Map<String, String> params, boolean duplicateParam) {
    }

    /** Largest header value parsed; longer ones are refused as malformed. */
    static final int MAX_HEADER_CHARS = 4096;

    private WebSocketExtensionParameters() {
    }

    /** The extensions of every value of the header, in order, or null if one is malformed. */
    static List<Extension> parse(List<String> values) {
        List<Extension> out = new ArrayList<>();
        for (String v : values) {
            if (v.length() > MAX_HEADER_CHARS || !parse(v, out)) {
                return null;
            }
        }
        return out;
    }

    private static boolean parse(String s, List<Extension> out) {
        int i = 0;
        int n = s.length();
        while (i < n) {
            i = skipOws(s, i);
            if (i < n && s.charAt(i) == ',') {
                i++;
                continue;
            }
            if (i >= n) {
                break;
            }
            int start = i;
            while (i < n && isTokenChar(s.charAt(i))) {
                i++;
            }
            if (i == start) {
                return false;
            }
            String name = s.substring(start, i);
            Map<String, String> params = new LinkedHashMap<>();
            boolean dup = false;
            i = skipOws(s, i);
            while (i < n && s.charAt(i) == ';') {
                i = skipOws(s, i + 1);
                int ps = i;
                while (i < n && isTokenChar(s.charAt(i))) {
                    i++;
                }
                if (i == ps) {
                    return false;
                }
                String pname = s.substring(ps, i);
                String value = null;
                i = skipOws(s, i);
                if (i < n && s.charAt(i) == '=') {
                    i = skipOws(s, i + 1);
                    if (i < n && s.charAt(i) == '"') {
                        int vs = ++i;
                        while (i < n && s.charAt(i) != '"') {
                            i++;
                        }
                        if (i >= n) {
                            return false;
                        }
                        value = s.substring(vs, i++);
                    } else {
                        int vs = i;
                        while (i < n && isTokenChar(s.charAt(i))) {
                            i++;
                        }
                        if (i == vs) {
                            return false;
                        }
                        value = s.substring(vs, i);
                    }
                    i = skipOws(s, i);
                }
                if (params.containsKey(pname)) {
                    dup = true;
                }
                params.put(pname, value);
            }
            if (i < n && s.charAt(i) != ',') {
                return false;
            }
            out.add(new Extension(name, params, dup));
        }
        return true;
    }

    private static int skipOws(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    private static boolean isTokenChar(char c) {
        return c > 0x20 && c < 0x7F && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }
}
