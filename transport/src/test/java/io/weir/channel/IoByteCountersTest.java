package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bytes a socket transport counts: per loop ({@link SingleThreadIoEventLoop#bytesRead()},
 * {@link SingleThreadIoEventLoop#bytesWritten()}) and per channel, kept after the close for the close event.
 */
class IoByteCountersTest {
    private static final int TIMEOUT_SECONDS = 10;
    private static final int REQUEST = 1_000;
    private static final int RESPONSE = 2_500;

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final MultiThreadIoEventLoopGroup serverChildren =
            new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

    @AfterEach
    void shutdown() {
        group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        serverChildren.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void theServersLoopAndChannelCountWhatCrossedTheSocket() throws Exception {
        CompletableFuture<AbstractChannel> served = new CompletableFuture<>();
        Channel server = new ServerBootstrap().group(group, serverChildren).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelHandler() {
                    private int received;

                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        received += ((ByteBuf) msg).readableBytes();
                        ((ByteBuf) msg).release();
                        if (received == REQUEST) {
                            ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[RESPONSE]))
                                    .addListener(f -> ctx.close());
                        }
                    }

                    @Override
                    public void channelInactive(ChannelHandlerContext ctx) {
                        served.complete((AbstractChannel) ctx.channel());
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        CompletableFuture<Integer> answered = new CompletableFuture<>();
        Channel client = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelHandler() {
                    private int received;

                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        received += ((ByteBuf) msg).readableBytes();
                        ((ByteBuf) msg).release();
                    }

                    @Override
                    public void channelInactive(ChannelHandlerContext ctx) {
                        answered.complete(received);
                    }
                })
                .connect(server.localAddress()).sync().channel();
        // In two writes, so that the server reads at least twice.
        client.writeAndFlush(Unpooled.wrappedBuffer(new byte[REQUEST / 2])).sync();
        client.writeAndFlush(Unpooled.wrappedBuffer(new byte[REQUEST / 2])).sync();

        assertThat(answered.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(RESPONSE);
        AbstractChannel child = served.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        SingleThreadIoEventLoop childLoop = (SingleThreadIoEventLoop) child.eventLoop();
        assertThat(childLoop.submit(child::totalBytesRead).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .as("kept after the close").isEqualTo(REQUEST);
        assertThat(childLoop.submit(child::totalBytesWritten).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .as("kept after the close").isEqualTo(RESPONSE);
        // The only connection of its loop: the loop's totals are the connection's.
        assertThat(childLoop.bytesRead()).isEqualTo(REQUEST);
        assertThat(childLoop.bytesWritten()).isEqualTo(RESPONSE);
        assertThat(childLoop.metrics().bytesRead()).isEqualTo(REQUEST);
    }
}
