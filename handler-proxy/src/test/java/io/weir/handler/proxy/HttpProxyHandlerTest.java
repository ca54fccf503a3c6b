package io.weir.handler.proxy;

import static io.weir.handler.proxy.ProxyFeed.PROXY;
import static io.weir.handler.proxy.ProxyFeed.ascii;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.handler.codec.http.DefaultHttpHeaders;
import io.weir.handler.codec.http.TooLongHttpHeaderException;
import io.weir.handler.codec.http.TooLongHttpLineException;
import io.weir.handler.proxy.ProxyConnectException.Reason;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** HTTP CONNECT byte for byte, each way it ends, and the bound on what a proxy may answer. */
class HttpProxyHandlerTest {
    static final InetSocketAddress EXAMPLE = InetSocketAddress.createUnresolved("example.com", 443);

    @Test
    void sendsConnectWithHostAndOpensTheTunnelOn200() {
        ProxyFeed f = new ProxyFeed(new HttpProxyHandler(PROXY)).connect(EXAMPLE);
        assertThat(f.transport.connectedTo).isEqualTo(PROXY);
        assertThat(f.sentText()).isEqualTo("CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n");
        f.reply(ascii("HTTP/1.1 200 Connection established\r\n\r\n"), ascii("\u0016\u0003\u0001"));
        f.established();
        assertThat(f.app.timeline).containsExactly("E", "A", "B");
        assertThat(f.app.text()).isEqualTo("\u0016\u0003\u0001");
        assertThat(f.app.event).isEqualTo(new ProxyConnectionEvent("http", "none", PROXY, EXAMPLE));
        f.finish();
    }

    @Test
    void bytesGluedToTheAnswerReachTheApplicationAfterChannelActive() {
        ProxyFeed f = new ProxyFeed(new HttpProxyHandler(PROXY)).connect(EXAMPLE);
        f.sent();
        f.reply(ascii("HTTP/1.0 200 Connection established\r\nProxy-agent: tinyproxy/1.11.1\r\n\r\nSSH-2.0-x\r\n"));
        f.established();
        assertThat(f.app.timeline).containsExactly("E", "A", "B");
        assertThat(f.app.text()).isEqualTo("SSH-2.0-x\r\n");
        f.finish();
    }

    @Test
    void sendsBasicCredentialsAsUtf8AndExtraHeaders() {
        HttpProxyHandler handler = new HttpProxyHandler(PROXY, "jürgen", "s3cret:x",
                new DefaultHttpHeaders().set("user-agent", "weir"));
        ProxyFeed f = new ProxyFeed(handler).connect(EXAMPLE);
        String request = f.sentText();
        assertThat(request).startsWith("CONNECT example.com:443 HTTP/1.1\r\n").endsWith("\r\n\r\n")
                .contains("user-agent: weir\r\n")
                .contains("proxy-authorization: Basic asO8cmdlbjpzM2NyZXQ6eA==\r\n");
        f.reply(ascii("HTTP/1.1 200 OK\r\n\r\n"));
        f.established();
        assertThat(f.app.event.authScheme()).isEqualTo("basic");
        f.finish();
    }

    @Test
    void anIpv6DestinationIsBracketed() throws Exception {
        ProxyFeed f = new ProxyFeed(new HttpProxyHandler(PROXY))
                .connect(new InetSocketAddress(InetAddress.getByName("2001:db8::1"), 8443));
        assertThat(f.sentText()).startsWith("CONNECT [2001:db8:0:0:0:0:0:1]:8443 HTTP/1.1\r\n");
        f.finish();
    }

    @Test
    void interimAnswersAreSkipped() {
        ProxyFeed f = new ProxyFeed(new HttpProxyHandler(PROXY)).connect(EXAMPLE);
        f.sent();
        f.reply(ascii("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\n"));
        f.established();
        f.finish();
    }

    @Test
    void proxyAuthenticationRequiredIsAuthRefusedAndItsBodyIsNeverRead() {
        ProxyFeed f = new ProxyFeed(new HttpProxyHandler(PROXY, "alice", "wrong")).connect(EXAMPLE);
        f.sent();
        f.reply(ascii("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"x\"\r\n"
                + "Content-Length: 26\r\n\r\n<html>go away</html>\r\n..."));
        ProxyConnectException e = f.failedWith(Reason.AUTH_REFUSED);
        assertThat(e.replyCode()).isEqualTo(407);
        assertThat(e.getMessage()).contains("http proxy /127.0.0.1:1080").contains("example.com")
                .contains("407 Proxy Authentication Required").contains("credentials were refused");
    }

    @Test
    void unauthorizedIsAuthRefusedToo() {
        // tinyproxy answers wrong credentials with 401 rather than 407.
        ProxyFeed f = new ProxyFeed(new HttpProxyHandler(PROXY, "alice", "wrong")).connect(EXAMPLE);
        f.sent();
        f.reply(ascii("HTTP/1.0 401 Unauthorized\r\n\r\n"));
        assertThat(f.failedWith(Reason.AUTH_REFUSED).replyCode()).isEqualTo(401);
    }

    @Test
    void aForbiddenDestinationIsRefusedWithTheStatus() {
        ProxyFeed f = new ProxyFeed(new HttpProxyHandler(PROXY)).connect(EXAMPLE);
        f.sent();
        f.reply(ascii("HTTP/1.1 403 Access violation\r\nContent-Length: 0\r\n\r\n"));
        assertThat(f.failedWith(Reason.REFUSED).replyCode()).isEqualTo(403);
    }

    @Test
    void httpProxyResponseHeadOverTheLimitIsRejected() {
        ProxyFeed f = new ProxyFeed(new HttpProxyHandler(PROXY)).connect(EXAMPLE);
        f.sent();
        f.reply(ascii("HTTP/1.1 200 OK\r\n"));
        // 7 KiB of fields fit the default 8 KiB head (6 KiB for fields); a proxy that keeps going is cut off.
        for (int i = 0; i < 8; i++) {
            f.reply(ascii("x-filler-" + i + ": " + "a".repeat(1000) + "\r\n"));
        }
        ProxyConnectException e = f.failedWith(Reason.PROTOCOL_ERROR);
        assertThat(e.getCause()).isInstanceOf(TooLongHttpHeaderException.class);
    }

    @Test
    void anOverlongStatusLineIsRejected() {
        ProxyFeed f = new ProxyFeed(new HttpProxyHandler(PROXY).setMaxResponseHeadBytes(1024)).connect(EXAMPLE);
        f.sent();
        f.reply(ascii("HTTP/1.1 200 " + "O".repeat(300)));
        assertThat(f.failedWith(Reason.PROTOCOL_ERROR).getCause()).isInstanceOf(TooLongHttpLineException.class);
    }

    @Test
    void anAnswerThatIsNotHttpIsAProtocolError() {
        ProxyFeed f = new ProxyFeed(new HttpProxyHandler(PROXY)).connect(EXAMPLE);
        f.sent();
        f.reply(ascii("SSH-2.0-OpenSSH_9.2\r\n"));
        assertThat(f.failedWith(Reason.PROTOCOL_ERROR).getMessage()).contains("not acceptable HTTP");
    }

    @Test
    void credentialsBasicCannotCarryAreRefusedAtConstruction() {
        assertThatThrownBy(() -> new HttpProxyHandler(PROXY, "a:b", "c"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("colon");
        assertThatThrownBy(() -> new HttpProxyHandler(PROXY, "a", "c\r\nx-injected: 1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("control character");
        assertThatThrownBy(() -> new HttpProxyHandler(PROXY).setMaxResponseHeadBytes(10))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
