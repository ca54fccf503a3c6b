package io.weir.handler.codec.haproxy;

import static io.weir.handler.codec.haproxy.Headers.ascii;
import static io.weir.handler.codec.haproxy.Headers.concat;
import static io.weir.handler.codec.haproxy.Headers.hex;
import static io.weir.handler.codec.haproxy.Headers.ipv4Block;
import static io.weir.handler.codec.haproxy.Headers.tlv;
import static io.weir.handler.codec.haproxy.Headers.v2;
import static io.weir.handler.codec.haproxy.Headers.v2WithLength;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.handler.codec.haproxy.HAProxyProtocolException.Reason;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile and malformed headers: a table of inputs with the exact refusal each gets, whole and byte by byte, and
 * tests named after the attacks they repel. A refusal always closes the connection, passes nothing on and leaks
 * nothing.
 */
class HAProxyMessageDecoderAttackTest {

    record Row(String name, byte[] input, Reason reason) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Row row(String name, String ascii, Reason reason) {
        return new Row(name, ascii(ascii), reason);
    }

    private static Row row(String name, byte[] input, Reason reason) {
        return new Row(name, input, reason);
    }

    private static final String V1_TAIL = " 198.51.100.7 51324 443\r\n";

    static Stream<Row> rows() {
        byte[] ssl = concat(hex("01 00000000"), tlv(0x21, ascii("TLSv1.3")));
        byte[] crcHeader = hex(Headers.HAPROXY_V2_CAPTURE.substring(0, 2 * Headers.HAPROXY_V2_CAPTURE_HEADER_BYTES));
        crcHeader[20] ^= 0x01;
        byte[] badUtf8Path = Arrays.copyOf(hex("2f ff fe"), 108);
        return Stream.of(
                row("HTTP request instead of a header", "GET / HTTP/1.1\r\n", Reason.NOT_A_PROXY_HEADER),
                row("TLS ClientHello instead of a header", hex("16030100c4010000c00303"), Reason.NOT_A_PROXY_HEADER),
                row("no space after PROXY", "PROXYTCP4 192.0.2.1" + V1_TAIL, Reason.NOT_A_PROXY_HEADER),
                row("lower-case proxy", "proxy TCP4 192.0.2.1" + V1_TAIL, Reason.NOT_A_PROXY_HEADER),
                row("v2 signature with a wrong fifth byte", hex("0d0a0d0a01"), Reason.NOT_A_PROXY_HEADER),
                row("two spaces after PROXY", "PROXY  TCP4 192.0.2.1" + V1_TAIL, Reason.MALFORMED_V1_LINE),
                row("two spaces between addresses", "PROXY TCP4 192.0.2.1 " + V1_TAIL, Reason.MALFORMED_V1_LINE),
                row("trailing space", "PROXY TCP4 192.0.2.1 198.51.100.7 51324 443 \r\n", Reason.MALFORMED_V1_LINE),
                row("tab as separator", "PROXY TCP4\t192.0.2.1" + V1_TAIL, Reason.MALFORMED_V1_LINE),
                row("lower-case protocol", "PROXY tcp4 192.0.2.1" + V1_TAIL, Reason.MALFORMED_V1_LINE),
                row("unknown protocol word", "PROXY TCP5 192.0.2.1" + V1_TAIL, Reason.MALFORMED_V1_LINE),
                row("UNKNOWN glued to more letters", "PROXY UNKNOWNX\r\n", Reason.MALFORMED_V1_LINE),
                row("empty line", "PROXY \r\n", Reason.MALFORMED_V1_LINE),
                row("missing port", "PROXY TCP4 192.0.2.1 198.51.100.7 51324\r\n", Reason.MALFORMED_V1_LINE),
                row("port with a leading zero", "PROXY TCP4 192.0.2.1 198.51.100.7 051324 443\r\n",
                        Reason.MALFORMED_V1_LINE),
                row("port above 65535", "PROXY TCP4 192.0.2.1 198.51.100.7 65536 443\r\n", Reason.MALFORMED_V1_LINE),
                row("port with a sign", "PROXY TCP4 192.0.2.1 198.51.100.7 +80 443\r\n", Reason.MALFORMED_V1_LINE),
                row("port in hexadecimal", "PROXY TCP4 192.0.2.1 198.51.100.7 0x50 443\r\n",
                        Reason.MALFORMED_V1_LINE),
                row("IPv4 part with a leading zero (octal elsewhere)", "PROXY TCP4 192.0.02.1" + V1_TAIL,
                        Reason.MALFORMED_V1_LINE),
                row("IPv4 part above 255", "PROXY TCP4 192.0.256.1" + V1_TAIL, Reason.MALFORMED_V1_LINE),
                row("IPv4 with three parts", "PROXY TCP4 192.0.2" + V1_TAIL, Reason.MALFORMED_V1_LINE),
                row("IPv4 with five parts", "PROXY TCP4 192.0.2.1.5" + V1_TAIL, Reason.MALFORMED_V1_LINE),
                row("host name instead of an address", "PROXY TCP4 localhost" + V1_TAIL, Reason.MALFORMED_V1_LINE),
                row("IPv6 address after TCP4", "PROXY TCP4 ::1 ::1 1 2\r\n", Reason.MALFORMED_V1_LINE),
                row("IPv4 address after TCP6", "PROXY TCP6 192.0.2.1 ::1 1 2\r\n", Reason.MALFORMED_V1_LINE),
                row("IPv6 with a zone index", "PROXY TCP6 fe80::1%eth0 ::1 1 2\r\n", Reason.MALFORMED_V1_LINE),
                row("IPv6 in brackets", "PROXY TCP6 [::1] ::1 1 2\r\n", Reason.MALFORMED_V1_LINE),
                row("IPv6 with two double colons", "PROXY TCP6 1::2::3 ::1 1 2\r\n", Reason.MALFORMED_V1_LINE),
                row("IPv6 with nine groups", "PROXY TCP6 1:2:3:4:5:6:7:8:9 ::1 1 2\r\n", Reason.MALFORMED_V1_LINE),
                row("IPv6 with seven groups", "PROXY TCP6 1:2:3:4:5:6:7 ::1 1 2\r\n", Reason.MALFORMED_V1_LINE),
                row("IPv6 group of five digits", "PROXY TCP6 12345::1 ::1 1 2\r\n", Reason.MALFORMED_V1_LINE),
                row("lone LF ends the line", "PROXY UNKNOWN\n", Reason.MALFORMED_V1_LINE),
                row("lone CR inside the line", "PROXY UNKNOWN\rX\r\n", Reason.MALFORMED_V1_LINE),
                row("NUL inside the line", "PROXY TCP4 \0" + V1_TAIL, Reason.MALFORMED_V1_LINE),
                row("non-ASCII byte inside the line", "PROXY TCP4 192.0.2.\u00b9" + V1_TAIL, Reason.MALFORMED_V1_LINE),
                row("v2 version 1", v2(0x11, 0x11, ipv4Block()), Reason.UNSUPPORTED_VERSION),
                row("v2 version 3", v2(0x31, 0x11, ipv4Block()), Reason.UNSUPPORTED_VERSION),
                row("v2 command 2", v2(0x22, 0x11, ipv4Block()), Reason.UNSUPPORTED_COMMAND),
                row("v2 command 15", v2(0x2F, 0x11, ipv4Block()), Reason.UNSUPPORTED_COMMAND),
                row("v2 family 4", v2(0x21, 0x41, ipv4Block()), Reason.UNSUPPORTED_PROTOCOL),
                row("v2 transport 3", v2(0x21, 0x13, ipv4Block()), Reason.UNSUPPORTED_PROTOCOL),
                row("v2 IPv4 with unspecified transport", v2(0x21, 0x10, ipv4Block()), Reason.UNSUPPORTED_PROTOCOL),
                row("v2 unlisted family on LOCAL", v2(0x20, 0x41), Reason.UNSUPPORTED_PROTOCOL),
                row("v2 IPv4 block of 8 bytes", v2(0x21, 0x11, new byte[8]), Reason.ADDRESS_BLOCK_TOO_SHORT),
                row("v2 IPv6 block of 12 bytes", v2(0x21, 0x21, ipv4Block()), Reason.ADDRESS_BLOCK_TOO_SHORT),
                row("v2 UNIX block of 108 bytes", v2(0x21, 0x31, new byte[108]), Reason.ADDRESS_BLOCK_TOO_SHORT),
                row("v2 TLV header cut short", v2(0x21, 0x11, ipv4Block(), hex("0200")), Reason.MALFORMED_TLV),
                row("v2 TLV overrunning the header", v2(0x21, 0x11, ipv4Block(), hex("02 000a 6162")),
                        Reason.MALFORMED_TLV),
                row("v2 authority twice", v2(0x21, 0x11, ipv4Block(), tlv(0x02, ascii("a")), tlv(0x02, ascii("b"))),
                        Reason.MALFORMED_TLV),
                row("v2 CRC32C of 3 bytes", v2(0x21, 0x11, ipv4Block(), tlv(0x03, new byte[3])),
                        Reason.MALFORMED_TLV),
                row("v2 unique ID of 129 bytes", v2(0x21, 0x11, ipv4Block(), tlv(0x05, new byte[129])),
                        Reason.MALFORMED_TLV),
                row("v2 SSL TLV of 4 bytes", v2(0x21, 0x11, ipv4Block(), tlv(0x20, new byte[4])),
                        Reason.MALFORMED_TLV),
                row("v2 SSL sub-TLV overrunning the SSL TLV", v2(0x21, 0x11, ipv4Block(),
                        tlv(0x20, concat(hex("01 00000000"), hex("21 0010 544c53")))), Reason.MALFORMED_TLV),
                row("v2 SSL version twice", v2(0x21, 0x11, ipv4Block(),
                        tlv(0x20, concat(ssl, tlv(0x21, ascii("TLSv1.2"))))), Reason.MALFORMED_TLV),
                row("v2 CRC32C mismatch", crcHeader, Reason.CHECKSUM_MISMATCH),
                row("v2 UNIX path not UTF-8", v2(0x21, 0x31, badUtf8Path, new byte[108]), Reason.MALFORMED_ADDRESS),
                row("v2 length field of 65535", v2WithLength(0x21, 0x11, 0xFFFF, ipv4Block()),
                        Reason.HEADER_TOO_LONG));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void isRefusedWithItsReason(Row row) {
        HAProxyProtocolException e = new DecoderFeed().write(concat(row.input(), ascii("GET / HTTP/1.1\r\n\r\n")))
                .refusedFor(row.reason());
        assertThat(e.getMessage()).as("what was seen").isNotBlank();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void isRefusedTheSameWayByteByByte(Row row) {
        new DecoderFeed().writeByteByByte(concat(row.input(), ascii("GET / HTTP/1.1\r\n\r\n")))
                .refusedFor(row.reason());
    }

    // ---------------------------------------------------------------- named attacks

    @Test
    void garbageInsteadOfASignatureIsRejectedAtOnce() {
        // One byte that begins neither header is enough: nothing of a stranger's stream is buffered.
        HAProxyProtocolException e = new DecoderFeed().write(ascii("G")).refusedFor(Reason.NOT_A_PROXY_HEADER);
        assertThat(e.getMessage()).contains("0x47");
        // Nor does a near miss of the binary signature wait for the rest of it.
        DecoderFeed f = new DecoderFeed().writeByteByByte(hex("0d0a0d0a00 0d0a 51 55 49 54"));
        assertThat(f.failure()).isNull();
        f.write(hex("0b")).refusedFor(Reason.NOT_A_PROXY_HEADER);
    }

    @Test
    void oversizedV1LineIsRejected() {
        byte[] line = ascii("PROXY UNKNOWN " + "a".repeat(300));
        DecoderFeed f = new DecoderFeed();
        f.writeByteByByte(Arrays.copyOf(line, HAProxyMessageDecoder.V1_MAX_LINE_BYTES - 1));
        assertThat(f.failure()).as("106 bytes may still end in CRLF").isNull();
        HAProxyProtocolException e = f.write(new byte[] {'a'}).refusedFor(Reason.HEADER_TOO_LONG);
        assertThat(e.getMessage()).contains("107");
        // In one read the same: refused without looking past byte 107.
        new DecoderFeed().write(line).refusedFor(Reason.HEADER_TOO_LONG);
    }

    @Test
    void v2LengthAboveTheCapIsRejected() {
        // Only the 16 fixed bytes are sent: the refusal must not wait for the 65,535 announced ones.
        HAProxyProtocolException e = new DecoderFeed().write(v2WithLength(0x21, 0x11, 0xFFFF, new byte[0]))
                .refusedFor(Reason.HEADER_TOO_LONG);
        assertThat(e.getMessage()).contains("65551").contains(
                String.valueOf(HAProxyDecoderConfig.DEFAULT_MAX_V2_HEADER_BYTES));

        HAProxyDecoderConfig config = new HAProxyDecoderConfig().setMaxV2HeaderBytes(64);
        byte[] atTheCap = v2(0x21, 0x11, ipv4Block(), tlv(0x04, new byte[64 - 16 - 12 - 3]));
        assertThat(atTheCap).hasSize(64);
        DecoderFeed f = new DecoderFeed(config).write(atTheCap);
        assertThat(f.message().proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.TCP4);
        f.finish();
        new DecoderFeed(config).write(v2(0x21, 0x11, ipv4Block(), tlv(0x04, new byte[64 - 16 - 12 - 2])))
                .refusedFor(Reason.HEADER_TOO_LONG);
    }

    @Test
    void tlvOverrunningTheHeaderIsRejected() {
        // The TLV claims 40 bytes, which the payload after the header could supply: they must not be taken.
        byte[] header = v2(0x21, 0x11, ipv4Block(), hex("05 0028 41424344"));
        HAProxyProtocolException e = new DecoderFeed().write(concat(header, new byte[100]))
                .refusedFor(Reason.MALFORMED_TLV);
        assertThat(e.getMessage()).contains("40").contains("4 are left");
    }

    @Test
    void crc32cMismatchIsRejected() {
        byte[] capture = hex(Headers.HAPROXY_V2_CAPTURE);
        // Any flipped bit of the addresses, ports or unique ID is caught by the checksum. (The CRC32C TLV itself,
        // bytes 28 to 34, and the TLV lengths, which the framing checks first, are left out.)
        for (int i = 16; i < Headers.HAPROXY_V2_CAPTURE_HEADER_BYTES; i++) {
            if (i >= 28 && i < 35 || i == 36 || i == 37) {
                continue;
            }
            byte[] tampered = capture.clone();
            tampered[i] ^= 0x10;
            new DecoderFeed().write(tampered).refusedFor(Reason.CHECKSUM_MISMATCH);
        }
    }

    @Test
    void addressBlockShorterThanTheFamilyNeedsIsRejected() {
        // An IPv6 family with an IPv4-sized block: reading 36 bytes would take 24 from the payload.
        HAProxyProtocolException e = new DecoderFeed().write(concat(v2(0x21, 0x21, ipv4Block()), new byte[64]))
                .refusedFor(Reason.ADDRESS_BLOCK_TOO_SHORT);
        assertThat(e.getMessage()).contains("36").contains("12");
    }

    @Test
    void duplicateAuthorityIsRejectedSoTwoReadersCannotDisagree() {
        new DecoderFeed().write(v2(0x21, 0x11, ipv4Block(), tlv(0x02, ascii("good.example")),
                tlv(0x02, ascii("evil.example")))).refusedFor(Reason.MALFORMED_TLV);
    }

    @Test
    void slowlorisHeaderTimesOut() {
        byte[] line = ascii("PROXY TCP4 192.0.2.1 198.51.100.7 51324 443\r\n");
        DecoderFeed f = new DecoderFeed();
        // A byte every 900 ms keeps the connection busy but never finishes in time.
        int sent = 0;
        while (f.ch.isOpen() && sent < line.length - 1) {
            f.write(new byte[] {line[sent++]});
            f.advanceMillis(900);
        }
        assertThat(sent).as("bytes sent before the deadline").isEqualTo(12);
        HAProxyProtocolException e = f.refusedFor(Reason.TIMEOUT);
        assertThat(e.getMessage()).contains("10000 ms").contains("12 byte(s)");
    }

    @Test
    void silentConnectionTimesOut() {
        DecoderFeed f = new DecoderFeed().advanceMillis(HAProxyDecoderConfig.DEFAULT_HEADER_TIMEOUT_MILLIS - 1);
        assertThat(f.ch.isOpen()).isTrue();
        f.advanceMillis(1).refusedFor(Reason.TIMEOUT);
    }

    @Test
    void aCompleteHeaderCancelsTheTimeout() {
        DecoderFeed f = new DecoderFeed().write(ascii("PROXY UNKNOWN\r\n"));
        assertThat(f.ch.hasPendingTasks()).isFalse();
        f.advanceMillis(3_600_000);
        assertThat(f.ch.isOpen()).isTrue();
        assertThat(f.failure()).isNull();
        f.finish();
    }

    @Test
    void aDisabledTimeoutLeavesASilentConnectionToTheServersOtherTimeouts() {
        DecoderFeed f = new DecoderFeed(new HAProxyDecoderConfig().setHeaderTimeoutMillis(0)).advanceMillis(3_600_000);
        assertThat(f.ch.isOpen()).isTrue();
        assertThat(f.failure()).isNull();
        f.finish();
    }
}
