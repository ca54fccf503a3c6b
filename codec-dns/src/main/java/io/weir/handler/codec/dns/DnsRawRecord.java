package io.weir.handler.codec.dns;

import java.util.Arrays;
import java.util.Objects;

/**
 * A record of a type this codec does not decode (NS, MX, PTR, ...), its data kept as the wire bytes. Names inside
 * such data may be compressed relative to the message they came in, so they are meaningful only for the types
 * RFC 3597 §4 says may not be compressed.
 *
 * @param name     the owner name
 * @param type     the type
 * @param dnsClass the class
 * @param ttl      seconds it may be cached
 * @param data     the record data; copied in and out
 */
public record DnsRawRecord(String name, DnsRecordType type, int dnsClass, long ttl, byte[] data)
        implements DnsRecord {
    /** The longest record data, in bytes (its length is 16 bits on the wire). */
    public static final int MAX_DATA_BYTES = 0xFFFF;

    /**
     * Checks the fields and copies the data.
     *
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if a number is out of range or the data too long
     */
    public DnsRawRecord {
        DnsRecordChecks.check(name, dnsClass, ttl);
        Objects.requireNonNull(type, "type");
        if (data.length > MAX_DATA_BYTES) {
            throw new IllegalArgumentException("record data longer than " + MAX_DATA_BYTES + " bytes: "
                    + data.length);
        }
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DnsRawRecord r && r.name.equals(name) && r.type.equals(type) && r.dnsClass == dnsClass
                && r.ttl == ttl && Arrays.equals(r.data, data);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, dnsClass, ttl) * 31 + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "DnsRawRecord[name=" + name + ", type=" + type + ", class=" + dnsClass + ", ttl=" + ttl + ", data="
                + data.length + " bytes]";
    }
}
