package io.weir.resolver.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** resolv.conf and hosts files as the resolver reads them, from test files rather than the system's. */
class ResolvConfTest {
    private static InetSocketAddress ns(String ip) {
        return new InetSocketAddress(IpLiterals.parse(ip), 53);
    }

    @Test
    void readsServersSearchAndOptions() throws IOException {
        ResolvConf c = ResolvConf.parse(new StringReader("""
                # written by hand
                nameserver 192.0.2.53
                nameserver 2001:db8::53   ; comment
                nameserver not-an-address
                domain ignored.example
                search Corp.Example. lab.example
                options ndots:3 timeout:2 attempts:4 rotate edns0
                sortlist 130.155.160.0/255.255.240.0
                """));
        assertThat(c.nameServers()).containsExactly(ns("192.0.2.53"), ns("2001:db8::53"));
        assertThat(c.searchDomains()).containsExactly("corp.example", "lab.example");
        assertThat(c.ndots()).isEqualTo(3);
        assertThat(c.timeoutSeconds()).isEqualTo(2);
        assertThat(c.attempts()).isEqualTo(4);
        assertThat(c.rotate()).isTrue();
    }

    @Test
    void boundsAndDefaultsHold() throws IOException {
        ResolvConf c = ResolvConf.parse(new StringReader("""
                nameserver 10.0.0.1
                nameserver 10.0.0.2
                nameserver 10.0.0.3
                nameserver 10.0.0.4
                search a b c d e f g h
                options ndots:99 timeout:0 attempts:x
                """));
        assertThat(c.nameServers()).hasSize(ResolvConf.MAX_NAME_SERVERS);
        assertThat(c.searchDomains()).hasSize(ResolvConf.MAX_SEARCH_DOMAINS);
        assertThat(c.ndots()).isEqualTo(ResolvConf.MAX_NDOTS);
        assertThat(c.timeoutSeconds()).isEqualTo(1);
        assertThat(c.attempts()).isEqualTo(ResolvConf.DEFAULT_ATTEMPTS);
        assertThat(ResolvConf.parse(new StringReader(""))).isEqualTo(ResolvConf.empty());
    }

    @Test
    void endlessFileIsReadOnlyUpToItsCap() throws IOException {
        String huge = "search x.example\n".repeat(10_000) + "nameserver 192.0.2.1\n";
        ResolvConf c = ResolvConf.parse(new StringReader(huge));
        assertThat(c.nameServers()).isEmpty();
        assertThat(c.searchDomains()).containsExactly("x.example");
    }

    @Test
    void missingFileIsEmpty(@TempDir Path dir) throws IOException {
        assertThat(ResolvConf.parse(dir.resolve("none"))).isEqualTo(ResolvConf.empty());
        assertThat(HostsFile.parse(dir.resolve("none")).addresses("localhost", ResolvedAddressTypes.IPV4_PREFERRED))
                .isEmpty();
        Path conf = Files.writeString(dir.resolve("resolv.conf"), "nameserver 127.0.0.53\n");
        assertThat(ResolvConf.parse(conf).nameServers()).containsExactly(ns("127.0.0.53"));
    }

    @Test
    void hostsFileMatchesIgnoringCaseAndOrdersFamilies() throws IOException {
        HostsFile h = HostsFile.parse(new StringReader("""
                127.0.0.1   localhost
                ::1         localhost ip6-localhost
                192.0.2.7   Web.Example web   # the web server
                bogus       nothing.example
                10.0.0.1
                192.0.2.8   web.example
                """));
        InetAddress v4 = IpLiterals.parse("127.0.0.1");
        InetAddress v6 = IpLiterals.parse("::1");
        assertThat(h.addresses("LOCALHOST.", ResolvedAddressTypes.IPV4_PREFERRED)).containsExactly(v4, v6);
        assertThat(h.addresses("localhost", ResolvedAddressTypes.IPV6_PREFERRED)).containsExactly(v6, v4);
        assertThat(h.addresses("localhost", ResolvedAddressTypes.IPV6_ONLY)).containsExactly(v6);
        assertThat(h.addresses("web.example", ResolvedAddressTypes.IPV4_ONLY))
                .containsExactly(IpLiterals.parse("192.0.2.7"), IpLiterals.parse("192.0.2.8"));
        assertThat(h.addresses("nothing.example", ResolvedAddressTypes.IPV4_PREFERRED)).isEmpty();
    }

    @Test
    void ipLiteralsParseWithoutLookups() {
        assertThat(IpLiterals.parse("192.0.2.1").getHostAddress()).isEqualTo("192.0.2.1");
        for (String notLiteral : List.of("example.com", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1..2.3", "1.2.3.", "",
                "::g", "1.2.3.4a")) {
            assertThat(IpLiterals.parse(notLiteral)).as(notLiteral).isNull();
        }
        assertThat(IpLiterals.parse("[::1]")).isEqualTo(IpLiterals.parse("::1"));
    }
}
