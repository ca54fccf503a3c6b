package io.weir.handler.logging;

/** How {@link LoggingHandler} renders the bytes of a {@code ByteBuf} or {@code ByteBufHolder} message. */
public enum ByteBufFormat {
    /** Only the number of readable bytes. */
    SIMPLE,
    /** The number of readable bytes followed by a pretty hex dump of them (offsets, hex and ASCII columns). */
    HEX_DUMP
}
