package io.weir.handler.codec.http;

import java.util.Iterator;
import java.util.Map;

/** {@code toString} and equality helpers shared by the default messages. */
final class HttpMessageUtil {
    private static final char NEWLINE = '\n';

    private HttpMessageUtil() {
    }

    static StringBuilder appendRequest(StringBuilder sb, HttpRequest req) {
        appendCommon(sb, req);
        appendInitialLine(sb, req);
        appendHeaders(sb, req.headers());
        return removeLastNewLine(sb);
    }

    static StringBuilder appendResponse(StringBuilder sb, HttpResponse res) {
        appendCommon(sb, res);
        appendInitialLine(sb, res);
        appendHeaders(sb, res.headers());
        return removeLastNewLine(sb);
    }

    static StringBuilder appendFullRequest(StringBuilder sb, FullHttpRequest req) {
        appendFullCommon(sb, req);
        appendInitialLine(sb, req);
        appendHeaders(sb, req.headers());
        appendHeaders(sb, req.trailingHeaders());
        return removeLastNewLine(sb);
    }

    static StringBuilder appendFullResponse(StringBuilder sb, FullHttpResponse res) {
        appendFullCommon(sb, res);
        appendInitialLine(sb, res);
        appendHeaders(sb, res.headers());
        appendHeaders(sb, res.trailingHeaders());
        return removeLastNewLine(sb);
    }

    private static void appendCommon(StringBuilder sb, HttpMessage msg) {
        sb.append(msg.getClass().getSimpleName()).append("(decodeResult: ").append(msg.decoderResult())
                .append(", version: ").append(msg.protocolVersion()).append(')').append(NEWLINE);
    }

    private static void appendFullCommon(StringBuilder sb, FullHttpMessage msg) {
        sb.append(msg.getClass().getSimpleName()).append("(decodeResult: ").append(msg.decoderResult())
                .append(", version: ").append(msg.protocolVersion()).append(", content: ").append(msg.content())
                .append(')').append(NEWLINE);
    }

    private static void appendInitialLine(StringBuilder sb, HttpRequest req) {
        sb.append(req.method()).append(' ').append(req.uri()).append(' ').append(req.protocolVersion())
                .append(NEWLINE);
    }

    private static void appendInitialLine(StringBuilder sb, HttpResponse res) {
        sb.append(res.protocolVersion()).append(' ').append(res.status()).append(NEWLINE);
    }

    static void appendHeaders(StringBuilder sb, HttpHeaders headers) {
        for (Map.Entry<CharSequence, CharSequence> e : headers) {
            sb.append(e.getKey()).append(": ").append(e.getValue()).append(NEWLINE);
        }
    }

    private static StringBuilder removeLastNewLine(StringBuilder sb) {
        if (sb.length() > 0 && sb.charAt(sb.length() - 1) == NEWLINE) {
            sb.setLength(sb.length() - 1);
        }
        return sb;
    }

    /** Same fields in the same order, names compared ignoring case, values exactly. */
    static boolean headersEqual(HttpHeaders a, HttpHeaders b) {
        if (a.size() != b.size()) {
            return false;
        }
        Iterator<Map.Entry<CharSequence, CharSequence>> i = a.iterator();
        Iterator<Map.Entry<CharSequence, CharSequence>> j = b.iterator();
        while (i.hasNext() && j.hasNext()) {
            Map.Entry<CharSequence, CharSequence> x = i.next();
            Map.Entry<CharSequence, CharSequence> y = j.next();
            if (!io.weir.util.AsciiString.contentEqualsIgnoreCase(x.getKey(), y.getKey())
                    || !io.weir.util.AsciiString.contentEquals(x.getValue(), y.getValue())) {
                return false;
            }
        }
        return !i.hasNext() && !j.hasNext();
    }
}
