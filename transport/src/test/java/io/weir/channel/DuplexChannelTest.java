package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.util.Ticker;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DuplexChannelTest {
    private static final long TIMEOUT_SECONDS = 10;

    private final TestEventLoop loop = new TestEventLoop(Ticker.system());
    private final List<String> events = new CopyOnWriteArrayList<>();
    private TestDuplexChannel channel;

    @BeforeEach
    void setUp() throws Exception {
        channel = new TestDuplexChannel(loop);
        channel.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) {
                events.add(event.toString());
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                events.add("inactive");
            }
        });
        channel.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        channel.bind(new InetSocketAddress(0)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @AfterEach
    void tearDown() throws Exception {
        channel.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private void drainLoop() throws Exception {
        loop.submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void shutdownOutputFailsQueuedWritesAndRefusesNewOnes() throws Exception {
        channel.acceptWrites = false;
        ByteBuf queued = Unpooled.buffer(4).writeInt(1);
        ChannelFuture write = channel.writeAndFlush(queued);
        channel.shutdownOutput().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(write.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(write.cause()).isInstanceOf(ChannelOutputShutdownException.class);
        assertThat(queued.refCnt()).isZero();
        ByteBuf late = Unpooled.buffer(1).writeByte(1);
        ChannelFuture lateWrite = channel.writeAndFlush(late);
        assertThat(lateWrite.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(lateWrite.cause()).isInstanceOf(ChannelOutputShutdownException.class);
        assertThat(late.refCnt()).isZero();
        assertThat(channel.isOutputShutdown()).isTrue();
        assertThat(channel.isOpen()).isTrue();
        drainLoop();
        assertThat(events).containsExactly("ChannelOutputShutdownEvent");
    }

    @Test
    void shutdownBothHalvesShutsOutputThenInput() throws Exception {
        channel.shutdown().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(channel.isShutdown()).isTrue();
        drainLoop();
        assertThat(events).containsExactly("ChannelOutputShutdownEvent", "ChannelInputShutdownEvent");
    }

    @Test
    void endOfInputWithHalfClosureAllowedKeepsTheChannelOpen() throws Exception {
        channel.config().setAllowHalfClosure(true);
        loop.submit(channel::peerClosedOutput).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(channel.isOpen()).isTrue();
        assertThat(channel.isInputShutdown()).isTrue();
        assertThat(events).containsExactly("ChannelInputShutdownEvent");
    }

    @Test
    void endOfInputWithoutHalfClosureClosesTheChannel() throws Exception {
        loop.submit(channel::peerClosedOutput).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        channel.closeFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        drainLoop();
        assertThat(events).containsExactly("inactive");
    }
}
