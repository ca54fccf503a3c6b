package io.weir.handler.stream;

import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelProgressivePromise;
import io.weir.channel.ChannelPromise;
import io.weir.util.ReferenceCountUtil;
import java.lang.System.Logger.Level;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;

/**
 * Writes {@link ChunkedInput}s chunk by chunk without filling memory: a chunk is read and written only while
 * the channel is {@linkplain Channel#isWritable() writable}, and the transfer resumes when the channel
 * becomes writable again. Other messages are written in order with the inputs around them.
 *
 * <p>Writes are queued here until a {@code flush}. A {@link ChannelProgressivePromise} given with an input
 * is told the progress after each chunk is written (and the total, when the input knows its length); it
 * succeeds when the last chunk is written. If reading or writing a chunk fails, the input is closed and its
 * promise failed; when the channel closes or the handler is removed, every queued input is closed, every
 * queued message released and every promise failed.
 *
 * <p>Not {@link Sharable}. Event-loop methods except {@link #resumeTransfer()}, which any thread may call.
 */
public class ChunkedWriteHandler implements ChannelHandler {
    private static final System.Logger LOGGER = System.getLogger(ChunkedWriteHandler.class.getName());

    private final ArrayDeque<PendingWrite> queue = new ArrayDeque<>();
    private volatile ChannelHandlerContext ctx;

    /** A handler with an empty queue. */
    public ChunkedWriteHandler() {
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        discard(new IllegalStateException("ChunkedWriteHandler removed from the pipeline with writes queued"));
    }

    /**
     * Continues a transfer that stopped because an input had no data yet ({@link ChunkedInput#readChunk}
     * returned {@code null} before the end). Any thread.
     */
    public void resumeTransfer() {
        ChannelHandlerContext ctx = this.ctx;
        if (ctx == null) {
            return;
        }
        if (ctx.executor().inEventLoop()) {
            resumeTransfer0(ctx);
        } else {
            ctx.executor().execute(() -> resumeTransfer0(ctx));
        }
    }

    private void resumeTransfer0(ChannelHandlerContext ctx) {
        try {
            doFlush(ctx);
        } catch (Exception e) {
            LOGGER.log(Level.DEBUG, "unexpected exception while resuming a chunked transfer", e);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        queue.add(new PendingWrite(msg, promise));
    }

    @Override
    public void flush(ChannelHandlerContext ctx) throws Exception {
        doFlush(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        doFlush(ctx);
        ctx.fireChannelInactive();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable()) {
            doFlush(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void discard(Throwable cause) {
        PendingWrite current;
        while ((current = queue.poll()) != null) {
            Object message = current.msg;
            if (message instanceof ChunkedInput<?> input) {
                boolean endOfInput;
                long length;
                long progress;
                try {
                    endOfInput = input.isEndOfInput();
                    length = input.length();
                    progress = input.progress();
                } catch (Exception e) {
                    endOfInput = false;
                    length = -1;
                    progress = 0;
                    LOGGER.log(Level.DEBUG, "ChunkedInput.isEndOfInput() failed", e);
                }
                closeInput(input);
                if (endOfInput) {
                    // Everything was written already; only the end was not seen yet.
                    current.success(progress, length);
                } else {
                    current.fail(cause != null ? cause : new ClosedChannelException());
                }
            } else {
                ReferenceCountUtil.release(message);
                current.fail(cause != null ? cause : new ClosedChannelException());
            }
        }
    }

    private void doFlush(ChannelHandlerContext ctx) {
        Channel channel = ctx.channel();
        if (!channel.isActive()) {
            discard(null);
            return;
        }
        boolean requiresFlush = true;
        ByteBufAllocator allocator = ctx.alloc();
        while (channel.isWritable()) {
            PendingWrite current = queue.peek();
            if (current == null) {
                break;
            }
            if (current.promise.isDone()) {
                // Cancelled by its writer: drop it without writing.
                queue.remove();
                if (current.msg instanceof ChunkedInput<?> input) {
                    closeInput(input);
                } else {
                    ReferenceCountUtil.release(current.msg);
                }
                continue;
            }
            Object pending = current.msg;
            if (pending instanceof ChunkedInput<?> input) {
                boolean endOfInput;
                boolean suspend;
                Object message = null;
                try {
                    message = input.readChunk(allocator);
                    endOfInput = input.isEndOfInput();
                    suspend = message == null && !endOfInput;
                } catch (Throwable t) {
                    queue.remove();
                    if (message != null) {
                        ReferenceCountUtil.release(message);
                    }
                    closeInput(input);
                    current.fail(t);
                    // The messages queued behind the failed input still go.
                    continue;
                }
                if (suspend) {
                    // No data yet: wait for resumeTransfer().
                    break;
                }
                if (message == null) {
                    // End of input with nothing left: an empty write still completes the promise in order.
                    message = Unpooled.EMPTY_BUFFER;
                }
                if (endOfInput) {
                    queue.remove();
                }
                ChannelFuture f = ctx.writeAndFlush(message);
                if (endOfInput) {
                    if (f.isDone()) {
                        endOfInputWritten(f, current, input);
                    } else {
                        f.addListener(future -> endOfInputWritten(future, current, input));
                    }
                } else {
                    boolean resume = !channel.isWritable();
                    if (f.isDone()) {
                        chunkWritten(f, current, input, resume);
                    } else {
                        f.addListener(future -> chunkWritten(future, current, input, resume));
                    }
                }
                requiresFlush = false;
            } else {
                queue.remove();
                ctx.write(pending, current.promise);
                requiresFlush = true;
            }
            if (!channel.isActive()) {
                discard(new ClosedChannelException());
                break;
            }
        }
        if (requiresFlush) {
            ctx.flush();
        }
    }

    private static void endOfInputWritten(ChannelFuture future, PendingWrite current, ChunkedInput<?> input) {
        long length;
        long progress;
        try {
            length = input.length();
            progress = input.progress();
        } catch (Throwable t) {
            length = -1;
            progress = 0;
        }
        closeInput(input);
        if (future.isSuccess()) {
            current.success(progress, length);
        } else {
            current.fail(future.cause());
        }
    }

    private void chunkWritten(ChannelFuture future, PendingWrite current, ChunkedInput<?> input, boolean resume) {
        if (future.isSuccess()) {
            current.progress(input.progress(), input.length());
            if (resume && future.channel().isWritable()) {
                resumeTransfer();
            }
        } else {
            closeInput(input);
            current.fail(future.cause());
            // The input is done for; drop it so the messages behind it can go.
            queue.remove(current);
        }
    }

    private static void closeInput(ChunkedInput<?> input) {
        try {
            input.close();
        } catch (Throwable t) {
            LOGGER.log(Level.DEBUG, "failed to close a chunked input", t);
        }
    }

    private static final class PendingWrite {
        final Object msg;
        final ChannelPromise promise;

        PendingWrite(Object msg, ChannelPromise promise) {
            this.msg = msg;
            this.promise = promise;
        }

        void fail(Throwable cause) {
            promise.tryFailure(cause);
        }

        /** Reports the final progress ({@code total} when known) and succeeds. */
        void success(long progress, long total) {
            if (promise.isDone()) {
                return;
            }
            progress(total >= 0 ? total : progress, total);
            promise.trySuccess();
        }

        void progress(long progress, long total) {
            if (promise instanceof ChannelProgressivePromise p) {
                p.tryProgress(progress, total);
            }
        }
    }
}
