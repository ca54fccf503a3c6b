package io.weir.handler.codec.dns;

/**
 * The type of a question or resource record (RFC 1035 §3.2.2, and the later RFCs that added AAAA, SRV and OPT):
 * a 16-bit number and its mnemonic. The constants cover what Weir's resolver asks for; {@link #valueOf(int)}
 * gives any other number a {@code TYPEnnn} name (RFC 3597 §5). Immutable.
 *
 * @param value the type number, 0 to 65535
 * @param name  its mnemonic
 */
public record DnsRecordType(int value, String name) {
    /** A host address (IPv4), RFC 1035. */
    public static final DnsRecordType A = new DnsRecordType(1, "A");
    /** An authoritative name server, RFC 1035. */
    public static final DnsRecordType NS = new DnsRecordType(2, "NS");
    /** The canonical name of an alias, RFC 1035. */
    public static final DnsRecordType CNAME = new DnsRecordType(5, "CNAME");
    /** The start of a zone of authority, RFC 1035; its minimum field bounds negative caching (RFC 2308). */
    public static final DnsRecordType SOA = new DnsRecordType(6, "SOA");
    /** A domain name pointer, RFC 1035. */
    public static final DnsRecordType PTR = new DnsRecordType(12, "PTR");
    /** Mail exchange, RFC 1035. */
    public static final DnsRecordType MX = new DnsRecordType(15, "MX");
    /** Text strings, RFC 1035. */
    public static final DnsRecordType TXT = new DnsRecordType(16, "TXT");
    /** A host address (IPv6), RFC 3596. */
    public static final DnsRecordType AAAA = new DnsRecordType(28, "AAAA");
    /** A service location, RFC 2782. */
    public static final DnsRecordType SRV = new DnsRecordType(33, "SRV");
    /** The EDNS0 pseudo-record, RFC 6891. */
    public static final DnsRecordType OPT = new DnsRecordType(41, "OPT");
    /** Any type (a question only), RFC 1035. */
    public static final DnsRecordType ANY = new DnsRecordType(255, "ANY");

    private static final DnsRecordType[] KNOWN = {A, NS, CNAME, SOA, PTR, MX, TXT, AAAA, SRV, OPT, ANY};

    /**
     * Checks the value.
     *
     * @throws IllegalArgumentException if {@code value} is not a 16-bit number
     * @throws NullPointerException     if {@code name} is null
     */
    public DnsRecordType {
        if (value < 0 || value > 0xFFFF) {
            throw new IllegalArgumentException("type not in [0, 65535]: " + value);
        }
        java.util.Objects.requireNonNull(name, "name");
    }

    /**
     * The type numbered {@code value}: one of the constants, or a new one named {@code TYPE<value>}.
     *
     * @throws IllegalArgumentException if {@code value} is not a 16-bit number
     */
    public static DnsRecordType valueOf(int value) {
        for (DnsRecordType t : KNOWN) {
            if (t.value == value) {
                return t;
            }
        }
        return new DnsRecordType(value, "TYPE" + value);
    }

    @Override
    public String toString() {
        return name;
    }
}
