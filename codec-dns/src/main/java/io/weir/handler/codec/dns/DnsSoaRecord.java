package io.weir.handler.codec.dns;

import java.util.Objects;

/**
 * An SOA record (RFC 1035 §3.3.13). In a negative answer's authority section it bounds how long the "no such
 * name" or "no such data" answer may be cached: the smaller of its {@link #ttl()} and {@link #minimum()}
 * (RFC 2308 §5).
 *
 * @param name       the zone
 * @param dnsClass   the class
 * @param ttl        seconds it may be cached
 * @param primary    the zone's primary name server
 * @param mailbox    the responsible person's mailbox, as a name
 * @param serial     the zone's serial, unsigned 32 bits
 * @param refresh    seconds, unsigned 32 bits
 * @param retry      seconds, unsigned 32 bits
 * @param expire     seconds, unsigned 32 bits
 * @param minimum    the negative-caching TTL, seconds, unsigned 32 bits
 */
public record DnsSoaRecord(String name, int dnsClass, long ttl, String primary, String mailbox, long serial,
                           long refresh, long retry, long expire, long minimum) implements DnsRecord {
    private static final long MAX_U32 = 0xFFFF_FFFFL;

    /**
     * Checks the fields.
     *
     * @throws NullPointerException     if a name is null
     * @throws IllegalArgumentException if a number is out of range
     */
    public DnsSoaRecord {
        DnsRecordChecks.check(name, dnsClass, ttl);
        Objects.requireNonNull(primary, "primary");
        Objects.requireNonNull(mailbox, "mailbox");
        if ((serial | refresh | retry | expire | minimum) < 0
                || Math.max(Math.max(serial, refresh), Math.max(Math.max(retry, expire), minimum)) > MAX_U32) {
            throw new IllegalArgumentException("an SOA number is not an unsigned 32-bit value");
        }
    }

    @Override
    public DnsRecordType type() {
        return DnsRecordType.SOA;
    }
}
