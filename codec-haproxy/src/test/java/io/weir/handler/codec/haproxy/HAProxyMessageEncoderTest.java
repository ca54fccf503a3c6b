package io.weir.handler.codec.haproxy;

import static io.weir.handler.codec.haproxy.Headers.ascii;
import static io.weir.handler.codec.haproxy.Headers.concat;
import static io.weir.handler.codec.haproxy.Headers.hex;
import static io.weir.handler.codec.haproxy.Headers.ipv4Block;
import static io.weir.handler.codec.haproxy.Headers.v2;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.channel.embedded.EmbeddedChannel;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The encoder's exact bytes, and messages of every kind surviving encoder then decoder unchanged. */
class HAProxyMessageEncoderTest {

    /** Encodes {@code msg} through the encoder on a channel and returns the bytes written. */
    static byte[] encode(HAProxyMessage msg) {
        EmbeddedChannel ch = new EmbeddedChannel(HAProxyMessageEncoder.INSTANCE);
        ch.writeOutbound(msg);
        ByteBuf out = ch.readOutbound();
        try {
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
            assertThat(ch.finish()).isFalse();
        }
    }

    private static final InetSocketAddress CLIENT4 = new InetSocketAddress("192.0.2.1", 51324);
    private static final InetSocketAddress SERVER4 = new InetSocketAddress("198.51.100.7", 443);
    private static final InetSocketAddress CLIENT6 = new InetSocketAddress("2001:db8::1", 51324);
    private static final InetSocketAddress SERVER6 = new InetSocketAddress("2001:db8:0:0:1::2", 443);

