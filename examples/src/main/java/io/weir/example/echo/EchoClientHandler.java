package io.weir.example.echo;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The echo client's side of one connection: sends a first message when connected, then writes back every
 * buffer it receives, counting the bytes, and closes the connection once {@code maxBytes} came back or
 * {@code durationSeconds} passed.
 *
 * <p>One instance per connection. Event methods run on the connection's event loop; {@link #bytesReceived()}
 * and {@link #elapsedNanos()} may be read from any thread, and are final once the channel is closed.
 */
public final class EchoClientHandler implements ChannelHandler {
    private static final System.Logger LOGGER = System.getLogger(EchoClientHandler.class.getName());

    private final int firstMessageSizeBytes;
    private final long maxBytes;
    private final long durationSeconds;
    private volatile long bytesReceived;
    private volatile long startNanos;
    private volatile long endNanos;
    private ScheduledFuture<?> stopTimer;

    /**
     * A handler for one connection.
     *
     * @param firstMessageSizeBytes the size of the message sent on connect, at least 1
     * @param maxBytes close once this many bytes came back; 0 for no limit
     * @param durationSeconds close after this many seconds; 0 for no limit
     * @throws IllegalArgumentException if a value is out of range
     */
    public EchoClientHandler(int firstMessageSizeBytes, long maxBytes, long durationSeconds) {
        if (firstMessageSizeBytes < 1) {
            throw new IllegalArgumentException("firstMessageSizeBytes: " + firstMessageSizeBytes + " (expected: >= 1)");
        }
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: >= 0)");
        }
        if (durationSeconds < 0) {
            throw new IllegalArgumentException("durationSeconds: " + durationSeconds + " (expected: >= 0)");
        }
        this.firstMessageSizeBytes = firstMessageSizeBytes;
        this.maxBytes = maxBytes;
        this.durationSeconds = durationSeconds;
    }

    /** Bytes received from the server so far. */
    public long bytesReceived() {
        return bytesReceived;
    }

    /** Nanoseconds from connecting to closing (or to now, while the connection is open); 0 before connecting. */
    public long elapsedNanos() {
        long start = startNanos;
        if (start == 0) {
            return 0;
        }
        long end = endNanos;
        return (end != 0 ? end : System.nanoTime()) - start;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        startNanos = System.nanoTime();
        ByteBuf first = ctx.alloc().buffer(firstMessageSizeBytes);
        for (int i = 0; i < firstMessageSizeBytes; i++) {
            first.writeByte(i);
        }
        ctx.writeAndFlush(first);
        if (durationSeconds > 0) {
            stopTimer = ctx.executor().schedule(() -> ctx.close(), durationSeconds, TimeUnit.SECONDS);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        // Only the event loop writes the counter, so a plain read-modify-write of the volatile is safe.
        long received = bytesReceived + buf.readableBytes();
        bytesReceived = received;
        if (maxBytes > 0 && received >= maxBytes) {
            buf.release();
            ctx.close();
            return;
        }
        ctx.write(buf);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        endNanos = System.nanoTime();
        if (stopTimer != null) {
            stopTimer.cancel(false);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOGGER.log(System.Logger.Level.WARNING, "Closing " + ctx.channel() + " after an error", cause);
        ctx.close();
    }
}
