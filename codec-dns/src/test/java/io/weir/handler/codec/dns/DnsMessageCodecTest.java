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
import io.weir.channel.DatagramPacket;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.EncoderException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Golden bytes, round trips of every decoded record type, and the UDP and TCP pipeline handlers. */
class DnsMessageCodecTest {
    private final DnsMessageDecoder decoder = new DnsMessageDecoder();

    @Test
    void queryHasTheWireFormOfRfc1035WithAnOptRecord() {
        DnsMessage q = DnsMessage.query(0x1234, new DnsQuestion("a.example", DnsRecordType.AAAA), true, 1232);
        assertThat(Wire.encode(q)).isEqualTo(hex("1234 0100 0001 0000 0000 0001"
                + " 01 61 07 6578616d706c65 00 001c 0001"
                + " 00 0029 04d0 00000000 0000"));
    }

    @Test
    void compressedAnswerDecodes() throws Exception {
        // Answer owner is a pointer to the question name (offset 12); the CNAME target ends in a pointer to
        // "example" inside it (offset 14).
        byte[] bytes = concat(header(RESPONSE_FLAGS, 1, 2, 0, 0), hex(QUESTION),
                hex("c00c 0005 0001 0000012c 0004 01 62 c00e"),
                hex("01 62 c00e 0001 0001 00000e10 0004 c0000201"));
        DnsMessage m = Wire.decode(decoder, bytes);
        assertThat(m.id()).isEqualTo(0x1234);
        assertThat(m.isResponse()).isTrue();
        assertThat(m.rcode()).isEqualTo(DnsResponseCode.NOERROR);
        assertThat(m.questions()).containsExactly(new DnsQuestion("a.example", DnsRecordType.A));
        assertThat(m.answers()).containsExactly(
                new DnsCnameRecord("a.example", 1, 300, "b.example"),
                new DnsAddressRecord("b.example", 1, 3600, InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 1})));
    }

    @Test
    void everyRecordTypeSurvivesEncodingAndDecoding() throws Exception {
        DnsMessage m = new DnsMessage(7, DnsMessage.FLAG_RESPONSE | DnsMessage.FLAG_AUTHORITATIVE | 3,
                List.of(new DnsQuestion("_sip._tcp.example", DnsRecordType.SRV)),
                List.of(new DnsSrvRecord("_sip._tcp.example", 1, 60, 10, 5, 5060, "sip.example"),
                        new DnsTxtRecord("t.example", 1, 60, List.of("v=spf1 -all", "", "\u00ff")),
                        new DnsAddressRecord("v6.example", 1, 1, InetAddress.getByName("2001:db8::1")),
                        new DnsAddressRecord("mapped.example", 1, 1,
                                Inet6Address.getByAddress(null, hex("00000000000000000000ffffc0000201"), -1)),
                        new DnsRawRecord("example", DnsRecordType.MX, 1, 5, hex("000a 00")),
                        new DnsRawRecord("we\\.ird\\000.example", DnsRecordType.valueOf(65280), 1, 5, new byte[0])),
                List.of(new DnsSoaRecord("example", 1, 900, "ns.example", "admin.example", 1, 2, 3, 4, 0xFFFF_FFFFL)),
                List.of(new DnsOptRecord(4096, 0, 0, 0x8000, hex("000a 0002 abcd"))));
        DnsMessage back = Wire.decode(decoder, Wire.encode(m));
        assertThat(back).isEqualTo(m);
        assertThat(back.rcode()).isEqualTo(DnsResponseCode.NXDOMAIN);
        assertThat(back.opt().udpPayloadSize()).isEqualTo(4096);
        assertThat(back.answers().get(3).type()).isEqualTo(DnsRecordType.AAAA);
    }

    @Test
    void ttlWithTheTopBitSetIsReadAsZero() {
        byte[] bytes = concat(header(RESPONSE_FLAGS, 1, 1, 0, 0), hex(QUESTION),
                hex("c00c 0001 0001 80000000 0004 c0000201"));
        assertThat(Wire.decode(decoder, bytes).answers().get(0).ttl()).isZero();
    }

    @Test
    void truncatedResponseKeepsItsWholeRecords() {
        byte[] bytes = concat(header(RESPONSE_FLAGS | DnsMessage.FLAG_TRUNCATED, 1, 3, 0, 0), hex(QUESTION),
                hex("c00c 0001 0001 00000001 0004 c0000201"), hex("c00c 0001 00"));
        DnsMessage m = Wire.decode(decoder, bytes);
        assertThat(m.isTruncated()).isTrue();
        assertThat(m.answers()).hasSize(1);
    }

    @Test
    void namesWithEscapesRoundTrip() {
        assertThat(DnsNames.wireLength("")).isEqualTo(1);
        assertThat(DnsNames.wireLength("example.")).isEqualTo(DnsNames.wireLength("example")).isEqualTo(9);
        assertThat(DnsNames.wireLength("a\\.b.c")).isEqualTo(7);
        assertThat(DnsNames.equalsIgnoreCase("A.Example.", "a.example")).isTrue();
        assertThat(DnsNames.equalsIgnoreCase("a.example", "a.exampl")).isFalse();
        assertThatThrownBy(() -> DnsNames.wireLength("a..b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DnsNames.wireLength("x".repeat(64))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DnsNames.wireLength("b\u00fccher.example"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DnsNames.wireLength("a\\25")).isInstanceOf(IllegalArgumentException.class);
        String longest = "x".repeat(63) + "." + "x".repeat(63) + "." + "x".repeat(63) + "." + "x".repeat(61);
        assertThat(DnsNames.wireLength(longest)).isEqualTo(255);
        assertThatThrownBy(() -> DnsNames.wireLength(longest + "y")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void datagramHandlersCarryTheAddresses() {
        InetSocketAddress server = new InetSocketAddress("127.0.0.1", 53);
        InetSocketAddress client = new InetSocketAddress("127.0.0.1", 40000);
        DnsMessage q = DnsMessage.query(1, new DnsQuestion("a.example", DnsRecordType.A), true, 0);
        EmbeddedChannel ch = new EmbeddedChannel(new DatagramDnsDecoder(), new DatagramDnsEncoder());
        assertThat(ch.writeOutbound(new DnsDatagram(q, null, server))).isTrue();
        DatagramPacket out = ch.readOutbound();
        assertThat(out.recipient()).isEqualTo(server);
        ch.writeInbound(new DatagramPacket(out.content(), client, server));
        DnsDatagram in = ch.readInbound();
        assertThat(in.message()).isEqualTo(q);
        assertThat(in.sender()).isEqualTo(server);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void tcpHandlersFrameWithALengthPrefixAcrossReads() {
        DnsMessage q = DnsMessage.query(2, new DnsQuestion("a.example", DnsRecordType.TXT), false, 0);
        EmbeddedChannel ch = new EmbeddedChannel(new TcpDnsDecoder(), new TcpDnsEncoder());
        assertThat(ch.writeOutbound(q, q)).isTrue();
        ByteBuf first = ch.readOutbound();
        ByteBuf second = ch.readOutbound();
        assertThat(first.getUnsignedShort(0)).isEqualTo(first.readableBytes() - 2);
        ByteBuf both = Unpooled.wrappedBuffer(first, second);
        while (both.isReadable()) {
            ch.writeInbound(both.readRetainedSlice(Math.min(3, both.readableBytes())));
        }
        both.release();
        assertThat((DnsMessage) ch.readInbound()).isEqualTo(q);
        assertThat((DnsMessage) ch.readInbound()).isEqualTo(q);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void unencodableNameFailsTheWrite() {
        DnsMessage q = DnsMessage.query(2, new DnsQuestion("a..example", DnsRecordType.A), false, 0);
        EmbeddedChannel ch = new EmbeddedChannel(new TcpDnsEncoder());
        assertThatThrownBy(() -> ch.writeOutbound(q)).isInstanceOf(EncoderException.class);
        assertThat(ch.finish()).isFalse();
    }
}
