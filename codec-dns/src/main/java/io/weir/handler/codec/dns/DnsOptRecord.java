package io.weir.handler.codec.dns;

import java.util.Arrays;
import java.util.Objects;

/**
 * The EDNS0 OPT pseudo-record (RFC 6891 §6.1.2) of a message's additional section. It reuses the class field for
 * the sender's UDP payload size and the TTL field for the extended RCODE, version and flags; its owner is the
 * root ({@code ""}). Options are kept as their wire bytes.
 *
 * <pre>
 * TTL field:  +--------+--------+--------+--------+
 *             | EXT-RC | VERSION|DO| Z (15 bits)   |
 *             +--------+--------+--------+--------+
 * </pre>
 *
 * @param udpPayloadSize the largest UDP payload the sender can receive, bytes
 * @param extendedRcode  the upper 8 bits of the 12-bit response code
 * @param version        the EDNS version (0)
 * @param flags          the 16 flag bits (DO is 0x8000)
 * @param options        the options' wire bytes (code, length, data, ...); copied in and out
 */
public record DnsOptRecord(int udpPayloadSize, int extendedRcode, int version, int flags, byte[] options)
        implements DnsRecord {
    /**
     * Checks the fields and copies the options.
     *
     * @throws NullPointerException     if {@code options} is null
     * @throws IllegalArgumentException if a number is out of range
     */
    public DnsOptRecord {
        if (udpPayloadSize < 0 || udpPayloadSize > 0xFFFF || extendedRcode < 0 || extendedRcode > 0xFF
                || version < 0 || version > 0xFF || flags < 0 || flags > 0xFFFF) {
            throw new IllegalArgumentException("OPT field out of range: payload " + udpPayloadSize + ", rcode "
                    + extendedRcode + ", version " + version + ", flags " + flags);
        }
        options = Objects.requireNonNull(options, "options").clone();
    }

    /** An OPT record advertising {@code udpPayloadSize} bytes, version 0, no flags, no options. */
    public DnsOptRecord(int udpPayloadSize) {
        this(udpPayloadSize, 0, 0, 0, new byte[0]);
    }

    @Override
    public byte[] options() {
        return options.clone();
    }

    @Override
    public String name() {
        return "";
    }

    @Override
    public DnsRecordType type() {
        return DnsRecordType.OPT;
    }

    /** The UDP payload size: the class field on the wire. */
    @Override
    public int dnsClass() {
        return udpPayloadSize;
    }

    /** The extended RCODE, version and flags packed as on the wire (see the class comment). */
    @Override
    public long ttl() {
        return ((long) extendedRcode << 24) | (version << 16) | flags;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DnsOptRecord r && r.udpPayloadSize == udpPayloadSize && r.extendedRcode == extendedRcode
                && r.version == version && r.flags == flags && Arrays.equals(r.options, options);
    }

    @Override
    public int hashCode() {
        return Objects.hash(udpPayloadSize, extendedRcode, version, flags) * 31 + Arrays.hashCode(options);
    }

    @Override
    public String toString() {
        return "DnsOptRecord[udpPayloadSize=" + udpPayloadSize + ", extendedRcode=" + extendedRcode + ", version="
                + version + ", flags=" + flags + ", options=" + options.length + " bytes]";
    }
}
