package io.weir.handler.codec.dns;

import java.util.List;
import java.util.Objects;

/**
 * A TXT record: one or more character strings (RFC 1035 §3.3.14). Each string holds the wire bytes one per char
 * (ISO-8859-1), so any byte survives decoding and encoding; decode them as UTF-8 with
 * {@code new String(s.getBytes(ISO_8859_1), UTF_8)} where the application expects text.
 *
 * @param name     the owner name
 * @param dnsClass the class
 * @param ttl      seconds it may be cached
 * @param strings  the character strings, each at most {@value #MAX_STRING_BYTES} bytes
 */
public record DnsTxtRecord(String name, int dnsClass, long ttl, List<String> strings) implements DnsRecord {
    /** The longest character string, in bytes (its length is one byte on the wire). */
    public static final int MAX_STRING_BYTES = 255;

    /**
     * Checks the fields and copies the list.
     *
     * @throws NullPointerException     if a name, the list or a string is null
     * @throws IllegalArgumentException if a number is out of range or a string too long or not ISO-8859-1
     */
    public DnsTxtRecord {
        DnsRecordChecks.check(name, dnsClass, ttl);
        strings = List.copyOf(Objects.requireNonNull(strings, "strings"));
        for (int i = 0; i < strings.size(); i++) {
            String s = strings.get(i);
            if (s.length() > MAX_STRING_BYTES) {
                throw new IllegalArgumentException("TXT string " + i + " longer than " + MAX_STRING_BYTES
                        + " bytes: " + s.length());
            }
            for (int j = 0; j < s.length(); j++) {
                if (s.charAt(j) > 0xFF) {
                    throw new IllegalArgumentException("TXT string " + i + " has a char beyond ISO-8859-1 at " + j);
                }
            }
        }
    }

    @Override
    public DnsRecordType type() {
        return DnsRecordType.TXT;
    }
}
