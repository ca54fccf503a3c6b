package io.weir.handler.codec.dns;

import static io.weir.handler.codec.dns.Wire.QUESTION;
import static io.weir.handler.codec.dns.Wire.RESPONSE_FLAGS;
import static io.weir.handler.codec.dns.Wire.concat;
import static io.weir.handler.codec.dns.Wire.header;
import static io.weir.handler.codec.dns.Wire.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile and malformed messages: a table of inputs with the refusal each gets, and tests named after the attacks
 * they repel. Every refusal is a {@link DnsDecoderException}, never an index error or a hang.
 */
class DnsMessageDecoderAttackTest {
    private final DnsMessageDecoder decoder = new DnsMessageDecoder();

    record Row(String name, byte[] input, String reason) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static byte[] answer(String record) {
        return concat(header(RESPONSE_FLAGS, 1, 1, 0, 0), hex(QUESTION), hex(record));
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("empty datagram", new byte[0], "shorter than the 12-byte header"),
                new Row("half a header", hex("1234 8180 0001"), "shorter than the 12-byte header"),
                new Row("question count beyond the bytes", header(RESPONSE_FLAGS, 3, 0, 0, 0), "at least 15 bytes"),
                new Row("question cut in its type", concat(header(RESPONSE_FLAGS, 1, 0, 0, 0),
                        hex("01 61 07 6578616d706c65 00 0001")), "question at offset 23 needs 4 bytes"),
                new Row("label past the end", concat(header(RESPONSE_FLAGS, 1, 0, 0, 0), hex("3f 61 62 00 0001 0001")),
                        "runs past its bounds"),
                new Row("name without its final zero", concat(header(RESPONSE_FLAGS, 1, 0, 0, 0),
                        hex("01 61 01 62 01 63")), "runs past its bounds"),
                new Row("extended label type 0x40", concat(header(RESPONSE_FLAGS, 1, 0, 0, 0), hex("41 00 00 0001 0001")),
                        "label type 0x40"),
                new Row("pointer to itself", answer("c029 0001 0001 00000001 0004 c0000201"), "does not point backwards"),
                new Row("pointer forward", answer("c02b 0001 0001 00000001 0004 c0000201"), "does not point backwards"),
                new Row("pointer into a name that ends after it", concat(header(RESPONSE_FLAGS, 1, 0, 0, 0),
                        hex("01 61 c00e 0001 0001")), "does not point backwards"),
                new Row("pointer cut after its first byte", answer("c0"), "cut off"),
                new Row("A record of 5 bytes", answer("c00c 0001 0001 00000001 0005 c000020101"), "expected 4"),
                new Row("AAAA record of 4 bytes", answer("c00c 001c 0001 00000001 0004 c0000201"), "expected 16"),
                new Row("CNAME target beyond its data", answer("c00c 0005 0001 00000001 0002 01 62 00"),
                        "runs past its bounds"),
                new Row("CNAME data longer than its name", answer("c00c 0005 0001 00000001 0003 c00c 00"),
                        "its content takes 2"),
                new Row("TXT string beyond its data", answer("c00c 0010 0001 00000001 0003 05 6162"), "TXT string"),
                new Row("SRV too short", answer("c00c 0021 0001 00000001 0004 0001 0002"), "SRV record"),
                new Row("SOA without its numbers", answer("c00c 0006 0001 00000001 0006 00 00 00000001"), "SOA record"),
                new Row("OPT in the answer section", answer("00 0029 1000 00000000 0000"), "OPT record outside"),
                new Row("two OPT records", concat(header(RESPONSE_FLAGS, 1, 0, 0, 2), hex(QUESTION),
                        hex("00 0029 1000 00000000 0000"), hex("00 0029 1000 00000000 0000")), "more than one OPT"),
                new Row("trailing bytes", concat(header(RESPONSE_FLAGS, 1, 0, 0, 0), hex(QUESTION), hex("00")),
                        "1 bytes follow the last record"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void malformedMessageIsRefused(Row row) {
        assertThatThrownBy(() -> Wire.decode(decoder, row.input()))
                .isInstanceOf(DnsDecoderException.class)
                .hasMessageContaining(row.reason());
    }

    @Test
    void compressionPointerLoopIsRejected() {
        // Two pointers pointing at each other: 12 -> 14 -> 12. The first already points forward, so it is refused
        // at the first hop; a loop cannot be built from pointers that only point backwards.
        byte[] loop = concat(header(RESPONSE_FLAGS, 1, 0, 0, 0), hex("c00e c00c 0001 0001"));
        assertThatThrownBy(() -> Wire.decode(decoder, loop))
                .isInstanceOf(DnsDecoderException.class).hasMessageContaining("does not point backwards");
        // Backward pointer to a second backward pointer to the first: 14 -> 12, 12 -> 14 again.
        byte[] backLoop = concat(header(RESPONSE_FLAGS, 1, 0, 0, 0), hex("c00e c00c 0001 0001"));
        backLoop[12] = (byte) 0xc0;
        backLoop[13] = 0x0c;
        assertThatThrownBy(() -> Wire.decode(decoder, backLoop))
                .isInstanceOf(DnsDecoderException.class).hasMessageContaining("does not point backwards");
    }

    @Test
    void longPointerChainIsRejected() {
        // A record of an unknown type whose data is 40 pointers, each to the one before it (the first to the
        // question's name): every pointer points backwards, yet a name starting at the last follows 40 of them.
        ByteBuf buf = Unpooled.buffer();
        buf.writeBytes(header(RESPONSE_FLAGS, 1, 2, 0, 0)).writeBytes(hex(QUESTION));
        buf.writeBytes(hex("c00c ff00 0001 00000001")).writeShort(80);
        int previous = 12;
        for (int i = 0; i < 40; i++) {
            int at = buf.writerIndex();
            buf.writeShort(0xC000 | previous);
            previous = at;
        }
        buf.writeShort(0xC000 | previous).writeBytes(hex("0001 0001 00000001 0004 c0000201"));
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        buf.release();
        assertThatThrownBy(() -> Wire.decode(decoder, bytes))
                .isInstanceOf(DnsDecoderException.class).hasMessageContaining("more than 32 compression pointers");
    }

    @Test
    void nameLongerThan255BytesIsRejected() {
        StringBuilder name = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            name.append("3f").append("61".repeat(63));
        }
        byte[] bytes = concat(header(RESPONSE_FLAGS, 1, 0, 0, 0), hex(name + "00 0001 0001"));
        assertThatThrownBy(() -> Wire.decode(decoder, bytes))
                .isInstanceOf(DnsDecoderException.class).hasMessageContaining("longer than 255 bytes");
    }

