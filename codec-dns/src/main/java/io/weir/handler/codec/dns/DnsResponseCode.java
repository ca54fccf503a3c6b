package io.weir.handler.codec.dns;

/** The response codes of a DNS header (RFC 1035 §4.1.1) and their mnemonics. */
public final class DnsResponseCode {
    /** No error. */
    public static final int NOERROR = 0;
    /** The server could not interpret the query. */
    public static final int FORMERR = 1;
    /** The server failed. */
    public static final int SERVFAIL = 2;
    /** The name does not exist (RFC 2308 calls it NXDOMAIN). */
    public static final int NXDOMAIN = 3;
    /** The server does not support the query. */
    public static final int NOTIMP = 4;
    /** The server refused. */
    public static final int REFUSED = 5;

    private static final String[] NAMES = {"NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED"};

    private DnsResponseCode() {
    }

    /** The mnemonic of {@code rcode}, or {@code RCODE<n>}. */
    public static String name(int rcode) {
        return rcode >= 0 && rcode < NAMES.length ? NAMES[rcode] : "RCODE" + rcode;
    }
}
