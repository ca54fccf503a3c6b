package io.weir.handler.codec.haproxy;

import static io.weir.handler.codec.haproxy.Headers.ascii;
import static io.weir.handler.codec.haproxy.Headers.concat;
import static io.weir.handler.codec.haproxy.Headers.hex;
import static io.weir.handler.codec.haproxy.Headers.ipv4Block;
import static io.weir.handler.codec.haproxy.Headers.tlv;
import static io.weir.handler.codec.haproxy.Headers.v2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Golden headers of both versions, and what the decoder does with the bytes around them. */
class HAProxyMessageDecoderTest {

    @Test
    void v1Tcp4LineGivesTheClientAddressAndRemovesTheDecoder() throws Exception {
        DecoderFeed f = new DecoderFeed().write(ascii("PROXY TCP4 192.0.2.1 198.51.100.7 51324 443\r\n"));
        HAProxyMessage m = f.message();
        assertThat(m.version()).isEqualTo(HAProxyProtocolVersion.V1);
        assertThat(m.command()).isEqualTo(HAProxyCommand.PROXY);
        assertThat(m.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.TCP4);
        assertThat(m.sourceAddress()).isEqualTo("192.0.2.1");
        assertThat(m.destinationAddress()).isEqualTo("198.51.100.7");
        assertThat(m.sourcePort()).isEqualTo(51324);
        assertThat(m.destinationPort()).isEqualTo(443);
        assertThat(m.tlvs()).isEmpty();
        InetSocketAddress client = new InetSocketAddress(InetAddress.getByName("192.0.2.1"), 51324);
        assertThat(f.ch.attr(HAProxyMessageDecoder.SOURCE_ADDRESS).get()).isEqualTo(client);
        assertThat(f.ch.attr(HAProxyMessageDecoder.MESSAGE).get()).isSameAs(m);
        assertThat(HAProxyMessageDecoder.clientAddress(f.ch)).isEqualTo(client);
        assertThat(f.decoderInPipeline()).isFalse();
        assertThat(f.ch.isOpen()).isTrue();
        f.finish();
    }

