package io.weir.handler.codec.dns;

import java.util.Objects;

/** The checks every record's constructor makes. Stateless. */
final class DnsRecordChecks {
    private DnsRecordChecks() {
    }

    /**
     * Checks the fields every record has.
     *
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException if the class or TTL is out of range
     */
    static void check(String name, int dnsClass, long ttl) {
        Objects.requireNonNull(name, "name");
        if (dnsClass < 0 || dnsClass > 0xFFFF) {
            throw new IllegalArgumentException("class not in [0, 65535]: " + dnsClass);
        }
        if (ttl < 0 || ttl > DnsRecord.MAX_TTL_SECONDS) {
            throw new IllegalArgumentException("ttl not in [0, " + DnsRecord.MAX_TTL_SECONDS + "]: " + ttl);
        }
    }
}
