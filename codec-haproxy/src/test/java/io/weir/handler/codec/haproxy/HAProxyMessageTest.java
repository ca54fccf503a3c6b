package io.weir.handler.codec.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a message accepts from its builder, and the canonical forms it keeps. */
class HAProxyMessageTest {

    private static HAProxyMessage tcp6(String source) {
        return new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY, HAProxyProxiedProtocol.TCP6,
                source, "::1", 1, 2, List.of());
    }

    @Test
    void ipv6AddressesAreKeptInTheirRfc5952Form() {
        assertThat(tcp6("2001:0DB8:0000:0000:0000:0000:0000:0001").sourceAddress()).isEqualTo("2001:db8::1");
        assertThat(tcp6("2001:db8:0:1:1:1:1:1").sourceAddress()).isEqualTo("2001:db8:0:1:1:1:1:1");
        assertThat(tcp6("2001:0:0:1:0:0:0:1").sourceAddress()).isEqualTo("2001:0:0:1::1");
        assertThat(tcp6("2001:db8:0:0:1:0:0:1").sourceAddress()).isEqualTo("2001:db8::1:0:0:1");
        assertThat(tcp6("0:0:0:0:0:0:0:0").sourceAddress()).isEqualTo("::");
        assertThat(tcp6("1::").sourceAddress()).isEqualTo("1::");
        assertThat(tcp6("::ffff:c000:0201").sourceAddress()).isEqualTo("::ffff:192.0.2.1");
        assertThat(tcp6("::ffff:c000:0201")).isEqualTo(tcp6("::ffff:192.0.2.1"));
    }

    @Test
    void addressesMustBeLiteralsOfTheProtocolsFamilyAndAreNeverLookedUp() {
        assertThatThrownBy(() -> new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY,
                HAProxyProxiedProtocol.TCP4, "localhost", "127.0.0.1", 1, 2, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'localhost' is not an IPv4");
        assertThatThrownBy(() -> new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY,
                HAProxyProxiedProtocol.TCP4, "::1", "127.0.0.1", 1, 2, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> tcp6("127.0.0.1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HAProxyMessage.tcp(HAProxyProtocolVersion.V2,
                InetSocketAddress.createUnresolved("example.com", 1), new InetSocketAddress("127.0.0.1", 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unresolved");
        assertThatThrownBy(() -> HAProxyMessage.tcp(HAProxyProtocolVersion.V2, new InetSocketAddress("::1", 1),
                new InetSocketAddress("127.0.0.1", 2))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("different address families");
    }

    @Test
    void fieldsThatDoNotFitTheVersionOrProtocolAreRefused() {
        assertThatThrownBy(() -> new HAProxyMessage(HAProxyProtocolVersion.V1, HAProxyCommand.LOCAL,
                HAProxyProxiedProtocol.UNKNOWN, null, null, 0, 0, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version 1 has no LOCAL");
        assertThatThrownBy(() -> new HAProxyMessage(HAProxyProtocolVersion.V1, HAProxyCommand.PROXY,
                HAProxyProxiedProtocol.UDP4, "10.0.0.1", "10.0.0.2", 1, 2, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot carry UDP4");
        assertThatThrownBy(() -> HAProxyMessage.unknown(HAProxyProtocolVersion.V1)
                .withTlvs(List.of(HAProxyTlv.crc32c()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version 1 has no TLVs");
        assertThatThrownBy(() -> new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY,
                HAProxyProxiedProtocol.TCP4, "10.0.0.1", "10.0.0.2", 65536, 2, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("source port: 65536");
        assertThatThrownBy(() -> new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY,
                HAProxyProxiedProtocol.UNKNOWN, "10.0.0.1", null, 0, 0, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no addresses");
        assertThatThrownBy(() -> new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY,
                HAProxyProxiedProtocol.UNIX_STREAM, "/" + "a".repeat(108), "/b", 0, 0, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("109 UTF-8 bytes");
        assertThatThrownBy(() -> new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY,
                HAProxyProxiedProtocol.UNIX_STREAM, "/a", "/b", 1, 0, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no ports");
    }

    @Test
    void tlvsThatBreakTheirTypesRulesAreRefused() {
        HAProxyMessage m = HAProxyMessage.local();
        assertThatThrownBy(() -> m.withTlvs(List.of(HAProxyTlv.ofString(HAProxyTlv.TYPE_AUTHORITY, "a"),
                HAProxyTlv.ofString(HAProxyTlv.TYPE_AUTHORITY, "b")))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than once");
        assertThatThrownBy(() -> m.withTlvs(List.of(new HAProxyTlv(HAProxyTlv.TYPE_UNIQUE_ID, new byte[129]))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("129");
        assertThatThrownBy(() -> m.withTlvs(List.of(new HAProxyTlv(HAProxyTlv.TYPE_CRC32C, new byte[2]))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.withTlvs(List.of(new HAProxyTlv(0x04, new byte[65535]),
                new HAProxyTlv(0x04, new byte[10])))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("65551");
        assertThatThrownBy(() -> new HAProxyTlv(256, new byte[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HAProxyTlv(1, new byte[65536])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HAProxySslTlv(0, 1L << 32, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        // The NOOP and private types may repeat.
        assertThat(m.withTlvs(List.of(new HAProxyTlv(0x04, new byte[1]), new HAProxyTlv(0x04, new byte[1]),
                new HAProxyTlv(0xE0, new byte[1]), new HAProxyTlv(0xE0, new byte[1]))).tlvs()).hasSize(4);
    }

    @Test
    void valuesAreCopiedInAndOut() {
        byte[] value = {1, 2, 3};
        HAProxyTlv t = new HAProxyTlv(HAProxyTlv.TYPE_ALPN, value);
        value[0] = 9;
        t.value()[1] = 9;
        assertThat(t.value()).containsExactly(1, 2, 3);
        HAProxyMessage m = HAProxyMessage.local().withTlvs(List.of(t));
        m.alpn()[0] = 9;
        assertThat(m.alpn()).containsExactly(1, 2, 3);
        assertThatThrownBy(() -> m.tlvs().add(t)).isInstanceOf(UnsupportedOperationException.class);
    }
}
