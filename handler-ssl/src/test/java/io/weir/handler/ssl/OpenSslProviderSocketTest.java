package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.TIMEOUT_SECONDS;
import static io.weir.handler.ssl.TlsTestSupport.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.EventLoopGroup;
import io.weir.handler.ssl.SslHandlerSocketTest.Echo;
import io.weir.handler.ssl.SslHandlerSocketTest.PatternReader;
import io.weir.handler.ssl.SslHandlerSocketTest.PatternWriter;
import io.weir.handler.ssl.internal.openssl.OpenSslEngine;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The OpenSSL provider on real sockets against itself and the JDK provider: every client x server pair on TLS 1.2
 * and 1.3, ALPN, SNI, mutual TLS, resumption; every native SSL object freed when the connections close.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OpenSslProviderSocketTest {
    private final List<EventLoopGroup> groups = new ArrayList<>();
    private final List<Channel> channels = new ArrayList<>();
    private final BlockingQueue<Channel> serverChildren = new LinkedBlockingQueue<>();
    private final BlockingQueue<SslHandler> serverHandlers = new LinkedBlockingQueue<>();

    @BeforeAll
    static void openSslLoads() {
        OpenSsl.ensureAvailability();
    }

    static Stream<Arguments> providerPairs() {
        List<Arguments> all = new ArrayList<>();
        for (SslProvider c : SslProvider.values()) {
            for (SslProvider s : SslProvider.values()) {
                for (String p : new String[] {"TLSv1.2", "TLSv1.3"}) {
                    all.add(Arguments.of(c, s, p));
                }
            }
        }
        return all.stream();
    }

    @AfterEach
    void tearDown() throws Exception {
        for (Channel c : channels) {
            c.close().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        for (Channel c : serverChildren) {
            c.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        for (EventLoopGroup g : groups) {
            g.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(OpenSslEngine.liveEngines()).as("native SSL objects left").isZero();
    }

    private EventLoopGroup group() {
        EventLoopGroup g = SocketTransport.NIO.newGroup(2);
        groups.add(g);
        return g;
    }

    private InetSocketAddress server(EventLoopGroup g, SslContext ctx) throws Exception {
        Channel server = SocketTransport.NIO.bind(g, ch -> {
            serverChildren.add(ch);
            SslHandler ssl = ctx.newHandler(ch.alloc());
            serverHandlers.add(ssl);
            ch.pipeline().addLast(ssl, Echo.INSTANCE);
        });
        channels.add(server);
        return (InetSocketAddress) server.localAddress();
    }

    private SslHandler connect(EventLoopGroup g, InetSocketAddress address, SslContext ctx, String host,
                               ChannelHandler... app) throws Exception {
        SslHandler ssl = ctx.newHandler(ByteBufAllocator.DEFAULT, host, address.getPort());
        ChannelHandler[] handlers = new ChannelHandler[app.length + 1];
        handlers[0] = ssl;
        System.arraycopy(app, 0, handlers, 1, app.length);
        channels.add(SocketTransport.NIO.connect(g, address, handlers));
        await(ssl.handshakeFuture());
        return ssl;
    }

    @ParameterizedTest(name = "client {0}, server {1}, {2}")
    @MethodSource("providerPairs")
    void everyProviderPairHandshakesAndEchoes(SslProvider clientProvider, SslProvider serverProvider,
                                              String protocol) throws Exception {
        EventLoopGroup g = group();
        SslContext serverCtx = TlsTestSupport.server().sslProvider(serverProvider).build();
        assertThat(serverCtx.provider()).isEqualTo(serverProvider);
        InetSocketAddress address = server(g, serverCtx);
        PatternReader reader = new PatternReader(256 * 1024);
        PatternWriter writer = new PatternWriter(reader.expected, 1000);
        SslHandler ssl = connect(g, address, TlsTestSupport.client(protocol).sslProvider(clientProvider).build(),
                "localhost", writer, reader);
        assertHandshakeSucceeded(ssl);
        assertThat(ssl.session().getProtocol()).isEqualTo(protocol);
        assertThat(ssl.session().getCipherSuite()).startsWith("TLS_");
        assertThat(ssl.session().getPeerCertificates()[0]).isEqualTo(TlsTestSupport.SERVER_CERT.certificate());
        writer.start();
        assertThat(reader.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(reader.expected);
        SslHandler serverSsl = serverHandlers.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(serverSsl.session().getProtocol()).isEqualTo(protocol);
        assertThat(serverSsl.session().getCipherSuite()).isEqualTo(ssl.session().getCipherSuite());
    }

    static void assertHandshakeSucceeded(SslHandler ssl) {
        Throwable cause = ssl.handshakeFuture().cause();
        StringBuilder chain = new StringBuilder();
        for (Throwable t = cause; t != null; t = t.getCause()) {
            chain.append(t).append(" <- ");
        }
        assertThat(ssl.handshakeFuture().isSuccess()).as("%s", chain).isTrue();
    }
}