    @Test
    void v1Tcp6LineAcceptsCompressedAndIpv4MappedForms() {
        DecoderFeed f = new DecoderFeed().write(ascii("PROXY TCP6 2001:DB8:0:0:0:0:0:1 ::ffff:127.0.0.1 0 65535\r\n"));
        HAProxyMessage m = f.message();
        assertThat(m.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.TCP6);
        assertThat(m.sourceAddress()).isEqualTo("2001:db8::1");
        assertThat(m.destinationAddress()).isEqualTo("::ffff:127.0.0.1");
        assertThat(m.sourcePort()).isZero();
        assertThat(m.destinationPort()).isEqualTo(65535);
        assertThat(m.destinationSocketAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        f.finish();
    }

    @Test
    void v1UnknownIgnoresTheRestOfTheLineAndSetsNoAddress() {
        for (String line : new String[] {"PROXY UNKNOWN\r\n",
                "PROXY UNKNOWN ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff "
                        + "65535 65535\r\n"}) {
            DecoderFeed f = new DecoderFeed().write(ascii(line + "payload"));
            HAProxyMessage m = f.message();
            assertThat(m.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.UNKNOWN);
            assertThat(m.sourceAddress()).isNull();
            assertThat(m.sourceSocketAddress()).isNull();
            assertThat(f.ch.hasAttr(HAProxyMessageDecoder.SOURCE_ADDRESS)).isFalse();
            assertThat(HAProxyMessageDecoder.clientAddress(f.ch)).isEqualTo(f.ch.remoteAddress());
            assertThat(f.payloadText()).isEqualTo("payload");
            f.finish();
        }
    }

    @Test
    void theLongestV1LineOf107BytesIsAccepted() {
        String line = "PROXY UNKNOWN ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"
                + " 65535 65535\r\n";
        assertThat(line).hasSize(HAProxyMessageDecoder.V1_MAX_LINE_BYTES);
        DecoderFeed f = new DecoderFeed().writeByteByByte(ascii(line));
        assertThat(f.message().proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.UNKNOWN);
        f.finish();
    }

    @Test
    void v2Tcp4HeaderIsDecoded() throws Exception {
        DecoderFeed f = new DecoderFeed().write(v2(0x21, 0x11, ipv4Block()));
        HAProxyMessage m = f.message();
        assertThat(m.version()).isEqualTo(HAProxyProtocolVersion.V2);
        assertThat(m.command()).isEqualTo(HAProxyCommand.PROXY);
        assertThat(m.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.TCP4);
        assertThat(m.sourceSocketAddress()).isEqualTo(new InetSocketAddress(InetAddress.getByName("192.0.2.1"), 51324));
        assertThat(m.destinationSocketAddress())
                .isEqualTo(new InetSocketAddress(InetAddress.getByName("198.51.100.7"), 443));
        assertThat(HAProxyMessageDecoder.clientAddress(f.ch)).isEqualTo(m.sourceSocketAddress());
        f.finish();
    }

    @Test
    void v2Udp6HeaderIsDecoded() {
        byte[] block = concat(hex("20010db8000000000000000000000001"), hex("20010db8000000000000000000000002"),
                hex("1f90 0035"));
        HAProxyMessage m = new DecoderFeed().write(v2(0x21, 0x22, block)).message();
        assertThat(m.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.UDP6);
        assertThat(m.sourceAddress()).isEqualTo("2001:db8::1");
        assertThat(m.destinationAddress()).isEqualTo("2001:db8::2");
        assertThat(m.sourcePort()).isEqualTo(8080);
        assertThat(m.destinationPort()).isEqualTo(53);
    }

    @Test
    void v2UnixStreamHeaderGivesPathsAndNoInetAddress() {
        byte[] src = Arrays.copyOf(ascii("/run/client.sock"), 108);
        byte[] dst = Arrays.copyOf("/run/sérvice.sock".getBytes(StandardCharsets.UTF_8), 108);
        DecoderFeed f = new DecoderFeed().write(v2(0x21, 0x31, src, dst));
        HAProxyMessage m = f.message();
        assertThat(m.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.UNIX_STREAM);
        assertThat(m.sourceAddress()).isEqualTo("/run/client.sock");
        assertThat(m.destinationAddress()).isEqualTo("/run/sérvice.sock");
        assertThat(m.sourceSocketAddress()).isNull();
        assertThat(f.ch.hasAttr(HAProxyMessageDecoder.SOURCE_ADDRESS)).isFalse();
        assertThat(f.ch.attr(HAProxyMessageDecoder.MESSAGE).get()).isSameAs(m);
        f.finish();
    }

    @Test
    void v2LocalIsAcceptedAndKeepsTheConnectionsOwnAddress() {
        DecoderFeed f = new DecoderFeed().write(concat(v2(0x20, 0x00), ascii("health")));
        HAProxyMessage m = f.message();
        assertThat(m.command()).isEqualTo(HAProxyCommand.LOCAL);
        assertThat(m.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.UNKNOWN);
        assertThat(f.ch.hasAttr(HAProxyMessageDecoder.SOURCE_ADDRESS)).isFalse();
        assertThat(HAProxyMessageDecoder.clientAddress(f.ch)).isEqualTo(f.ch.remoteAddress());
        assertThat(f.payloadText()).isEqualTo("health");
        f.finish();
    }

    @Test
    void v2LocalWithAddressesIsAcceptedButSetsNoSourceAddress() {
        HAProxyMessage m = new DecoderFeed().write(v2(0x20, 0x11, ipv4Block())).message();
        assertThat(m.command()).isEqualTo(HAProxyCommand.LOCAL);
        assertThat(m.sourceAddress()).isEqualTo("192.0.2.1");
        DecoderFeed f = new DecoderFeed().write(v2(0x20, 0x11, ipv4Block()));
        assertThat(f.ch.hasAttr(HAProxyMessageDecoder.SOURCE_ADDRESS)).isFalse();
        f.finish();
    }

    @Test
    void v2LocalWhoseFamilyDoesNotFitIsReadAsUnspecified() {
        // §2.2: for LOCAL the family is ignored; a TCP4 family with a zero length is a valid health check.
        HAProxyMessage m = new DecoderFeed().write(v2(0x20, 0x11)).message();
        assertThat(m.command()).isEqualTo(HAProxyCommand.LOCAL);
        assertThat(m.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.UNKNOWN);
    }

    @Test
    void v2TlvsAreKeptInOrderWithTypedAccessors() {
        byte[] ssl = concat(hex("07 00000000"), tlv(0x21, ascii("TLSv1.3")), tlv(0x22, ascii("client.example")),
                tlv(0x23, ascii("TLS_AES_128_GCM_SHA256")), tlv(0x24, ascii("SHA256")), tlv(0x25, ascii("EC256")));
        byte[] body = concat(ipv4Block(), tlv(0x01, ascii("h2")), tlv(0x02, ascii("example.com")),
                tlv(0x04, new byte[3]), tlv(0x05, ascii("id-42")), tlv(0x20, ssl), tlv(0x30, ascii("blue")),
                tlv(0x04, new byte[0]), tlv(0xE0, hex("cafe")));
        HAProxyMessage m = new DecoderFeed().write(v2(0x21, 0x11, body)).message();
        assertThat(m.tlvs()).extracting(HAProxyTlv::type)
                .containsExactly(0x01, 0x02, 0x04, 0x05, 0x20, 0x30, 0x04, 0xE0);
        assertThat(m.alpn()).isEqualTo(ascii("h2"));
        assertThat(m.authority()).isEqualTo("example.com");
        assertThat(m.uniqueId()).isEqualTo(ascii("id-42"));
        assertThat(m.netns()).isEqualTo("blue");
        assertThat(m.hasCrc32c()).isFalse();
        assertThat(m.tlv(0xE0).value()).isEqualTo(hex("cafe"));
        HAProxySslTlv s = m.ssl();
        assertThat(s.isSsl()).isTrue();
        assertThat(s.hasClientCertificateOnConnection()).isTrue();
        assertThat(s.hasClientCertificateOnSession()).isTrue();
        assertThat(s.verify()).isZero();
        assertThat(s.version()).isEqualTo("TLSv1.3");
        assertThat(s.commonName()).isEqualTo("client.example");
        assertThat(s.cipher()).isEqualTo("TLS_AES_128_GCM_SHA256");
        assertThat(s.signatureAlgorithm()).isEqualTo("SHA256");
        assertThat(s.keyAlgorithm()).isEqualTo("EC256");
    }

    @Test
    void v2UnspecifiedFamilyCarriesOnlyTlvs() {
        HAProxyMessage m = new DecoderFeed().write(v2(0x21, 0x00, tlv(0x02, ascii("a.example")))).message();
        assertThat(m.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.UNKNOWN);
        assertThat(m.authority()).isEqualTo("a.example");
    }

    @Test
    void aHeaderCapturedFromHAProxyPassesItsCrc32cAndKeepsThePayload() {
        DecoderFeed f = new DecoderFeed().write(hex(Headers.HAPROXY_V2_CAPTURE));
        HAProxyMessage m = f.message();
        assertThat(m.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.TCP4);
        assertThat(m.sourceAddress()).isEqualTo("127.0.0.1");
        assertThat(m.sourcePort()).isEqualTo(33504);
        assertThat(m.destinationPort()).isEqualTo(18443);
        assertThat(m.hasCrc32c()).isTrue();
        assertThat(new String(m.uniqueId(), StandardCharsets.US_ASCII)).isEqualTo("weir-127.0.0.1-33504");
        assertThat(f.payloadText()).isEqualTo("hello\n");
        f.finish();
    }

    @Test
    void headerAndPayloadInOneReadPassThePayloadOnIntactAfterTheMessage() {
        byte[] payload = new byte[4096];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31);
        }
        DecoderFeed f = new DecoderFeed().write(concat(ascii("PROXY TCP4 192.0.2.1 198.51.100.7 51324 443\r\n"),
                payload));
        assertThat(f.order()).isEqualTo("MB");
        assertThat(f.payload()).isEqualTo(payload);
        // Later reads go straight past: the decoder is gone.
        f.write(ascii("PROXY TCP4 10.0.0.1 10.0.0.2 1 2\r\n"));
        assertThat(f.messages()).hasSize(1);
        assertThat(f.payload()).endsWith(ascii("PROXY TCP4 10.0.0.1 10.0.0.2 1 2\r\n"));
        f.finish();
    }

    @Test
    void v2HeaderSplitByteByByteIsDecodedOnceComplete() {
        HAProxyMessage sent = HAProxyMessage.tcp(HAProxyProtocolVersion.V2, new InetSocketAddress("192.0.2.1", 51324),
                new InetSocketAddress("198.51.100.7", 443)).withTlvs(List.of(HAProxyTlv.crc32c(),
                HAProxyTlv.ofString(HAProxyTlv.TYPE_AUTHORITY, "example.com")));
        byte[] header = HAProxyMessageEncoder.v2Header(sent);
        DecoderFeed f = new DecoderFeed();
        for (int i = 0; i < header.length - 1; i++) {
            f.write(new byte[] {header[i]});
            assertThat(f.messages()).as("after %d bytes", i + 1).isEmpty();
            assertThat(f.failure()).isNull();
        }
        f.write(concat(new byte[] {header[header.length - 1]}, ascii("after")));
        assertThat(f.message().authority()).isEqualTo("example.com");
        assertThat(f.message().hasCrc32c()).isTrue();
        assertThat(f.payloadText()).isEqualTo("after");
        f.finish();
    }

    @Test
    void v1LineSplitByteByByteIsDecodedOnceComplete() {
        DecoderFeed f = new DecoderFeed().writeByteByByte(ascii("PROXY TCP6 ::1 fe80::1 1 2\r\nxyz"));
        assertThat(f.message().sourceAddress()).isEqualTo("::1");
        assertThat(f.payloadText()).isEqualTo("xyz");
        assertThat(f.order()).startsWith("MB");
        f.finish();
    }

    @Test
    void bytesBeforeTheHeaderCompletesAreHeldNotPassedOn() {
        DecoderFeed f = new DecoderFeed().write(ascii("PROXY TCP4 192.0.2.1 "));
        assertThat(f.messages()).isEmpty();
        assertThat(f.payload()).isEmpty();
        assertThat(f.decoderInPipeline()).isTrue();
        // The channel closing with a partial header drops it without complaint or leak.
        f.finish();
        assertThat(f.failure()).isNull();
    }

    @Test
    void optionalHeaderLetsAConnectionWithoutOneThroughUntouched() {
        HAProxyDecoderConfig config = new HAProxyDecoderConfig().setHeaderOptional(true);
        DecoderFeed f = new DecoderFeed(config).write(ascii("GET / HTTP/1.1\r\n"));
        assertThat(f.messages()).isEmpty();
        assertThat(f.payloadText()).isEqualTo("GET / HTTP/1.1\r\n");
        assertThat(f.decoderInPipeline()).isFalse();
        assertThat(f.ch.hasAttr(HAProxyMessageDecoder.SOURCE_ADDRESS)).isFalse();
        assertThat(HAProxyMessageDecoder.clientAddress(f.ch)).isEqualTo(f.ch.remoteAddress());
        f.finish();

        // A prefix of the signature is held until a byte differs, then handed on whole.
        f = new DecoderFeed(config).write(ascii("PRO"), ascii("MPT\r\n"));
        assertThat(f.messages()).isEmpty();
        assertThat(f.payloadText()).isEqualTo("PROMPT\r\n");
        f.finish();

        f = new DecoderFeed(config).write(ascii("PROXY TCP4 192.0.2.1 198.51.100.7 51324 443\r\nrest"));
        assertThat(f.message().sourcePort()).isEqualTo(51324);
        assertThat(f.payloadText()).isEqualTo("rest");
        f.finish();
    }

    @Test
    void optionalHeaderStillRefusesABrokenOne() {
        new DecoderFeed(new HAProxyDecoderConfig().setHeaderOptional(true))
                .write(ascii("PROXY TCP4 192.0.2.1 198.51.100.7 51324 99999\r\n"))
                .refusedFor(HAProxyProtocolException.Reason.MALFORMED_V1_LINE);
    }

    @Test
    void bytesAfterARefusalInTheSameReadLoopAreDroppedAndReleased() {
        HAProxyMessageDecoder decoder = new HAProxyMessageDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ByteBuf bad = Unpooled.copiedBuffer(ascii("XYZ"));
        ByteBuf extra = Unpooled.copiedBuffer(ascii("PROXY UNKNOWN\r\n"));
        assertThatThrownBy(() -> ch.writeInbound(bad, extra))
                .isInstanceOf(HAProxyProtocolException.class);
        assertThat(ch.isOpen()).isFalse();
        assertThat(ch.<Object>readInbound()).isNull();
        assertThat(bad.refCnt()).isZero();
        assertThat(extra.refCnt()).isZero();
        ch.finishAndReleaseAll();
    }
}
