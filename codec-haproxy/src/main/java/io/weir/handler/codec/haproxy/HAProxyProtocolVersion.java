package io.weir.handler.codec.haproxy;

/** The version of a PROXY protocol header: a text line (1) or a binary header (2). */
public enum HAProxyProtocolVersion {
    /** The human-readable line, {@code PROXY TCP4 192.0.2.1 198.51.100.7 51324 443\r\n}; TCP only, no TLVs. */
    V1(1),
    /** The binary header: a 12-byte signature, version and command, family, length, addresses and TLVs. */
    V2(2);

    private final int number;

    HAProxyProtocolVersion(int number) {
        this.number = number;
    }

    /** The version's number, 1 or 2 (the high nibble of a version 2 header's 13th byte). */
    public int number() {
        return number;
    }
}
