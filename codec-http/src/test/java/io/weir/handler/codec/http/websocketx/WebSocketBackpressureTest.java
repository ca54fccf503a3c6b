package io.weir.handler.codec.http.websocketx;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A WebSocket peer that sends without reading what it is sent (an echo's answers above all) must not make the
 * decoder hand on frame after frame whose answers queue without bound: while the channel is unwritable no frame is
 * decoded and auto-read is off; both resume once it drains.
 */
class WebSocketBackpressureTest {
    /** A user-defined writability bit standing for a socket the peer does not drain. */
    private static final int PEER_NOT_READING_BIT = 9;

    @Test
    void aPeerThatDoesNotReadGetsNoFrameDecodedUntilItDoes() {
        AtomicInteger frames = new AtomicInteger();
        ChannelHandler sink = new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                frames.incrementAndGet();
                ReferenceCountUtil.release(msg);
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameDecoder(true, new WebSocketConfig()), sink);
        byte[] message = WireFrames.client(0x82, new byte[1000]);
        ch.writeInbound(Unpooled.wrappedBuffer(message));
        assertThat(frames.get()).as("decoded while the peer reads").isEqualTo(1);

        ch.setUserDefinedWritability(PEER_NOT_READING_BIT, false);
        ch.runPendingTasks();
        byte[] three = WireFrames.concat(message, message, message);
        ch.writeInbound(Unpooled.wrappedBuffer(three));
        ch.runPendingTasks();
        assertThat(frames.get()).as("decoded while the peer does not read").isEqualTo(1);
        assertThat(ch.config().isAutoRead()).as("reading").isFalse();

        ch.setUserDefinedWritability(PEER_NOT_READING_BIT, true);
        ch.runPendingTasks();
        assertThat(frames.get()).as("decoded once it reads again").isEqualTo(4);
        assertThat(ch.config().isAutoRead()).as("reading again").isTrue();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }
}
