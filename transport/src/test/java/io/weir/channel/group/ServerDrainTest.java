package io.weir.channel.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelDrainEvent;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link ServerDrain} over NIO on loopback, with blocking socket clients. */
class ServerDrainTest {
    private static final int TIMEOUT_SECONDS = 30;

    private final EventLoopGroup loops = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    private final ChannelGroup channels = new DefaultChannelGroup("drained", GlobalEventExecutor.INSTANCE, true);

    @AfterEach
    void stop() throws Exception {
        channels.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        loops.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * Tells the test each connection is in place; drops what it reads. With {@code sayBye} it answers the drain
     * with "bye" and a close, without it knows nothing of draining.
     */
    private static final class Connection implements ChannelHandler {
        private final CountDownLatch active;
        private final boolean sayBye;

        Connection(CountDownLatch active, boolean sayBye) {
            this.active = active;
            this.sayBye = sayBye;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            active.countDown();
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (sayBye && evt instanceof ChannelDrainEvent) {
                ByteBuf bye = ctx.alloc().buffer().writeBytes("bye".getBytes(StandardCharsets.US_ASCII));
                ctx.writeAndFlush(bye).addListener(ChannelFutureListener.CLOSE);
            }
            ctx.fireUserEventTriggered(evt);
        }
    }

    private InetSocketAddress serve(Supplier<ChannelHandler> handler) throws InterruptedException {
        Channel server = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        channels.add(ch);
                        ch.pipeline().addLast(handler.get());
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        channels.add(server);
        return (InetSocketAddress) server.localAddress();
    }

    /** Waits until the group holds {@code n} connections besides the listening channel. */
    private void awaitMembers(int n, CountDownLatch active) throws InterruptedException {
        assertThat(active.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(channels).hasSize(n + 1);
    }

    private static String readAll(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }

    @Test
    void eachConnectionFinishesInItsOwnTermsAndNewConnectionsAreRefused() throws Exception {
        CountDownLatch active = new CountDownLatch(3);
        InetSocketAddress address = serve(() -> new Connection(active, true));
        Socket[] clients = new Socket[3];
        for (int i = 0; i < clients.length; i++) {
            clients[i] = new Socket(address.getAddress(), address.getPort());
            clients[i].setSoTimeout(TIMEOUT_SECONDS * 1000);
        }
        awaitMembers(3, active);
        Future<Integer> drained = ServerDrain.drain(channels, TIMEOUT_SECONDS, TimeUnit.SECONDS);
        for (Socket client : clients) {
            assertThat(readAll(client)).isEqualTo("bye");
            client.close();
        }
        assertThat(drained.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("connections reset at the deadline").isZero();
        // Refused, or (NIO closes a registered listening socket at the selector's next pass) reset unserved.
        try (Socket late = new Socket(address.getAddress(), address.getPort())) {
            late.setSoTimeout(TIMEOUT_SECONDS * 1000);
            assertThat(late.getInputStream().read()).as("a connection made during the drain").isEqualTo(-1);
        } catch (SocketException refusedOrReset) {
            // ConnectException: refused at once; otherwise reset once the listening socket closed.
        }
        assertThat(channels).isEmpty();
    }

    @Test
    void connectionThatIgnoresTheDrainIsResetAtTheDeadline() throws Exception {
        CountDownLatch active = new CountDownLatch(1);
        InetSocketAddress address = serve(() -> new Connection(active, false));
        try (Socket client = new Socket(address.getAddress(), address.getPort())) {
            client.setSoTimeout(TIMEOUT_SECONDS * 1000);
            awaitMembers(1, active);
            Future<Integer> drained = ServerDrain.drain(channels, 200, TimeUnit.MILLISECONDS);
            assertThat(drained.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("connections reset").isEqualTo(1);
            // SO_LINGER 0: the peer sees a reset, not an orderly end of stream.
            assertThatThrownBy(() -> readAll(client)).isInstanceOf(IOException.class)
                    .hasMessageContaining("reset");
        }
    }

    @Test
    void drainWithoutConnectionsCompletesOnceTheListenerIsClosed() throws Exception {
        serve(() -> new Connection(new CountDownLatch(1), false));
        assertThat(ServerDrain.drain(channels).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isZero();
        assertThat(channels).isEmpty();
    }

    @Test
    void invalidArgumentsAreRefused() {
        assertThatThrownBy(() -> ServerDrain.drain(channels, -1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> ServerDrain.drain(null)).isInstanceOf(NullPointerException.class);
    }
}
