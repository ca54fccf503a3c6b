package io.weir.handler.codec.dns;

import io.weir.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes DNS messages in wire form (RFC 1035 §4.1), names uncompressed. Stateless and thread-safe.
 */
public final class DnsMessageEncoder {
    private DnsMessageEncoder() {
    }

    /**
     * Appends {@code message} to {@code out}.
     *
     * @return the bytes written
     * @throws IllegalArgumentException if a name cannot be encoded ({@link DnsNames#write}) or a record's data is
     *                                  longer than 65535 bytes; {@code out} is then left as it was
     */
    public static int encode(DnsMessage message, ByteBuf out) {
        int start = out.writerIndex();
        try {
            out.writeShort(message.id());
            out.writeShort(message.flags());
            out.writeShort(message.questions().size());
            out.writeShort(message.answers().size());
            out.writeShort(message.authorities().size());
            out.writeShort(message.additionals().size());
            List<DnsQuestion> questions = message.questions();
            for (int i = 0; i < questions.size(); i++) {
                DnsQuestion q = questions.get(i);
                DnsNames.write(q.name(), out);
                out.writeShort(q.type().value());
                out.writeShort(q.dnsClass());
            }
            records(message.answers(), out);
            records(message.authorities(), out);
            records(message.additionals(), out);
        } catch (IllegalArgumentException e) {
            out.writerIndex(start);
            throw e;
        }
        return out.writerIndex() - start;
    }

    private static void records(List<DnsRecord> records, ByteBuf out) {
        for (int i = 0; i < records.size(); i++) {
            record(records.get(i), out);
        }
    }

    private static void record(DnsRecord r, ByteBuf out) {
        DnsNames.write(r.name(), out);
        out.writeShort(r.type().value());
        out.writeShort(r.dnsClass());
        out.writeInt((int) r.ttl());
        int lengthIndex = out.writerIndex();
        out.writeShort(0);
        int dataStart = out.writerIndex();
        if (r instanceof DnsAddressRecord a) {
            out.writeBytes(a.address().getAddress());
        } else if (r instanceof DnsCnameRecord c) {
            DnsNames.write(c.target(), out);
        } else if (r instanceof DnsSrvRecord s) {
            out.writeShort(s.priority());
            out.writeShort(s.weight());
            out.writeShort(s.port());
            DnsNames.write(s.target(), out);
        } else if (r instanceof DnsTxtRecord t) {
            for (String s : t.strings()) {
                out.writeByte(s.length());
                out.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
            }
        } else if (r instanceof DnsSoaRecord s) {
            DnsNames.write(s.primary(), out);
            DnsNames.write(s.mailbox(), out);
            out.writeInt((int) s.serial());
            out.writeInt((int) s.refresh());
            out.writeInt((int) s.retry());
            out.writeInt((int) s.expire());
            out.writeInt((int) s.minimum());
        } else if (r instanceof DnsOptRecord o) {
            out.writeBytes(o.options());
        } else {
            out.writeBytes(((DnsRawRecord) r).data());
        }
        int length = out.writerIndex() - dataStart;
        if (length > DnsRawRecord.MAX_DATA_BYTES) {
            throw new IllegalArgumentException("record data of " + length + " bytes is longer than "
                    + DnsRawRecord.MAX_DATA_BYTES);
        }
        out.setShort(lengthIndex, length);
    }
}