    @Test
    void truncatedRecordIsRejected() {
        byte[] full = answer("c00c 0001 0001 00000e10 0004 c0000201");
        for (int cut = 29; cut < full.length; cut++) {
            byte[] truncated = java.util.Arrays.copyOf(full, cut);
            assertThatThrownBy(() -> Wire.decode(decoder, truncated)).as("cut at %d", cut)
                    .isInstanceOf(DnsDecoderException.class);
        }
        assertThat(Wire.decode(decoder, full).answers()).hasSize(1);
    }

    @Test
    void oversizedAnswerIsRejected() {
        DnsMessageDecoder small = new DnsMessageDecoder(4);
        byte[] record = hex("c00c 0001 0001 00000e10 0004 c0000201");
        byte[] five = concat(header(RESPONSE_FLAGS, 1, 4, 0, 0), hex(QUESTION), record, record, record, record);
        assertThatThrownBy(() -> Wire.decode(small, five))
                .isInstanceOf(DnsDecoderException.class).hasMessageContaining("5 questions and records; the limit is 4");
        byte[] claimsMany = concat(header(RESPONSE_FLAGS, 1, 0, 0, 0), hex(QUESTION));
        claimsMany[6] = (byte) 0xff;
        assertThatThrownBy(() -> Wire.decode(decoder, claimsMany))
                .isInstanceOf(DnsDecoderException.class).hasMessageContaining("the limit is 256");
        byte[] rdataTooLong = answer("c00c 0001 0001 00000e10 ffff c0000201");
        assertThatThrownBy(() -> Wire.decode(decoder, rdataTooLong))
                .isInstanceOf(DnsDecoderException.class).hasMessageContaining("claims 65535 data bytes but 4 remain");
    }

    @Test
    void oversizedTcpMessageIsRejectedBeforeItIsBuffered() {
        EmbeddedChannel ch = new EmbeddedChannel(new TcpDnsDecoder(new DnsMessageDecoder(), 512));
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.wrappedBuffer(hex("0201 1234"))))
                .isInstanceOf(DnsDecoderException.class).hasMessageContaining("513 bytes is longer than the limit of 512");
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }
}
