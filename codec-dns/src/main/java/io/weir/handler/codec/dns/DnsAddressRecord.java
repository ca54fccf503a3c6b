package io.weir.handler.codec.dns;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Objects;

/**
 * An A (IPv4) or AAAA (IPv6) record. The type follows the address: {@link DnsRecordType#A} for an
 * {@link Inet4Address}, {@link DnsRecordType#AAAA} for an {@link Inet6Address} (the decoder keeps an IPv4-mapped
 * AAAA address an {@code Inet6Address}).
 *
 * @param name     the owner name
 * @param dnsClass the class
 * @param ttl      seconds it may be cached
 * @param address  the address; never resolved or reverse-resolved by this class
 */
public record DnsAddressRecord(String name, int dnsClass, long ttl, InetAddress address) implements DnsRecord {
    /**
     * Checks the fields.
     *
     * @throws NullPointerException     if {@code name} or {@code address} is null
     * @throws IllegalArgumentException if the class or ttl is out of range
     */
    public DnsAddressRecord {
        DnsRecordChecks.check(name, dnsClass, ttl);
        Objects.requireNonNull(address, "address");
    }

    @Override
    public DnsRecordType type() {
        return address instanceof Inet6Address ? DnsRecordType.AAAA : DnsRecordType.A;
    }
}
