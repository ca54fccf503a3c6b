package io.weir.testsuite.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.local.LocalAddress;
import io.weir.channel.local.LocalChannel;
import io.weir.channel.local.LocalServerChannel;
import io.weir.channel.nio.NioIoHandler;
import java.net.BindException;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The shared scenarios over the in-VM transport, on loops driven by the NIO I/O handler. */
class LocalTransportTest extends AbstractTransportScenarioTest {

    @Override
    EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    @Override
    ServerBootstrap serverChannel(ServerBootstrap b) {
        return b.channel(LocalServerChannel.class);
    }

    @Override
    Bootstrap clientChannel(Bootstrap b) {
        return b.channel(LocalChannel.class);
    }

    @Override
    SocketAddress bindAddress() {
        return LocalAddress.ANY;
    }

    @Override
    void smallTransportBuffers(ServerBootstrap server, Bootstrap client) {
        server.childOption(ChannelOption.SO_RCVBUF, 8 * 1024);
    }

    @Override
    SocketAddress unboundAddress() {
        return new LocalAddress("nobody-listens-here-" + System.nanoTime());
    }

    /** Local channels carry messages both ways until closed; they cannot shut one direction down. */
    @Override
    boolean supportsHalfClosure() {
        return false;
    }

    @Test
    void aNameCanBeBoundOnlyOnceAndIsFreedOnClose() throws Exception {
        LocalAddress name = new LocalAddress("taken-" + System.nanoTime());
        Channel first = bind(server(NOOP).localAddress(name).validate().copy(), name);
        ChannelFuture second = server(NOOP).bind(name);
        assertThat(second.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(second.cause()).isInstanceOf(BindException.class);
        first.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ChannelFuture third = server(NOOP).bind(name);
        assertThat(third.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(third.cause()).isNull();
        track(third.channel());
    }

    private Channel bind(ServerBootstrap b, SocketAddress address) throws Exception {
        ChannelFuture f = b.bind(address);
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isNull();
        return track(f.channel());
    }

    @Test
    void messagesAreHandedOverWithoutCopyAndClosingOneEndClosesTheOther() throws Exception {
        java.util.concurrent.BlockingQueue<Object> received = new java.util.concurrent.LinkedBlockingQueue<>();
        CountDownLatch serverInactive = new CountDownLatch(1);
        Channel server = bind(server(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                received.add(msg);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                serverInactive.countDown();
            }
        }));
        CountDownLatch clientInactive = new CountDownLatch(1);
        Channel client = connect(client(new ChannelHandler() {
            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                clientInactive.countDown();
            }
        }), server.localAddress());
        assertThat(client.remoteAddress()).isEqualTo(server.localAddress());

        ByteBuf sent = Unpooled.buffer(4).writeInt(42);
        Object plain = new Object();
        client.write(plain);
        client.writeAndFlush(sent);
        assertThat(received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isSameAs(plain);
        assertThat(received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isSameAs(sent);
        assertThat(sent.refCnt()).as("owned by the receiver now").isEqualTo(1);
        sent.release();

        client.close();
        assertThat(clientInactive.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(serverInactive.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void writesAfterThePeerClosedFail() throws Exception {
        CompletableFuture<Channel> child = new CompletableFuture<>();
        Channel server = bindRecordingChild(child);
        Channel client = connect(client(NOOP), server.localAddress());
        child.get(TIMEOUT_SECONDS, TimeUnit.SECONDS).close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(client.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        ByteBuf buf = Unpooled.buffer(1).writeByte(1);
        ChannelFuture write = client.writeAndFlush(buf);
        assertThat(write.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(write.isSuccess()).isFalse();
        assertThat(buf.refCnt()).isZero();
    }

    @Test
    void channelsCloseWithTheirEventsWhenTheirGroupShutsDownAndQueuedWritesFail() throws Exception {
        CompletableFuture<Channel> child = new CompletableFuture<>();
        Channel server = bindRecordingChild(child);
        EventLoopGroup clientGroup = newGroup();
        try {
            CountDownLatch inactive = new CountDownLatch(1);
            CountDownLatch unregistered = new CountDownLatch(1);
            Channel client = connect(clientChannel(new Bootstrap().group(clientGroup)).handler(new ChannelHandler() {
                @Override
                public void channelInactive(ChannelHandlerContext ctx) {
                    inactive.countDown();
                }

                @Override
                public void channelUnregistered(ChannelHandlerContext ctx) {
                    unregistered.countDown();
                }
            }), server.localAddress());
            Channel serverChild = child.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            ByteBuf unflushed = Unpooled.buffer(1).writeByte(1);
            ChannelFuture write = client.eventLoop().submit(() -> client.write(unflushed))
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

            clientGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

            // Closed by its loop as the loop began to shut down, so all of it happened before the loop ended.
            assertThat(client.closeFuture().isDone()).isTrue();
            assertThat(inactive.getCount()).isZero();
            assertThat(unregistered.getCount()).isZero();
            assertThat(write.cause()).isInstanceOf(ClosedChannelException.class);
            assertThat(unflushed.refCnt()).isZero();
            // The other end lives on a loop that still runs: it is closed there.
            assertThat(serverChild.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        } finally {
            clientGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        }
    }

    @Test
    void aChannelRegisteredAfterItsLoopBeganToShutDownIsClosedOnceTheLoopHasTerminated() throws Exception {
        Channel server = bind(server(NOOP));
        EventLoopGroup clientGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Channel first = connect(clientChannel(new Bootstrap().group(clientGroup)).handler(NOOP),
                    server.localAddress());
            // A quiet period keeps the loop taking tasks after it closed the channels it had.
            var terminated = clientGroup.shutdownGracefully(300, 5_000, TimeUnit.MILLISECONDS);
            assertThat(first.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            ChannelFuture connected = clientChannel(new Bootstrap().group(clientGroup)).handler(NOOP)
                    .connect(server.localAddress());
            assertThat(connected.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(connected.cause()).isNull();
            Channel late = connected.channel();
            ByteBuf unflushed = Unpooled.buffer(1).writeByte(1);
            ChannelFuture write = late.eventLoop().submit(() -> late.write(unflushed))
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

            terminated.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

            // No loop is left to close it with events: it is closed without them, and nothing it held leaks.
            assertThat(late.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(late.isOpen()).isFalse();
            assertThat(write.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(write.cause()).isInstanceOf(ClosedChannelException.class);
            assertThat(unflushed.refCnt()).isZero();
        } finally {
            clientGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        }
    }

    /** A server that completes {@code child} with the first channel it accepts. */
    private Channel bindRecordingChild(CompletableFuture<Channel> child) throws Exception {
        return bind(server(new ChannelHandler() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                child.complete(ctx.channel());
            }
        }));
    }
}
