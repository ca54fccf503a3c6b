package io.weir.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.util.ReferenceCountUtil;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How a server-streaming call's messages are flushed: a method that sends while the stream is writable (the
 * example's {@code ServerStream} at the client's pace) gets one flush per writable stretch, not one per message,
 * and still sends every message, in order, at the stream's pace.
 */
class GrpcServerStreamFlushTest {
    private static final int MESSAGES = 1000;
    private static final int PAYLOAD = 100;

    @Test
    void aStreamSentAsTheChannelTurnsWritableIsFlushedOncePerWritableStretch() {
        AtomicInteger flushes = new AtomicInteger();
        ChannelHandler countFlushes = new ChannelHandler() {
            @Override
            public void flush(ChannelHandlerContext ctx) {
                flushes.incrementAndGet();
                ctx.flush();
            }
        };
        EmbeddedChannel channel = new EmbeddedChannel();
        // A small window of unflushed bytes: the method stops after a few dozen messages until a flush drains them.
        channel.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(1024, 4096));
        channel.pipeline().addLast(countFlushes,
                EchoService.register(new GrpcRoute()).streamHandler(new ChannelHandler() { }));

        ByteBuf request = Unpooled.buffer().writeByte(0).writeInt(4 + PAYLOAD).writeInt(MESSAGES)
                .writeZero(PAYLOAD);
        channel.writeInbound(new Http2HeadersFrame(grpcRequest(), false), new Http2DataFrame(request, true));

        int data = 0;
        Http2HeadersFrame trailers = null;
        for (Object frame; (frame = channel.readOutbound()) != null; ReferenceCountUtil.release(frame)) {
            if (frame instanceof Http2DataFrame message) {
                assertThat(message.content().readableBytes()).isEqualTo(5 + PAYLOAD);
                data++;
            } else if (frame instanceof Http2HeadersFrame headers && headers.endStream()) {
                trailers = headers;
            }
        }
        assertThat(data).isEqualTo(MESSAGES);
        assertThat(trailers).isNotNull();
        assertThat(trailers.headers().get("grpc-status").toString()).isEqualTo("0");
        // 4 KiB of 105-byte messages is about 40 per writable stretch; one flush per message would be 1,000.
        assertThat(flushes.get()).isBetween(2, MESSAGES / 20);
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    private static Http2Headers grpcRequest() {
        Http2Headers headers = new Http2Headers().method("POST").scheme("http").authority("localhost")
                .path("/" + EchoService.SERVER_STREAM);
        headers.add("content-type", "application/grpc");
        headers.add("te", "trailers");
        return headers;
    }
}