    static Stream<HAProxyMessage> messages() {
        HAProxySslTlv ssl = new HAProxySslTlv(HAProxySslTlv.CLIENT_SSL | HAProxySslTlv.CLIENT_CERT_CONN, 0,
                List.of(HAProxyTlv.ofString(HAProxyTlv.SUBTYPE_SSL_VERSION, "TLSv1.3"),
                        HAProxyTlv.ofString(HAProxyTlv.SUBTYPE_SSL_CN, "client.example")));
        List<HAProxyTlv> all = List.of(new HAProxyTlv(HAProxyTlv.TYPE_ALPN, ascii("h2")),
                HAProxyTlv.ofString(HAProxyTlv.TYPE_AUTHORITY, "example.com"),
                HAProxyTlv.ofString(HAProxyTlv.TYPE_UNIQUE_ID, "id-1"), ssl.toTlv(),
                HAProxyTlv.ofString(HAProxyTlv.TYPE_NETNS, "blue"), new HAProxyTlv(HAProxyTlv.TYPE_NOOP, new byte[5]),
                new HAProxyTlv(0xE7, hex("00ff")));
        return Stream.of(
                HAProxyMessage.tcp(HAProxyProtocolVersion.V1, CLIENT4, SERVER4),
                HAProxyMessage.tcp(HAProxyProtocolVersion.V1, CLIENT6, SERVER6),
                HAProxyMessage.unknown(HAProxyProtocolVersion.V1),
                HAProxyMessage.tcp(HAProxyProtocolVersion.V2, CLIENT4, SERVER4),
                HAProxyMessage.tcp(HAProxyProtocolVersion.V2, CLIENT6, SERVER6).withTlvs(all),
                new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY, HAProxyProxiedProtocol.UDP4,
                        "10.0.0.1", "10.0.0.2", 5353, 53, List.of()),
                new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY, HAProxyProxiedProtocol.UDP6,
                        "::ffff:10.0.0.1", "fe80::1", 0, 65535, List.of()),
                new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY, HAProxyProxiedProtocol.UNIX_STREAM,
                        "/run/a.sock", "/run/" + "é".repeat(50) + ".sx", 0, 0, List.of(HAProxyTlv.crc32c())),
                new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY, HAProxyProxiedProtocol.UNIX_DGRAM,
                        "", "/dev/log", 0, 0, List.of()),
                HAProxyMessage.local(),
                HAProxyMessage.local().withTlvs(List.of(HAProxyTlv.crc32c(),
                        HAProxyTlv.ofString(HAProxyTlv.TYPE_UNIQUE_ID, "check"))),
                HAProxyMessage.unknown(HAProxyProtocolVersion.V2),
                HAProxyMessage.tcp(HAProxyProtocolVersion.V2, CLIENT4, SERVER4).withTlvs(List.of(
                        HAProxyTlv.ofString(HAProxyTlv.TYPE_AUTHORITY, "example.com"), HAProxyTlv.crc32c())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void roundTripsUnchanged(HAProxyMessage sent) {
        byte[] payload = ascii("payload after the header");
        DecoderFeed f = new DecoderFeed().write(concat(encode(sent), payload));
        HAProxyMessage received = f.message();
        if (sent.hasCrc32c()) {
            // The encoder filled in the checksum the sent message left as zeroes; everything else is equal.
            assertThat(received.tlv(HAProxyTlv.TYPE_CRC32C).value()).isNotEqualTo(new byte[4]);
            assertThat(received.withTlvs(withoutCrc(received.tlvs()))).isEqualTo(sent.withTlvs(withoutCrc(sent.tlvs())));
        } else {
            assertThat(received).isEqualTo(sent);
        }
        assertThat(received.ssl()).isEqualTo(sent.ssl());
        assertThat(f.payload()).isEqualTo(payload);
        f.finish();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void roundTripsByteByByte(HAProxyMessage sent) {
        DecoderFeed f = new DecoderFeed().writeByteByByte(encode(sent));
        assertThat(f.message().withTlvs(withoutCrc(f.message().tlvs())))
                .isEqualTo(sent.withTlvs(withoutCrc(sent.tlvs())));
        f.finish();
    }

    private static List<HAProxyTlv> withoutCrc(List<HAProxyTlv> tlvs) {
        return tlvs.stream().filter(t -> t.type() != HAProxyTlv.TYPE_CRC32C).toList();
    }

    @Test
    void v1LinesAreExact() {
        assertThat(new String(encode(HAProxyMessage.tcp(HAProxyProtocolVersion.V1, CLIENT4, SERVER4)),
                StandardCharsets.US_ASCII)).isEqualTo("PROXY TCP4 192.0.2.1 198.51.100.7 51324 443\r\n");
        assertThat(new String(encode(HAProxyMessage.tcp(HAProxyProtocolVersion.V1, CLIENT6, SERVER6)),
                StandardCharsets.US_ASCII)).isEqualTo("PROXY TCP6 2001:db8::1 2001:db8::1:0:0:2 51324 443\r\n");
        assertThat(new String(encode(HAProxyMessage.unknown(HAProxyProtocolVersion.V1)), StandardCharsets.US_ASCII))
                .isEqualTo("PROXY UNKNOWN\r\n");
    }

    @Test
    void v2HeadersAreExact() {
        assertThat(encode(HAProxyMessage.tcp(HAProxyProtocolVersion.V2, CLIENT4, SERVER4)))
                .isEqualTo(v2(0x21, 0x11, ipv4Block()));
        assertThat(encode(HAProxyMessage.local())).isEqualTo(v2(0x20, 0x00));
        assertThat(encode(HAProxyMessage.unknown(HAProxyProtocolVersion.V2))).isEqualTo(v2(0x21, 0x00));
    }

    @Test
    void reEncodingHAProxysOwnHeaderGivesItsExactBytesCrc32cIncluded() {
        byte[] capture = Arrays.copyOf(hex(Headers.HAPROXY_V2_CAPTURE), Headers.HAPROXY_V2_CAPTURE_HEADER_BYTES);
        HAProxyMessage decoded = new DecoderFeed().write(capture).message();
        // Zero the checksum: the encoder must compute HAProxy's value itself.
        List<HAProxyTlv> tlvs = decoded.tlvs().stream()
                .map(t -> t.type() == HAProxyTlv.TYPE_CRC32C ? HAProxyTlv.crc32c() : t).toList();
        assertThat(encode(decoded.withTlvs(tlvs))).isEqualTo(capture);
    }

    @Test
    void messagesOfOtherTypesPassThrough() {
        EmbeddedChannel ch = new EmbeddedChannel(HAProxyMessageEncoder.INSTANCE);
        ch.writeOutbound("not a header");
        assertThat(ch.<Object>readOutbound()).isEqualTo("not a header");
        assertThat(ch.finish()).isFalse();
    }
}
