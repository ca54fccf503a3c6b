package io.weir.handler.flow;

import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * Makes {@code read()} mean "one message" when auto-read is off. A decoder often produces several messages
 * from one read of the socket; placed after it, this handler queues them and passes on at most one per
 * {@link ChannelHandlerContext#read()} request, so a handler that asks for messages one at a time gets
 * exactly that. With auto-read on, messages pass straight through (after any still queued).
 *
 * <p>{@code channelReadComplete} is passed on only when the queue has drained, since the handlers after
 * this one see reads one message at a time. When the channel becomes inactive, queued messages are released
 * (unless constructed with {@code releaseMessages == false}); when the handler is removed, queued messages
 * are passed on to the next handler so none is lost.
 *
 * <p>Not {@link Sharable}. Event loop only.
 */
public class FlowControlHandler implements ChannelHandler {
    private final boolean releaseMessages;
    private ArrayDeque<Object> queue;
    private ChannelConfig config;
    // A read() found the queue empty: the next message to arrive is delivered at once.
    private boolean shouldConsume;

    /** A handler that releases queued messages when the channel becomes inactive. */
    public FlowControlHandler() {
        this(true);
    }

    /** A handler that releases queued messages on inactivity only if {@code releaseMessages}. */
    public FlowControlHandler(boolean releaseMessages) {
        this.releaseMessages = releaseMessages;
    }

    /** Whether no message is queued. Event loop only. */
    public boolean isQueueEmpty() {
        return queue == null || queue.isEmpty();
    }

    /** The number of queued messages. Event loop only. */
    public int queueSize() {
        return queue == null ? 0 : queue.size();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        config = ctx.channel().config();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        if (!isQueueEmpty()) {
            dequeue(ctx, queue.size());
        }
        destroy();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        destroy();
        ctx.fireChannelInactive();
    }

    private void destroy() {
        ArrayDeque<Object> q = queue;
        queue = null;
        if (q != null && releaseMessages) {
            Object msg;
            while ((msg = q.poll()) != null) {
                ReferenceCountUtil.safeRelease(msg);
            }
        }
    }

    @Override
    public void read(ChannelHandlerContext ctx) throws Exception {
        if (dequeue(ctx, 1) == 0) {
            // Nothing queued: ask upstream, and deliver the next message as soon as it comes.
            shouldConsume = true;
            ctx.read();
        } else if (config.isAutoRead()) {
            ctx.read();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (queue == null) {
            queue = new ArrayDeque<>();
        }
        queue.offer(msg);
        int minConsume = shouldConsume ? 1 : 0;
        shouldConsume = false;
        dequeue(ctx, minConsume);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        // While messages wait, the handlers after this one are still "in" the read; complete it later.
        if (isQueueEmpty()) {
            ctx.fireChannelReadComplete();
        }
    }

    /**
     * Delivers at least {@code minConsume} queued messages (all of them with auto-read on); fires
     * {@code channelReadComplete} once the queue drains after delivering something.
     */
    private int dequeue(ChannelHandlerContext ctx, int minConsume) {
        int consumed = 0;
        // The queue may be dropped by a re-entrant channelInactive or removal while a message is delivered.
        while (queue != null && (consumed < minConsume || config.isAutoRead())) {
            Object msg = queue.poll();
            if (msg == null) {
                break;
            }
            consumed++;
            ctx.fireChannelRead(msg);
        }
        if (queue != null && queue.isEmpty() && consumed > 0) {
            ctx.fireChannelReadComplete();
        }
        return consumed;
    }
}
