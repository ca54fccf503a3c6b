package io.weir.handler.codec.dns;

import io.weir.buffer.ByteBuf;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes one DNS message from bytes, refusing whatever is malformed or beyond its limits with a
 * {@link DnsDecoderException} (never an index error, never a hang):
 * <ul>
 * <li>the header's counts must fit the bytes present (a question takes at least 5 bytes, a record 11) and
 *     together not exceed {@link #maxRecords()};</li>
 * <li>a compression pointer (RFC 1035 §4.1.4) must point strictly before itself, and the name it points to must
 *     end before it, so no pointer loop can exist; at most {@value #MAX_COMPRESSION_POINTERS} pointers per name;</li>
 * <li>labels are at most 63 bytes and names 255 (RFC 1035 §2.3.4); the label types RFC 6891 retired are refused;</li>
 * <li>each record's data must lie within the message and, for the types decoded here, be exactly as long as its
 *     content (an A record has 4 bytes, a CNAME's name ends where its data ends);</li>
 * <li>OPT only in the additional section, once, owned by the root (RFC 6891 §6.1.1);</li>
 * <li>no bytes may follow the last record.</li>
 * </ul>
 * A message with TC set (RFC 2181 §9: its records are to be ignored) is decoded as far as its bytes go: the
 * header and questions must be whole, the records end where the first incomplete one starts.
 *
 * <p>TTLs with the top bit set are read as 0 (RFC 2181 §8). Immutable and thread-safe.
 */
public final class DnsMessageDecoder {
    /** The default cap on questions plus records in one message. */
    public static final int DEFAULT_MAX_RECORDS = 256;
    /** The most compression pointers followed in one name. */
    public static final int MAX_COMPRESSION_POINTERS = 32;
    /** The header's length, in bytes. */
    public static final int HEADER_BYTES = 12;

    private static final int MIN_QUESTION_BYTES = 5;
    private static final int MIN_RECORD_BYTES = 11;
    private static final int RECORD_FIXED_BYTES = 10;
    private static final int POINTER_BITS = 0xC0;
    private static final int IPV4_BYTES = 4;
    private static final int IPV6_BYTES = 16;
    private static final int SRV_FIXED_BYTES = 6;
    private static final int SOA_FIXED_BYTES = 20;

    private final int maxRecords;

    /** A decoder capping a message at {@value #DEFAULT_MAX_RECORDS} questions and records. */
    public DnsMessageDecoder() {
        this(DEFAULT_MAX_RECORDS);
    }

    /**
     * A decoder capping a message at {@code maxRecords} questions and records.
     *
     * @throws IllegalArgumentException if {@code maxRecords} is not positive
     */
    public DnsMessageDecoder(int maxRecords) {
        if (maxRecords <= 0) {
            throw new IllegalArgumentException("maxRecords <= 0: " + maxRecords);
        }
        this.maxRecords = maxRecords;
    }

    /** The cap on questions plus records in one message. */
    public int maxRecords() {
        return maxRecords;
    }

    /**
     * Decodes the readable bytes of {@code in} as one message. The buffer's indexes are not changed; the caller
     * keeps ownership of it.
     *
     * @throws DnsDecoderException if the bytes are not one well-formed message within the limits
     */
    public DnsMessage decode(ByteBuf in) {
        return new Reader(in, maxRecords).message();
    }

    /** One message's decoding: absolute indexes into the buffer. */
    private static final class Reader {
        private final ByteBuf buf;
        private final int base;
        private final int end;
        private final int maxRecords;
        private int pos;
        private boolean sawOpt;

        Reader(ByteBuf buf, int maxRecords) {
            this.buf = buf;
            this.base = buf.readerIndex();
            this.end = buf.writerIndex();
            this.maxRecords = maxRecords;
            this.pos = base;
        }

        DnsMessage message() {
            if (end - base < HEADER_BYTES) {
                throw new DnsDecoderException("message of " + (end - base) + " bytes is shorter than the "
                        + HEADER_BYTES + "-byte header");
            }
            int id = u16();
            int flags = u16();
            int qd = u16();
            int an = u16();
            int ns = u16();
            int ar = u16();
            boolean truncated = (flags & DnsMessage.FLAG_TRUNCATED) != 0;
            int records = qd + an + ns + ar;
            if (records > maxRecords) {
                throw new DnsDecoderException("message claims " + records + " questions and records; the limit is "
                        + maxRecords);
            }
            long needed = (long) qd * MIN_QUESTION_BYTES + (long) (an + ns + ar) * MIN_RECORD_BYTES;
            if (!truncated && needed > end - pos) {
                throw new DnsDecoderException("message claims " + qd + " questions and " + (an + ns + ar)
                        + " records, at least " + needed + " bytes, but " + (end - pos) + " bytes follow the header");
            }
            List<DnsQuestion> questions = new ArrayList<>(qd);
            for (int i = 0; i < qd; i++) {
                String name = name(end);
                need(4, end, "question");
                questions.add(new DnsQuestion(name, DnsRecordType.valueOf(u16()), u16()));
            }
            List<DnsRecord> answers = new ArrayList<>(an);
            List<DnsRecord> authorities = new ArrayList<>(ns);
            List<DnsRecord> additionals = new ArrayList<>(ar);
            try {
                section(an, answers, false);
                section(ns, authorities, false);
                section(ar, additionals, true);
            } catch (DnsDecoderException e) {
                if (!truncated) {
                    throw e;
                }
                // RFC 2181 §9: a truncated message's records are incomplete by definition; keep the whole ones.
                return new DnsMessage(id, flags, questions, answers, authorities, additionals);
            }
            if (pos != end) {
                throw new DnsDecoderException((end - pos) + " bytes follow the last record");
            }
            return new DnsMessage(id, flags, questions, answers, authorities, additionals);
        }

        private void section(int count, List<DnsRecord> out, boolean additional) {
            for (int i = 0; i < count; i++) {
                DnsRecord r = record(additional);
                if (r instanceof DnsOptRecord) {
                    if (sawOpt) {
                        throw new DnsDecoderException("more than one OPT record (RFC 6891 §6.1.1)");
                    }
                    sawOpt = true;
                }
                out.add(r);
            }
        }

        private DnsRecord record(boolean additional) {
            String name = name(end);
            need(RECORD_FIXED_BYTES, end, "record header");
            int typeValue = u16();
            int dnsClass = u16();
            long rawTtl = buf.getUnsignedInt(pos);
            pos += 4;
            int length = u16();
            if (length > end - pos) {
                throw new DnsDecoderException("record of type " + typeValue + " claims " + length
                        + " data bytes but " + (end - pos) + " remain");
            }
            int dataEnd = pos + length;
            // RFC 2181 §8: a TTL with the top bit set is taken as zero.
            long ttl = rawTtl > DnsRecord.MAX_TTL_SECONDS ? 0 : rawTtl;
            DnsRecord r;
            switch (typeValue) {
                case 1 -> r = new DnsAddressRecord(name, dnsClass, ttl, address(length, IPV4_BYTES));
                case 28 -> r = new DnsAddressRecord(name, dnsClass, ttl, address(length, IPV6_BYTES));
                case 5 -> r = new DnsCnameRecord(name, dnsClass, ttl, name(dataEnd));
                case 33 -> {
                    need(SRV_FIXED_BYTES, dataEnd, "SRV record");
                    int priority = u16();
                    int weight = u16();
                    int port = u16();
                    r = new DnsSrvRecord(name, dnsClass, ttl, priority, weight, port, name(dataEnd));
                }
                case 16 -> r = new DnsTxtRecord(name, dnsClass, ttl, strings(dataEnd));
                case 6 -> {
                    String primary = name(dataEnd);
                    String mailbox = name(dataEnd);
                    need(SOA_FIXED_BYTES, dataEnd, "SOA record");
                    long serial = u32();
                    long refresh = u32();
                    long retry = u32();
                    long expire = u32();
                    r = new DnsSoaRecord(name, dnsClass, ttl, primary, mailbox, serial, refresh, retry, expire, u32());
                }
                case 41 -> {
                    if (!additional || !name.isEmpty()) {
                        throw new DnsDecoderException("OPT record outside the additional section or not owned by "
                                + "the root (RFC 6891 §6.1.1)");
                    }
                    r = new DnsOptRecord(dnsClass, (int) (rawTtl >>> 24), (int) (rawTtl >>> 16) & 0xFF,
                            (int) rawTtl & 0xFFFF, bytes(length));
                }
                default -> r = new DnsRawRecord(name, DnsRecordType.valueOf(typeValue), dnsClass, ttl, bytes(length));
            }
            if (pos != dataEnd) {
                throw new DnsDecoderException("record of type " + typeValue + " has " + length
                        + " data bytes but its content takes " + (pos - (dataEnd - length)));
            }
            return r;
        }

        private InetAddress address(int length, int expected) {
            if (length != expected) {
                throw new DnsDecoderException("address record of " + length + " bytes; expected " + expected);
            }
            byte[] bytes = bytes(length);
            try {
                // Inet6Address keeps an IPv4-mapped AAAA an IPv6 address; neither call looks anything up.
                return expected == IPV6_BYTES ? Inet6Address.getByAddress(null, bytes, -1)
                        : InetAddress.getByAddress(bytes);
            } catch (UnknownHostException impossible) {
                throw new DnsDecoderException("address of " + length + " bytes refused: " + impossible.getMessage());
            }
        }

        private List<String> strings(int dataEnd) {
            List<String> strings = new ArrayList<>(2);
            while (pos < dataEnd) {
                int len = buf.getUnsignedByte(pos++);
                need(len, dataEnd, "TXT string");
                StringBuilder sb = new StringBuilder(len);
                for (int i = 0; i < len; i++) {
                    sb.append((char) buf.getUnsignedByte(pos + i));
                }
                pos += len;
                strings.add(sb.toString());
            }
            return strings;
        }

        private byte[] bytes(int length) {
            byte[] bytes = new byte[length];
            buf.getBytes(pos, bytes);
            pos += length;
            return bytes;
        }

        /**
         * A name starting at {@code pos} whose uncompressed part must end by {@code limit}; {@code pos} moves past
         * that part (and the pointer that ends it).
         */
        private String name(int limit) {
            StringBuilder sb = null;
            int p = pos;
            int bound = limit;
            int resume = -1;
            int wireBytes = 1;
            int pointers = 0;
            for (;;) {
                if (p >= bound) {
                    throw new DnsDecoderException("name at offset " + (pos - base) + " runs past its bounds");
                }
                int len = buf.getUnsignedByte(p);
                if ((len & POINTER_BITS) == POINTER_BITS) {
                    if (p + 1 >= bound) {
                        throw new DnsDecoderException("compression pointer at offset " + (p - base) + " is cut off");
                    }
                    int target = base + ((len & ~POINTER_BITS) << 8 | buf.getUnsignedByte(p + 1));
                    // RFC 1035 §4.1.4 says "a prior occurrence": the target must lie before the pointer, and the
                    // name there must end before the pointer too (bound = p), which rules out every loop.
                    if (target >= p) {
                        throw new DnsDecoderException("compression pointer at offset " + (p - base)
                                + " does not point backwards (to " + (target - base) + ")");
                    }
                    if (++pointers > MAX_COMPRESSION_POINTERS) {
                        throw new DnsDecoderException("name at offset " + (pos - base) + " follows more than "
                                + MAX_COMPRESSION_POINTERS + " compression pointers");
                    }
                    if (resume < 0) {
                        resume = p + 2;
                    }
                    bound = p;
                    p = target;
                    continue;
                }
                if ((len & POINTER_BITS) != 0) {
                    throw new DnsDecoderException("label type 0x" + Integer.toHexString(len & POINTER_BITS)
                            + " at offset " + (p - base) + " is not supported (RFC 6891 §5)");
                }
                if (len == 0) {
                    p++;
                    break;
                }
                if (len >= bound - p) {
                    throw new DnsDecoderException("label of " + len + " bytes at offset " + (p - base)
                            + " runs past its bounds");
                }
                wireBytes += len + 1;
                if (wireBytes > DnsNames.MAX_NAME_BYTES) {
                    throw new DnsDecoderException("name at offset " + (pos - base) + " is longer than "
                            + DnsNames.MAX_NAME_BYTES + " bytes");
                }
                if (sb == null) {
                    sb = new StringBuilder(32);
                } else {
                    sb.append('.');
                }
                for (int i = 1; i <= len; i++) {
                    DnsNames.appendLabelByte(sb, buf.getUnsignedByte(p + i));
                }
                p += len + 1;
            }
            pos = resume >= 0 ? resume : p;
            return sb == null ? "" : sb.toString();
        }

        private void need(int bytes, int limit, String what) {
            if (bytes > limit - pos) {
                throw new DnsDecoderException(what + " at offset " + (pos - base) + " needs " + bytes
                        + " bytes but " + Math.max(0, limit - pos) + " remain");
            }
        }

        private int u16() {
            int v = buf.getUnsignedShort(pos);
            pos += 2;
            return v;
        }

        private long u32() {
            long v = buf.getUnsignedInt(pos);
            pos += 4;
            return v;
        }
    }
}
