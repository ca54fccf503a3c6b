package io.weir.handler.proxy;

import static io.weir.handler.proxy.ProxyFeed.PROXY;
import static io.weir.handler.proxy.ProxyFeed.ascii;
import static io.weir.handler.proxy.ProxyFeed.concat;
import static io.weir.handler.proxy.ProxyFeed.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.handler.codec.socksx.SocksProtocolException;
import io.weir.handler.proxy.ProxyConnectException.Reason;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** The SOCKS5 client handshake byte for byte, each way it ends, and what the application sees of it. */
class Socks5ProxyHandlerTest {
    static final InetSocketAddress EXAMPLE = InetSocketAddress.createUnresolved("example.com", 443);
    static final byte[] CONNECT_EXAMPLE = ProxyFeed.hex("05 01 00 03 0b 6578616d706c652e636f6d 01bb");
    static final byte[] REPLY_OK = hex("05 00 00 01 7f000001 3039");

    @Test
    void withoutCredentialsTheNameTravelsUnresolvedAndTheTunnelOpens() {
        ProxyFeed f = new ProxyFeed(new Socks5ProxyHandler(PROXY)).connect(EXAMPLE);
        assertThat(f.transport.connectedTo).isEqualTo(PROXY);
        assertThat(f.sent()).isEqualTo(hex("05 01 00"));
        f.reply(hex("05 00"));
        assertThat(f.sent()).isEqualTo(CONNECT_EXAMPLE);
        assertThat(f.connectFuture.isDone()).isFalse();
        f.reply(concat(REPLY_OK, ascii("SSH-2.0-server\r\n")));
        f.established();
        assertThat(f.app.timeline).containsExactly("E", "A", "B");
        assertThat(f.app.text()).isEqualTo("SSH-2.0-server\r\n");
        assertThat(f.app.event).isEqualTo(new ProxyConnectionEvent("socks5", "none", PROXY, EXAMPLE));
        f.finish();
    }

    @Test
    void withCredentialsItAuthenticatesWhenAsked() {
        ProxyFeed f = new ProxyFeed(new Socks5ProxyHandler(PROXY, "alice", "s3cret")).connect(EXAMPLE);
        assertThat(f.sent()).isEqualTo(hex("05 02 00 02"));
        f.reply(hex("05 02"));
        assertThat(f.sent()).isEqualTo(concat(hex("01 05"), ascii("alice"), hex("06"), ascii("s3cret")));
        f.reply(hex("01 00"));
        assertThat(f.sent()).isEqualTo(CONNECT_EXAMPLE);
        f.reply(REPLY_OK);
        f.established();
        assertThat(f.app.event.authScheme()).isEqualTo("password");
        f.finish();
    }

    @Test
    void theWholeAnswerInOneReadWorksToo() {
        ProxyFeed f = new ProxyFeed(new Socks5ProxyHandler(PROXY, "alice", "s3cret")).connect(EXAMPLE);
        f.reply(concat(hex("05 02 01 00"), REPLY_OK));
        f.established();
        f.finish();
    }

    @Test
    void addressesTravelAsAddressesAndResolvedNamesAsNames() throws Exception {
        ProxyFeed ipv4 = new ProxyFeed(new Socks5ProxyHandler(PROXY))
                .connect(new InetSocketAddress(InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 1}), 80));
        ipv4.sent();
        ipv4.reply(hex("05 00"));
        assertThat(ipv4.sent()).isEqualTo(hex("05 01 00 01 c0000201 0050"));
        ipv4.finish();

        ProxyFeed ipv6 = new ProxyFeed(new Socks5ProxyHandler(PROXY))
                .connect(new InetSocketAddress(InetAddress.getByName("2001:db8::1"), 80));
        ipv6.sent();
        ipv6.reply(hex("05 00"));
        assertThat(ipv6.sent()).isEqualTo(hex("05 01 00 04 20010db8000000000000000000000001 0050"));
        ipv6.finish();

        // What Bootstrap.connect("example.com", 443) hands the pipeline: resolved locally, but with its name.
        ProxyFeed named = new ProxyFeed(new Socks5ProxyHandler(PROXY)).connect(new InetSocketAddress(
                InetAddress.getByAddress("example.com", new byte[] {(byte) 192, 0, 2, 1}), 443));
        named.sent();
        named.reply(hex("05 00"));
        assertThat(named.sent()).isEqualTo(CONNECT_EXAMPLE);
        named.finish();
    }

    @Test
    void aWrongPasswordIsAuthRefused() {
        ProxyFeed f = new ProxyFeed(new Socks5ProxyHandler(PROXY, "alice", "wrong")).connect(EXAMPLE);
        f.reply(hex("05 02"), hex("01 01"));
        ProxyConnectException e = f.failedWith(Reason.AUTH_REFUSED);
        assertThat(e.replyCode()).isEqualTo(1);
        assertThat(e.getMessage()).contains("socks5 proxy").contains("/127.0.0.1:1080").contains("example.com")
                .contains("refused the username and password");
    }

    @Test
    void aProxyThatWantsCredentialsWeDoNotHaveIsAuthRefused() {
        ProxyFeed f = new ProxyFeed(new Socks5ProxyHandler(PROXY)).connect(EXAMPLE);
        f.reply(hex("05 ff"));
        assertThat(f.failedWith(Reason.AUTH_REFUSED).replyCode()).isEqualTo(255);
    }

    @Test
    void aMethodThatWasNotOfferedIsAProtocolError() {
        ProxyFeed f = new ProxyFeed(new Socks5ProxyHandler(PROXY)).connect(EXAMPLE);
        f.reply(hex("05 02"));
        assertThat(f.failedWith(Reason.PROTOCOL_ERROR).getMessage()).contains("PASSWORD, which was not offered");
    }

    @Test
    void aRefusedConnectCarriesTheReplyCode() {
        ProxyFeed f = new ProxyFeed(new Socks5ProxyHandler(PROXY)).connect(EXAMPLE);
        f.reply(hex("05 00"), hex("05 05 00 01 00000000 0000"));
        ProxyConnectException e = f.failedWith(Reason.REFUSED);
        assertThat(e.replyCode()).isEqualTo(5);
        assertThat(e.getMessage()).contains("CONNECTION_REFUSED");
    }

    @Test
    void unknownAddressTypeInTheReplyIsAProtocolError() {
        ProxyFeed f = new ProxyFeed(new Socks5ProxyHandler(PROXY)).connect(EXAMPLE);
        f.reply(hex("05 00"), hex("05 00 00 09"));
        ProxyConnectException e = f.failedWith(Reason.PROTOCOL_ERROR);
        assertThat(e.getCause()).isInstanceOf(SocksProtocolException.class);
        assertThat(((SocksProtocolException) e.getCause()).reason())
                .isEqualTo(SocksProtocolException.Reason.UNSUPPORTED_ADDRESS_TYPE);
    }

    @Test
    void domainLongerThan255IsRejectedBeforeTheProxyIsContacted() {
        ProxyFeed f = new ProxyFeed(new Socks5ProxyHandler(PROXY))
                .connect(InetSocketAddress.createUnresolved("a".repeat(256), 443));
        assertThat(f.transport.connectedTo).as("the proxy was not contacted").isNull();
        assertThat(f.failedWith(Reason.UNSUPPORTED_DESTINATION).getMessage()).contains("256 bytes");
    }

    @Test
    void credentialsTheWireCannotCarryAreRefusedAtConstruction() {
        assertThatThrownBy(() -> new Socks5ProxyHandler(PROXY, "u".repeat(256), "p"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
