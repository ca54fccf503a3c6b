package io.weir.handler.codec.http2;

import io.weir.util.AsciiString;

/**
 * Decides which header fields the HPACK encoder sends as "never indexed" literals (RFC 7541 §6.2.3, §7.1.3): they
 * never enter either peer's dynamic table and intermediaries must not index them either, so an attacker who can
 * inject headers into the same connection cannot probe their value through compression (CRIME-style attacks).
 *
 * <p>Called on the event loop for every field encoded; implementations must be fast, allocation-free and
 * thread-safe. Names arrive in lower case.
 */
@FunctionalInterface
public interface Http2HeaderSensitivity {
    /**
     * Values of {@code cookie} shorter than this many bytes are sensitive under {@link #DEFAULT}: short values have
     * little entropy and are cheap to guess one compression probe at a time (RFC 7541 §7.1.3 suggests this).
     */
    int SHORT_COOKIE_BYTES = 20;

    /** Nothing is sensitive: every field may be indexed. */
    Http2HeaderSensitivity NONE = (name, value) -> false;

    /**
     * The default: {@code authorization} and {@code proxy-authorization} always, and {@code cookie} values shorter
     * than {@link #SHORT_COOKIE_BYTES}.
     */
    Http2HeaderSensitivity DEFAULT = (name, value) -> {
        int length = name.length();
        if (length == 13) {
            return AsciiString.contentEquals("authorization", name);
        }
        if (length == 19) {
            return AsciiString.contentEquals("proxy-authorization", name);
        }
        return length == 6 && value.length() < SHORT_COOKIE_BYTES && AsciiString.contentEquals("cookie", name);
    };

    /** True when the field must be encoded as a never-indexed literal. */
    boolean isSensitive(CharSequence name, CharSequence value);
}
