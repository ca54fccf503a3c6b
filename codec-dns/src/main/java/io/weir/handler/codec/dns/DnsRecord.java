package io.weir.handler.codec.dns;

/**
 * A resource record (RFC 1035 §4.1.3): owner name, type, class, time to live and data, the data decoded into the
 * record's own type for the types Weir's resolver uses and kept as bytes ({@link DnsRawRecord}) for the others.
 * Names are in the presentation form described in {@link DnsQuestion}. Records are immutable values.
 */
public sealed interface DnsRecord
        permits DnsAddressRecord, DnsCnameRecord, DnsSrvRecord, DnsTxtRecord, DnsSoaRecord, DnsOptRecord,
        DnsRawRecord {
    /** The Internet class. */
    int CLASS_IN = 1;
    /** The largest time to live, in seconds (RFC 2181 §8: 2^31 - 1; larger values on the wire mean zero). */
    long MAX_TTL_SECONDS = 0x7FFF_FFFFL;

    /** The owner name. */
    String name();

    /** The record type. */
    DnsRecordType type();

    /** The class. */
    int dnsClass();

    /** How long the record may be cached, in seconds, 0 to {@link #MAX_TTL_SECONDS}. */
    long ttl();
}
