package io.weir.testsuite.grpc;

import io.weir.bootstrap.Bootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2MultiplexHandler;
import io.weir.handler.codec.http2.Http2StreamChannel;
import io.weir.handler.codec.http2.Http2StreamChannelBootstrap;
import io.weir.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An HTTP/2 client (h2c, Weir's own codec) that writes whatever frames a test wants on a stream and collects what
 * comes back: for requests no well-behaved gRPC client sends. NIO loops only.
 */
final class RawHttp2Client implements AutoCloseable {
    private final Channel connection;

    RawHttp2Client(EventLoopGroup nioGroup, InetSocketAddress address) throws InterruptedException {
        connection = new Bootstrap().group(nioGroup).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(Http2FrameCodecBuilder.forClient().build(),
                                new Http2MultiplexHandler(new DropPushedStreams()));
                    }
                })
                .connect(address).sync().channel();
    }

    /** Opens a stream; with {@code read} false it never reads what the server sends (nor gives back window). */
    Stream open(boolean read) throws Exception {
        Stream stream = new Stream();
        Http2StreamChannel ch = new Http2StreamChannelBootstrap(connection).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel c) {
                c.config().setAutoRead(read);
                c.pipeline().addLast(stream.collector);
            }
        }).open().get(10, TimeUnit.SECONDS);
        stream.channel = ch;
        return stream;
    }

    /** Request headers of a gRPC call of {@code path}. */
    static Http2Headers grpcRequest(String path) {
        Http2Headers headers = new Http2Headers().method("POST").scheme("http").path(path).authority("localhost");
        headers.add("content-type", "application/grpc");
        headers.add("te", "trailers");
        return headers;
    }

    @Override
    public void close() throws InterruptedException {
        connection.close().sync();
    }

    /** The server opens no stream on a gRPC connection: whatever it would send there is dropped. */
    @ChannelHandler.Sharable
    private static final class DropPushedStreams implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }
    }

    /** One stream: frames in {@link #frames} as they arrive (DATA content copied to byte arrays). */
    static final class Stream {
        final BlockingQueue<Object> frames = new LinkedBlockingQueue<>();
        Http2StreamChannel channel;
        final ChannelHandler collector = new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof Http2DataFrame data) {
                    ByteBuf content = data.content();
                    byte[] bytes = new byte[content.readableBytes()];
                    content.readBytes(bytes);
                    frames.add(bytes);
                    data.release();
                } else {
                    frames.add(msg);
                    ReferenceCountUtil.release(msg);
                }
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                frames.add("closed");
            }
        };

        void write(Object frame) {
            channel.writeAndFlush(frame);
        }

        /** The next frame (headers, reset, or DATA as a byte array); fails after 10 seconds. */
        Object next() throws InterruptedException {
            Object frame = frames.poll(10, TimeUnit.SECONDS);
            if (frame == null) {
                throw new AssertionError("no frame within 10 s");
            }
            return frame;
        }

        /** The first HEADERS frame with END_STREAM: the call's end. */
        Http2Headers end() throws InterruptedException {
            for (;;) {
                Object frame = next();
                if (frame instanceof Http2HeadersFrame h && h.endStream()) {
                    return h.headers();
                }
                if ("closed".equals(frame)) {
                    throw new AssertionError("stream closed without trailers");
                }
            }
        }
    }
}
