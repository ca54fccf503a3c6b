package io.weir.example.discard;

import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.DuplexChannel;
import io.weir.util.ReferenceCountUtil;

/**
 * The discard client's side of one connection: writes one reused block of zeros over and over while the
 * channel is writable, stops when it is not, and starts again on {@link #channelWritabilityChanged}. Writes
 * are queued without flushing until the channel turns unwritable (or the byte limit is reached), then flushed
 * at once, so the write buffer fills to its high water mark and drains in large gathering writes. After the
 * last byte it shuts its output down; the server then closes the connection.
 *
 * <p>One instance per connection. Event methods run on the connection's event loop; the counters may be read
 * from any thread and are final once the channel is closed.
 */
public final class DiscardClientHandler implements ChannelHandler {
    private static final System.Logger LOGGER = System.getLogger(DiscardClientHandler.class.getName());

    /** Half-closes once the last write went out, or closes if it failed. */
    private static final ChannelFutureListener SHUTDOWN_OUTPUT_WHEN_SENT = future -> {
        if (future.isSuccess()) {
            ((DuplexChannel) future.channel()).shutdownOutput();
        } else {
            future.channel().close();
        }
    };

    private final int chunkSizeBytes;
    private final long maxBytes;
    private ByteBuf chunk;
    private Runnable resume;
    private boolean writing;
    private volatile long bytesWritten;
    private volatile int pauses;
    private volatile long startNanos;
    private volatile long endNanos;

    /**
     * A handler for one connection.
     *
     * @param chunkSizeBytes the size of each write, at least 1
     * @param maxBytes how many bytes to send before half-closing; 0 for no limit
     * @throws IllegalArgumentException if a value is out of range
     */
    public DiscardClientHandler(int chunkSizeBytes, long maxBytes) {
        if (chunkSizeBytes < 1) {
            throw new IllegalArgumentException("chunkSizeBytes: " + chunkSizeBytes + " (expected: >= 1)");
        }
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: >= 0)");
        }
        this.chunkSizeBytes = chunkSizeBytes;
        this.maxBytes = maxBytes;
    }

    /** Bytes handed to the channel so far (the last batch may still be on its way). */
    public long bytesWritten() {
        return bytesWritten;
    }

    /**
     * How many batches of writes ended because the channel turned unwritable (its write buffer passed the high
     * water mark): how often backpressure stopped the writer.
     */
    public int pauses() {
        return pauses;
    }

    /** Nanoseconds from connecting to closing (or to now, while open); 0 before connecting. */
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
        chunk = ctx.alloc().directBuffer(chunkSizeBytes).writeZero(chunkSizeBytes);
        resume = () -> writeWhileWritable(ctx);
        writeWhileWritable(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            writeWhileWritable(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // A discard server sends nothing; whatever comes is not ours to keep.
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        endNanos = System.nanoTime();
        releaseChunk();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseChunk();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOGGER.log(System.Logger.Level.WARNING, "Closing " + ctx.channel() + " after an error", cause);
        ctx.close();
    }

    private void writeWhileWritable(ChannelHandlerContext ctx) {
        Channel channel = ctx.channel();
        ByteBuf block = chunk;
        // A flush below can turn the channel writable again and call back in here; the check after it covers that.
        if (writing || block == null || !channel.isActive()) {
            return;
        }
        long written = bytesWritten;
        if (maxBytes != 0 && written >= maxBytes) {
            return;
        }
        writing = true;
        ChannelFuture last = null;
        while (channel.isWritable() && (maxBytes == 0 || written < maxBytes)) {
            int length = maxBytes == 0 ? chunkSizeBytes : (int) Math.min(chunkSizeBytes, maxBytes - written);
            // Each write gets its own view of the block, sharing its memory: the block itself stays ours.
            last = ctx.write(block.retainedSlice(0, length));
            written += length;
        }
        bytesWritten = written;
        boolean done = maxBytes != 0 && written >= maxBytes;
        if (done) {
            last.addListener(SHUTDOWN_OUTPUT_WHEN_SENT);
        } else if (last != null) {
            last.addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
            // Only the event loop writes the counter, so a plain increment of the volatile is safe.
            pauses++;
        }
        ctx.flush();
        writing = false;
        if (!done && last != null && channel.isWritable()) {
            // The socket took the whole batch at once. Go on in a task rather than looping here, so that the
            // other channels and tasks of this loop get their turn in between.
            ctx.executor().execute(resume);
        }
    }

    private void releaseChunk() {
        if (chunk != null) {
            chunk.release();
            chunk = null;
        }
    }
}
