package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.TIMEOUT_SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.handler.ssl.internal.openssl.OpenSslEngine;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The event loops and channels one socket test opened, closed after each test (registered with
 * {@code @RegisterExtension}), which then checks that every native SSL object was freed.
 */
final class SocketFixture implements AfterEachCallback {
    private static final Consumer<SslHandler> NO_SETUP = handler -> { };

    final List<EventLoopGroup> groups = new ArrayList<>();
    final List<Channel> channels = new ArrayList<>();
    final BlockingQueue<Channel> serverChildren = new LinkedBlockingQueue<>();

    /** A fixture for tests that need the OpenSSL provider: fails each test with the cause where it does not load. */
    SocketFixture() {
        OpenSsl.ensureAvailability();
    }

    /** A new NIO group of {@code threads} loops, shut down by {@link #closeAll()}. */
    EventLoopGroup group(int threads) {
        EventLoopGroup g = SocketTransport.NIO.newGroup(threads);
        groups.add(g);
        return g;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        closeAll();
    }

    /**
     * Binds a server whose connections run {@code ctx}'s handler (given to {@code perConnection} before the
     * handshake) and echo what they read.
     */
    InetSocketAddress echoServer(EventLoopGroup g, SslContext ctx, Consumer<SslHandler> perConnection)
            throws Exception {
        Channel server = SocketTransport.NIO.bind(g, ch -> {
            serverChildren.add(ch);
            SslHandler ssl = ctx.newHandler(ch.alloc());
            perConnection.accept(ssl);
            ch.pipeline().addLast(ssl, SslHandlerSocketTest.Echo.INSTANCE);
        });
        channels.add(server);
        return (InetSocketAddress) server.localAddress();
    }

    /** Connects with {@code ctx} to {@code localhost} at {@code address} and waits for the handshake to end. */
    SslHandler connect(EventLoopGroup g, InetSocketAddress address, SslContext ctx) throws Exception {
        return connect(g, address, ctx, NO_SETUP);
    }

    /** As {@link #connect(EventLoopGroup, InetSocketAddress, SslContext)}, handing the handler to {@code before}. */
    SslHandler connect(EventLoopGroup g, InetSocketAddress address, SslContext ctx, Consumer<SslHandler> before)
            throws Exception {
        SslHandler ssl = ctx.newHandler(ByteBufAllocator.DEFAULT, "localhost", address.getPort());
        before.accept(ssl);
        channels.add(SocketTransport.NIO.connect(g, address, ssl));
        TlsTestSupport.await(ssl.handshakeFuture());
        return ssl;
    }

    /** Closes the channels, waits for the accepted ones, shuts the groups down and counts live engines. */
    void closeAll() throws Exception {
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
}
