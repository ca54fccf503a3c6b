package io.weir.handler.codec.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelId;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.handler.codec.http2.internal.Http2Frames;
import io.weir.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a stream channel is made of, now that it is cheap: it is not tracked by its event loop (no per-stream
 * registration in the loop's bookkeeping; the loop closes the connection at shutdown, and the connection closes its
 * streams' channels), and its id is its connection's plus a number rather than a freshly randomised one.
 */
class Http2StreamChannelLifecycleTest {
    private static final long TIMEOUT_SECONDS = 10;
    /** :method GET, :scheme http, :path /, :authority "a" (static table only, no HPACK state). */
    private static final byte[] GET_BLOCK = {(byte) 0x82, (byte) 0x86, (byte) 0x84, 0x01, 0x01, 'a'};

    private static void frame(ByteArrayOutputStream out, int type, int flags, int streamId, byte[] payload) {
        out.write(payload.length >>> 16);
        out.write(payload.length >>> 8);
        out.write(payload.length);
        out.write(type);
        out.write(flags);
        out.write(streamId >>> 24);
        out.write(streamId >>> 16);
        out.write(streamId >>> 8);
        out.write(streamId);
        out.writeBytes(payload);
    }

    @Test
    void streamChannelIdsAreTheConnectionsIdAndADistinctNumber() {
        List<Channel> children = new ArrayList<>();
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                children.add(ch);
                ch.pipeline().addLast(new Http2MultiplexHandlerTest.PathEcho());
            }
        };
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), new Http2MultiplexHandler(init))
                .handshake()) {
            c.headers(1, Http2FrameClient.get("/a"), true);
            c.headers(3, Http2FrameClient.get("/b"), true);
            c.read();
            assertThat(children).hasSize(2);
            ChannelId first = children.get(0).id();
            ChannelId second = children.get(1).id();
            String connection = c.channel.id().asLongText();
            assertThat(first.asLongText()).startsWith(connection + '/');
            assertThat(second.asLongText()).startsWith(connection + '/');
            assertThat(first.asShortText()).startsWith(c.channel.id().asShortText() + '/');
            assertThat(first).isNotEqualTo(second);
            assertThat(first.asLongText()).isNotEqualTo(second.asLongText());
            assertThat(Integer.signum(first.compareTo(second))).isEqualTo(-Integer.signum(second.compareTo(first)))
                    .isNotZero();
            assertThat(first.compareTo(first)).isZero();
            assertThat(children.get(0).compareTo(children.get(1))).isNotZero();
        }
    }

    @Test
    void openStreamChannelsCloseWhenTheirEventLoopShutsDown() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        CompletableFuture<Channel> opened = new CompletableFuture<>();
        CountDownLatch inactive = new CountDownLatch(1);
        ChannelInitializer<Channel> streams = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        // The request stays unanswered: the stream is open when the loop shuts down.
                        ReferenceCountUtil.release(msg);
                        opened.complete(ctx.channel());
                    }

                    @Override
                    public void channelInactive(ChannelHandlerContext ctx) {
                        inactive.countDown();
                    }
                });
            }
        };
        try (Socket client = new Socket()) {
            Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(Http2FrameCodecBuilder.forServer().build(),
                                    new Http2MultiplexHandler(streams));
                        }
                    }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
            client.connect(server.localAddress(), (int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            bytes.writeBytes(Http2Frames.connectionPreface());
            frame(bytes, Http2Frames.SETTINGS, 0, 0, new byte[0]);
            frame(bytes, Http2Frames.HEADERS, Http2Frames.FLAG_END_HEADERS, 1, GET_BLOCK);
            OutputStream out = client.getOutputStream();
            out.write(bytes.toByteArray());
            out.flush();

            Channel child = opened.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(child).isInstanceOf(Http2StreamChannel.class);
            assertThat(child.isOpen()).isTrue();

            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

            assertThat(inactive.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(child.closeFuture().isDone()).isTrue();
            assertThat(child.isOpen()).isFalse();
            assertThat(child.isRegistered()).isFalse();
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
