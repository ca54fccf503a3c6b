package io.weir.handler.proxy;

import static io.weir.handler.proxy.ProxyFeed.PROXY;
import static io.weir.handler.proxy.ProxyFeed.ascii;
import static io.weir.handler.proxy.ProxyFeed.concat;
import static io.weir.handler.proxy.ProxyFeed.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.channel.local.LocalAddress;
import io.weir.handler.proxy.ProxyConnectException.Reason;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every proxy handler does, whatever its protocol: the connect timeout, the held writes and their bound, the
 * failures of the connection to the proxy, and the silence towards the application until the tunnel is up.
 */
class ProxyHandlerContractTest {
    static final InetSocketAddress DESTINATION = InetSocketAddress.createUnresolved("example.com", 443);

    /** A proxy kind: how to make its handler, and the whole answer of a proxy that grants the tunnel. */
    record Kind(String name, Supplier<ProxyHandler> handler, byte[] grant) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Kind> kinds() {
        return Stream.of(
                new Kind("http", () -> new HttpProxyHandler(PROXY), ascii("HTTP/1.1 200 OK\r\n\r\n")),
                new Kind("socks4a", () -> new Socks4ProxyHandler(PROXY), hex("00 5a 0000 00000000")),
                new Kind("socks5", () -> new Socks5ProxyHandler(PROXY),
                        concat(hex("05 00"), hex("05 00 00 01 00000000 0000"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void proxyThatNeverAnswersTimesOut(Kind kind) {
        ProxyFeed f = new ProxyFeed(kind.handler().get()).connect(DESTINATION);
        assertThat(f.sent()).isNotEmpty();
        f.advanceMillis(ProxyHandler.DEFAULT_CONNECT_TIMEOUT_MILLIS - 1);
        assertThat(f.connectFuture.isDone()).isFalse();
        f.advanceMillis(1);
        ProxyConnectException e = f.failedWith(Reason.TIMEOUT);
        assertThat(e.getMessage()).contains(kind.name() + " proxy /127.0.0.1:1080").contains("example.com")
                .contains("did not complete").contains("10000 ms");
        assertThat(e.protocol()).isEqualTo(kind.name());
        assertThat(e.proxyAddress()).isEqualTo(PROXY);
        assertThat(e.destinationAddress()).isEqualTo(DESTINATION);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aProxyThatNeverAcceptsTheConnectionTimesOutWithTheShorterTimeout(Kind kind) {
        ProxyHandler handler = kind.handler().get().setConnectTimeoutMillis(2_000);
        ProxyFeed f = new ProxyFeed(handler, ProxyFeed.ConnectOutcome.HANG).connect(DESTINATION);
        f.advanceMillis(2_000);
        assertThat(f.failedWith(Reason.TIMEOUT).getMessage()).contains("no connection to the proxy within 2000 ms");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void anUnreachableProxyFailsWithTheCause(Kind kind) {
        ProxyFeed f = new ProxyFeed(kind.handler().get(), ProxyFeed.ConnectOutcome.REFUSE).connect(DESTINATION);
        ProxyConnectException e = f.failedWith(Reason.PROXY_UNREACHABLE);
        assertThat(e.getCause()).isInstanceOf(ConnectException.class);
        assertThat(e).isInstanceOf(ConnectException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aProxyThatClosesMidHandshakeFailsAsClosed(Kind kind) {
        ProxyFeed f = new ProxyFeed(kind.handler().get()).connect(DESTINATION);
        f.sent();
        f.reply(java.util.Arrays.copyOf(kind.grant(), 1));
        // The proxy goes away: the transport reports the channel inactive.
        f.ch.pipeline().fireChannelInactive();
        f.failedWith(Reason.CLOSED);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void writesBeforeTheTunnelAreHeldAndSentAfterIt(Kind kind) {
        ProxyFeed f = new ProxyFeed(kind.handler().get()).connect(DESTINATION);
        byte[] handshake = f.sent();
        ChannelFuture early = f.ch.writeAndFlush(Unpooled.copiedBuffer(ascii("early bytes")));
        assertThat(f.sent()).as("nothing but the handshake reaches the proxy").isEmpty();
        assertThat(early.isDone()).isFalse();
        assertThat(handshake).isNotEmpty();
        f.reply(kind.grant());
        f.established();
        byte[] after = f.sent();
        assertThat(new String(after, java.nio.charset.StandardCharsets.ISO_8859_1)).endsWith("early bytes");
        assertThat(early.isSuccess()).isTrue();
        f.finish();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void heldWritesAreBoundedAndFailWithTheConnect(Kind kind) {
        ProxyFeed f = new ProxyFeed(kind.handler().get().setMaxPendingWriteBytes(10)).connect(DESTINATION);
        f.sent();
        ChannelFuture first = f.ch.writeAndFlush(Unpooled.copiedBuffer(ascii("12345678")));
        ChannelFuture second = f.ch.writeAndFlush(Unpooled.copiedBuffer(ascii("12345678")));
        assertThat(second.cause()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("at most 10 bytes");
        assertThat(first.isDone()).isFalse();
        f.advanceMillis(ProxyHandler.DEFAULT_CONNECT_TIMEOUT_MILLIS);
        assertThat(first.cause()).isInstanceOf(ProxyConnectException.class);
        f.failedWith(Reason.TIMEOUT);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aDestinationThatIsNotAnInetAddressIsUnsupported(Kind kind) {
        ProxyFeed f = new ProxyFeed(kind.handler().get()).connect(new LocalAddress("x"));
        assertThat(f.transport.connectedTo).isNull();
        f.failedWith(Reason.UNSUPPORTED_DESTINATION);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aHandlerAddedToAConnectedChannelRefusesToPretend(Kind kind) {
        EmbeddedChannel ch = new EmbeddedChannel();
        ProxyHandler handler = kind.handler().get();
        ch.pipeline().addLast(handler);
        // The pipeline reports the handler's refusal and leaves it out.
        assertThat(ch.pipeline().context(handler)).isNull();
        assertThatThrownBy(ch::checkException).hasRootCauseInstanceOf(IllegalStateException.class)
                .rootCause().hasMessageContaining("before the channel connects");
        ch.finishAndReleaseAll();
    }
}
