package io.weir.channel.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Records what a pool tells its handler: the channels it created, how many are out now and the most that were
 * out at once. Gives every channel a {@link Replies} handler, so a test can talk through a pooled channel.
 */
final class RecordingPoolHandler implements ChannelPoolHandler {
    private static final long TIMEOUT_SECONDS = 30;

    final List<Channel> created = new CopyOnWriteArrayList<>();
    final AtomicInteger out = new AtomicInteger();
    final AtomicInteger mostOut = new AtomicInteger();
    final AtomicInteger acquires = new AtomicInteger();
    final AtomicInteger releases = new AtomicInteger();
    /** Set when a callback ran off its channel's event loop. */
    final List<String> offLoopCalls = new CopyOnWriteArrayList<>();

    @Override
    public void channelCreated(Channel channel) {
        checkOnLoop("channelCreated", channel);
        created.add(channel);
        channel.pipeline().addLast(new Replies());
    }

    @Override
    public void channelAcquired(Channel channel) {
        checkOnLoop("channelAcquired", channel);
        acquires.incrementAndGet();
        mostOut.accumulateAndGet(out.incrementAndGet(), Math::max);
    }

    @Override
    public void channelReleased(Channel channel) {
        checkOnLoop("channelReleased", channel);
        releases.incrementAndGet();
        out.decrementAndGet();
    }

    private void checkOnLoop(String callback, Channel channel) {
        if (!channel.eventLoop().inEventLoop()) {
            offLoopCalls.add(callback + " on " + Thread.currentThread().getName());
        }
    }

    /** Sends {@code text} through {@code channel} and returns what the echo server sent back. */
    static String roundTrip(Channel channel, String text) throws InterruptedException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        channel.writeAndFlush(channel.alloc().buffer(bytes.length).writeBytes(bytes));
        Replies replies = channel.pipeline().get(Replies.class);
        StringBuilder received = new StringBuilder();
        while (received.length() < bytes.length) {
            String chunk = replies.chunks.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(chunk).as("echo of '%s' through %s", text, channel).isNotNull();
            received.append(chunk);
        }
        return received.toString();
    }

    /** Queues what the channel reads, as text. */
    static final class Replies implements ChannelHandler {
        final BlockingQueue<String> chunks = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                chunks.add(buf.toString(StandardCharsets.US_ASCII));
            } finally {
                buf.release();
            }
        }
    }
}
