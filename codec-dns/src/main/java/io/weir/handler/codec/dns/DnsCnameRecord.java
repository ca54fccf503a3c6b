package io.weir.handler.codec.dns;

import java.util.Objects;

/**
 * A CNAME record: {@link #name()} is an alias of {@link #target()} (RFC 1035 §3.3.1).
 *
 * @param name     the alias
 * @param dnsClass the class
 * @param ttl      seconds it may be cached
 * @param target   the canonical name
 */
public record DnsCnameRecord(String name, int dnsClass, long ttl, String target) implements DnsRecord {
    /**
     * Checks the fields.
     *
     * @throws NullPointerException     if a name is null
     * @throws IllegalArgumentException if the class or ttl is out of range
     */
    public DnsCnameRecord {
        DnsRecordChecks.check(name, dnsClass, ttl);
        Objects.requireNonNull(target, "target");
    }

    @Override
    public DnsRecordType type() {
        return DnsRecordType.CNAME;
    }
}
