package io.weir.handler.codec.dns;

import java.util.List;
import java.util.Objects;

/**
 * A DNS message (RFC 1035 §4.1): a header, then questions, answers, authority and additional records. Queries
 * and responses are the same type; {@link #isResponse()} tells them apart. Immutable; the lists are unmodifiable.
 *
 * <p>The header's second 16 bits, {@link #flags()}, as on the wire (RFC 1035 §4.1.1):
 * <pre>
 *   bit  15  14-11   10  9   8   7   6-4  3-0
 *      +---+-------+---+---+---+---+-----+-------+
 *      |QR |OPCODE |AA |TC |RD |RA |  Z  | RCODE |
 *      +---+-------+---+---+---+---+-----+-------+
 * </pre>
 *
 * @param id          the 16-bit query id, copied into the response
 * @param flags       the header flags, 16 bits (see above)
 * @param questions   the questions (one, in practice)
 * @param answers     the answer records
 * @param authorities the authority records (an SOA in a negative answer)
 * @param additionals the additional records (an {@link DnsOptRecord} for EDNS0)
 */
public record DnsMessage(int id, int flags, List<DnsQuestion> questions, List<DnsRecord> answers,
                         List<DnsRecord> authorities, List<DnsRecord> additionals) {
    /** QR: the message is a response. */
    public static final int FLAG_RESPONSE = 0x8000;
    /** AA: the answer is authoritative. */
    public static final int FLAG_AUTHORITATIVE = 0x0400;
    /** TC: the message was truncated to fit the transport (retry over TCP). */
    public static final int FLAG_TRUNCATED = 0x0200;
    /** RD: recursion desired. */
    public static final int FLAG_RECURSION_DESIRED = 0x0100;
    /** RA: recursion available. */
    public static final int FLAG_RECURSION_AVAILABLE = 0x0080;
    /** The most records (questions included) a message may hold: each count is 16 bits. */
    public static final int MAX_SECTION_ENTRIES = 0xFFFF;

    private static final int OPCODE_SHIFT = 11;
    private static final int OPCODE_MASK = 0xF;
    private static final int RCODE_MASK = 0xF;

    /**
     * Checks the header and copies the lists.
     *
     * @throws IllegalArgumentException if the id or flags are not 16-bit values or a section is too long
     * @throws NullPointerException     if a list or an element is null
     */
    public DnsMessage {
        if (id < 0 || id > 0xFFFF || flags < 0 || flags > 0xFFFF) {
            throw new IllegalArgumentException("id or flags not in [0, 65535]: " + id + ", " + flags);
        }
        questions = List.copyOf(questions);
        answers = List.copyOf(answers);
        authorities = List.copyOf(authorities);
        additionals = List.copyOf(additionals);
        if (Math.max(Math.max(questions.size(), answers.size()), Math.max(authorities.size(), additionals.size()))
                > MAX_SECTION_ENTRIES) {
            throw new IllegalArgumentException("a section has more than " + MAX_SECTION_ENTRIES + " entries");
        }
    }

    /**
     * A standard query for {@code question}, with recursion desired when asked and, when {@code udpPayloadSize} is
     * positive, an EDNS0 OPT record advertising it.
     *
     * @throws IllegalArgumentException if {@code id} is not 16 bits or {@code udpPayloadSize} is not in
     *                                  [0, 65535]
     */
    public static DnsMessage query(int id, DnsQuestion question, boolean recursionDesired, int udpPayloadSize) {
        Objects.requireNonNull(question, "question");
        if (udpPayloadSize < 0) {
            throw new IllegalArgumentException("udpPayloadSize < 0: " + udpPayloadSize);
        }
        List<DnsRecord> additionals = udpPayloadSize > 0 ? List.of(new DnsOptRecord(udpPayloadSize)) : List.of();
        return new DnsMessage(id, recursionDesired ? FLAG_RECURSION_DESIRED : 0, List.of(question), List.of(),
                List.of(), additionals);
    }

    /** Whether this is a response (QR set). */
    public boolean isResponse() {
        return (flags & FLAG_RESPONSE) != 0;
    }

    /** The operation code, 0 for a standard query. */
    public int opcode() {
        return (flags >>> OPCODE_SHIFT) & OPCODE_MASK;
    }

    /** Whether the message was truncated (TC set): its records are incomplete and TCP gives the whole answer. */
    public boolean isTruncated() {
        return (flags & FLAG_TRUNCATED) != 0;
    }

    /** The 4-bit response code of the header ({@link DnsResponseCode}). */
    public int rcode() {
        return flags & RCODE_MASK;
    }

    /** The EDNS0 record of the additional section, or {@code null} if there is none. */
    public DnsOptRecord opt() {
        for (int i = 0; i < additionals.size(); i++) {
            if (additionals.get(i) instanceof DnsOptRecord opt) {
                return opt;
            }
        }
        return null;
    }

    /** How many questions and records the message holds. */
    public int entryCount() {
        return questions.size() + answers.size() + authorities.size() + additionals.size();
    }
}
