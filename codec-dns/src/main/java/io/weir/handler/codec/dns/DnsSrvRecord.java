package io.weir.handler.codec.dns;

import java.util.Objects;

/**
 * An SRV record (RFC 2782): where a service is offered.
 *
 * @param name     the service name, e.g. {@code _sip._tcp.example.com}
 * @param dnsClass the class
 * @param ttl      seconds it may be cached
 * @param priority lower is tried first, 0 to 65535
 * @param weight   relative weight among equal priorities, 0 to 65535
 * @param port     the port, 0 to 65535
 * @param target   the host offering the service ({@code ""}, the root, means "not offered")
 */
public record DnsSrvRecord(String name, int dnsClass, long ttl, int priority, int weight, int port, String target)
        implements DnsRecord {
    /**
     * Checks the fields.
     *
     * @throws NullPointerException     if a name is null
     * @throws IllegalArgumentException if a number is out of range
     */
    public DnsSrvRecord {
        DnsRecordChecks.check(name, dnsClass, ttl);
        Objects.requireNonNull(target, "target");
        if ((priority | weight | port) < 0 || priority > 0xFFFF || weight > 0xFFFF || port > 0xFFFF) {
            throw new IllegalArgumentException("priority, weight or port not in [0, 65535]: " + priority + ", "
                    + weight + ", " + port);
        }
    }

    @Override
    public DnsRecordType type() {
        return DnsRecordType.SRV;
    }
}
