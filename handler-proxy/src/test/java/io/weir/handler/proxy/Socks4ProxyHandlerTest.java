package io.weir.handler.proxy;

import static io.weir.handler.proxy.ProxyFeed.PROXY;
import static io.weir.handler.proxy.ProxyFeed.ascii;
import static io.weir.handler.proxy.ProxyFeed.concat;
import static io.weir.handler.proxy.ProxyFeed.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.handler.codec.socksx.SocksProtocolException;
import io.weir.handler.proxy.ProxyConnectException.Reason;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** The SOCKS4a client request byte for byte, each way it ends, and what the application sees of it. */
class Socks4ProxyHandlerTest {
    static final InetSocketAddress EXAMPLE = InetSocketAddress.createUnresolved("example.com", 443);
    static final byte[] GRANTED = hex("00 5a 0000 00000000");

    @Test
    void aNameTravelsUnresolvedAsSocks4a() {
        ProxyFeed f = new ProxyFeed(new Socks4ProxyHandler(PROXY, "fred")).connect(EXAMPLE);
        assertThat(f.transport.connectedTo).isEqualTo(PROXY);
        assertThat(f.sent()).isEqualTo(concat(hex("04 01 01bb 00000001"), ascii("fred"), hex("00"),
                ascii("example.com"), hex("00")));
        f.reply(concat(GRANTED, ascii("220 ftp ready\r\n")));
        f.established();
        assertThat(f.app.timeline).containsExactly("E", "A", "B");
        assertThat(f.app.text()).isEqualTo("220 ftp ready\r\n");
        assertThat(f.app.event).isEqualTo(new ProxyConnectionEvent("socks4a", "userid", PROXY, EXAMPLE));
        f.finish();
    }

    @Test
    void anIpv4AddressTravelsAsPlainSocks4() throws Exception {
        ProxyFeed f = new ProxyFeed(new Socks4ProxyHandler(PROXY))
                .connect(new InetSocketAddress(InetAddress.getByAddress(new byte[] {10, 0, 0, 7}), 80));
        assertThat(f.sent()).isEqualTo(hex("04 01 0050 0a000007 00"));
        f.reply(GRANTED);
        f.established();
        assertThat(f.app.event.authScheme()).isEqualTo("none");
        f.finish();
    }

    @Test
    void anIpv6DestinationIsRejectedBeforeTheProxyIsContacted() throws Exception {
        ProxyFeed f = new ProxyFeed(new Socks4ProxyHandler(PROXY))
                .connect(new InetSocketAddress(InetAddress.getByName("::1"), 80));
        assertThat(f.transport.connectedTo).isNull();
        assertThat(f.failedWith(Reason.UNSUPPORTED_DESTINATION).getMessage()).contains("IPv6");
    }

    @Test
    void aRejectedRequestCarriesTheReplyCode() {
        ProxyFeed f = new ProxyFeed(new Socks4ProxyHandler(PROXY)).connect(EXAMPLE);
        f.sent();
        f.reply(hex("00 5b 0000 00000000"));
        ProxyConnectException e = f.failedWith(Reason.REFUSED);
        assertThat(e.replyCode()).isEqualTo(91);
        assertThat(e.getMessage()).contains("socks4a proxy").contains("91 (REJECTED)");
    }

    @Test
    void anIdentdMismatchIsAuthRefused() {
        ProxyFeed f = new ProxyFeed(new Socks4ProxyHandler(PROXY, "mallory")).connect(EXAMPLE);
        f.sent();
        f.reply(hex("00 5d 0000 00000000"));
        assertThat(f.failedWith(Reason.AUTH_REFUSED).replyCode()).isEqualTo(93);
    }

    @Test
    void aMalformedReplyIsAProtocolError() {
        ProxyFeed f = new ProxyFeed(new Socks4ProxyHandler(PROXY)).connect(EXAMPLE);
        f.sent();
        f.reply(hex("04 5a"));
        ProxyConnectException e = f.failedWith(Reason.PROTOCOL_ERROR);
        assertThat(((SocksProtocolException) e.getCause()).reason())
                .isEqualTo(SocksProtocolException.Reason.UNSUPPORTED_VERSION);
    }
}
