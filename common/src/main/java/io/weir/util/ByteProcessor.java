package io.weir.util;

/**
 * Visits bytes one at a time, for scans such as {@link AsciiString#forEachByte(ByteProcessor)} and the
 * buffer module's {@code forEachByte}: the scan stops at the first byte for which {@link #process} returns
 * {@code false} and reports that byte's index.
 *
 * <p>The {@code FIND_*} constants stop at the byte they name; the {@code FIND_NON_*} ones stop at the first
 * byte that is not it. They are stateless and thread-safe.
 */
@FunctionalInterface
public interface ByteProcessor {
    /** Stops at {@code NUL} (0x00). */
    ByteProcessor FIND_NUL = value -> value != 0;
    /** Stops at the first byte that is not {@code NUL}. */
    ByteProcessor FIND_NON_NUL = value -> value == 0;
    /** Stops at {@code CR} (0x0D). */
    ByteProcessor FIND_CR = value -> value != '\r';
    /** Stops at the first byte that is not {@code CR}. */
    ByteProcessor FIND_NON_CR = value -> value == '\r';
    /** Stops at {@code LF} (0x0A). */
    ByteProcessor FIND_LF = value -> value != '\n';
    /** Stops at the first byte that is not {@code LF}. */
    ByteProcessor FIND_NON_LF = value -> value == '\n';
    /** Stops at {@code CR} or {@code LF}. */
    ByteProcessor FIND_CRLF = value -> value != '\r' && value != '\n';
    /** Stops at the first byte that is neither {@code CR} nor {@code LF}. */
    ByteProcessor FIND_NON_CRLF = value -> value == '\r' || value == '\n';
    /** Stops at a space (0x20) or horizontal tab (0x09), HTTP's linear whitespace. */
    ByteProcessor FIND_LINEAR_WHITESPACE = value -> value != ' ' && value != '\t';
    /** Stops at the first byte that is neither a space nor a horizontal tab. */
    ByteProcessor FIND_NON_LINEAR_WHITESPACE = value -> value == ' ' || value == '\t';
    /** Stops at ASCII whitespace: space, tab, LF, vertical tab, form feed or CR. */
    ByteProcessor FIND_WHITESPACE = value -> !isAsciiWhitespace(value);
    /** Stops at the first byte that is not ASCII whitespace. */
    ByteProcessor FIND_NON_WHITESPACE = ByteProcessor::isAsciiWhitespace;
    /** Stops at a comma. */
    ByteProcessor FIND_COMMA = value -> value != ',';
    /** Stops at a semicolon. */
    ByteProcessor FIND_SEMI_COLON = value -> value != ';';

    /**
     * Looks at one byte.
     *
     * @return {@code true} to go on with the next byte, {@code false} to stop here
     */
    boolean process(byte value);

    /** A processor that stops at {@code target}. */
    static ByteProcessor find(byte target) {
        return value -> value != target;
    }

    /** A processor that stops at the first byte that is not {@code target}. */
    static ByteProcessor findNot(byte target) {
        return value -> value == target;
    }

    private static boolean isAsciiWhitespace(byte value) {
        return value == ' ' || (value >= '\t' && value <= '\r');
    }
}
