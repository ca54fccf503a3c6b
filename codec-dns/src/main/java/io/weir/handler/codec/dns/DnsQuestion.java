package io.weir.handler.codec.dns;

import java.util.Objects;

/**
 * The question of a DNS message (RFC 1035 §4.1.2): a name, a type and a class. Names are in presentation form
 * without the final dot ({@code "example.com"}; the root is {@code ""}), with RFC 4343 escapes ({@code \.},
 * {@code \\}, {@code \DDD}) for bytes that are not printable or would be ambiguous. Immutable.
 *
 * @param name     the name asked about
 * @param type     the record type asked for
 * @param dnsClass the class, almost always {@link DnsRecord#CLASS_IN}
 */
public record DnsQuestion(String name, DnsRecordType type, int dnsClass) {
    /**
     * Checks the arguments.
     *
     * @throws NullPointerException     if {@code name} or {@code type} is null
     * @throws IllegalArgumentException if {@code dnsClass} is not a 16-bit number
     */
    public DnsQuestion {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (dnsClass < 0 || dnsClass > 0xFFFF) {
            throw new IllegalArgumentException("class not in [0, 65535]: " + dnsClass);
        }
    }

    /** A question for {@code type} records of {@code name} in class IN. */
    public DnsQuestion(String name, DnsRecordType type) {
        this(name, type, DnsRecord.CLASS_IN);
    }

    /**
     * Whether {@code other} asks the same: names equal ignoring ASCII case (RFC 4343), same type and class. This
     * is how a resolver matches an answer to its query.
     */
    public boolean matches(DnsQuestion other) {
        return other != null && type.value() == other.type.value() && dnsClass == other.dnsClass
                && DnsNames.equalsIgnoreCase(name, other.name);
    }
}
