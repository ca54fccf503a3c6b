package io.weir.handler.codec.http2;

import io.weir.channel.ChannelDrainEvent;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Objects;

/**
 * Gives each HTTP/2 stream its own {@link Http2StreamChannel}: placed right after an {@link Http2FrameCodec}, it
 * creates a child channel for every stream the peer opens, initialises its pipeline with the handler given here
 * (typically a {@code ChannelInitializer}), and routes the stream's frames to it. Connection-level frames
 * (SETTINGS, PING, GOAWAY, unknown) continue down the parent's pipeline. Streams we open come from an
 * {@link Http2StreamChannelBootstrap}.
 *
 * <p>Children live on the parent's event loop. A child's writability follows its stream's send window, the
 * parent's writability and the connection's output bound ({@link Http2FrameCodecBuilder#maxQueuedOutboundBytes}),
 * and its own water marks, against which the DATA it wrote and has not flushed counts (its flow-controlled octets;
 * other frames count nothing, as with Netty's stream channels); received DATA goes back to the peer's windows as
 * the child reads it. A child closed
 * before its stream ended resets the stream with CANCEL (counted, like every reset the server sends, by the
 * codec's reset limit). All children close when the connection does.
 *
 * <p>Only used from the parent's event loop; one instance per connection.
 */
public final class Http2MultiplexHandler implements ChannelHandler, Http2StreamObserver {

    private final ChannelHandler inboundStreamHandler;
    private Http2FrameCodec codec;
    private ChannelHandlerContext ctx;
    private final ArrayList<DefaultHttp2StreamChannel> children = new ArrayList<>();
    private final ArrayDeque<DefaultHttp2StreamChannel> readCompletePending = new ArrayDeque<>();
    private boolean inParentRead;
    /** Numbers this connection's children for their ids. */
    private int childSequence;
    private boolean parentFlushPending;
    /** How deep {@link #flushingOnceAfter} calls are nested: while above 0, children's flushes wait for its end. */
    private int flushHolds;

    /**
     * @param inboundStreamHandler added to the pipeline of each child made for a stream the peer opens; it must be
     *        {@link ChannelHandler.Sharable} or a {@code ChannelInitializer}
     */
    public Http2MultiplexHandler(ChannelHandler inboundStreamHandler) {
        this.inboundStreamHandler = Objects.requireNonNull(inboundStreamHandler, "inboundStreamHandler");
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        Http2FrameCodec c = ctx.pipeline().get(Http2FrameCodec.class);
        if (c == null) {
            throw new IllegalStateException("Http2MultiplexHandler needs an Http2FrameCodec before it in the pipeline");
        }
        this.ctx = ctx;
        this.codec = c;
        c.observer(this);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        // The loop does not track stream channels: without their multiplexer nothing else would ever close them.
        closeChildren();
        codec.observer(null);
    }

    /** Opens a child for a stream we start (used by the bootstrap). Event loop only. */
    DefaultHttp2StreamChannel newOutboundChild(ChannelHandler handler) {
        DefaultHttp2StreamChannel child = new DefaultHttp2StreamChannel(ctx,
                (DefaultHttp2FrameStream) codec.newStream(), childSequence++);
        register(child, handler);
        return child;
    }

    /** Opens the child of stream 1 after a client's HTTP/1.1 Upgrade to h2c. Event loop only. */
    Http2StreamChannel newUpgradeChild(DefaultHttp2FrameStream stream, ChannelHandler handler) {
        DefaultHttp2StreamChannel child = new DefaultHttp2StreamChannel(ctx, stream, childSequence++);
        register(child, handler);
        return child;
    }

    private void register(DefaultHttp2StreamChannel child, ChannelHandler handler) {
        child.index = children.size();
        children.add(child);
        if (handler != null) {
            // Named null: the varargs addLast would build an array per stream.
            child.pipeline().addLast(null, handler);
        }
        // A new channel is writable: only an unwritable start is set.
        if (!codec.isConnectionWritable()) {
            child.setUserDefinedWritability(DefaultHttp2StreamChannel.PARENT_BIT, false);
        }
        // A stream that starts without send window (the peer's SETTINGS_INITIAL_WINDOW_SIZE is 0) is unwritable
        // from its first moment; later changes come as events, this first state would not.
        DefaultHttp2FrameStream stream = child.stream;
        if (stream.remoteWindow != null && !stream.writable) {
            child.setUserDefinedWritability(DefaultHttp2StreamChannel.STREAM_WINDOW_BIT, false);
        }
        child.register(child.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Http2StreamFrame frame = DefaultHttp2StreamChannel.asStreamFrame(msg);
        if (frame == null) {
            ctx.fireChannelRead(msg);
            return;
        }
        inParentRead = true;
        DefaultHttp2FrameStream stream = (DefaultHttp2FrameStream) frame.stream();
        Object attachment = stream.attachment;
        if (attachment instanceof DefaultHttp2StreamChannel child) {
            child.frameReceived(msg);
            return;
        }
        if (attachment == null && msg instanceof Http2HeadersFrame && codec.isServer() == (stream.id % 2 == 1)
                && stream.isActive()) {
            DefaultHttp2StreamChannel child = new DefaultHttp2StreamChannel(ctx, stream, childSequence++);
            register(child, inboundStreamHandler);
            child.frameReceived(msg);
            return;
        }
        // A frame for a stream whose child is gone: nobody reads it.
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        DefaultHttp2StreamChannel child;
        // Children's flushes during their channelReadComplete are coalesced into one parent flush.
        inParentRead = true;
        try {
            while ((child = readCompletePending.pollFirst()) != null) {
                child.fireReadComplete();
            }
        } finally {
            inParentRead = false;
        }
        if (parentFlushPending) {
            parentFlushPending = false;
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    boolean inParentRead() {
        return inParentRead;
    }

    void readCompleteLater(DefaultHttp2StreamChannel child) {
        readCompletePending.addLast(child);
    }

    void flushParent() {
        if (inParentRead || flushHolds > 0) {
            parentFlushPending = true;
        } else {
            ctx.flush();
        }
    }

    /**
     * Runs {@code batch} with the connection's flush held back: what children flush during it goes out in one flush
     * of the connection when it returns, as what they flush during the connection's read goes out at the read's end.
     * For work on the event loop that writes to many streams outside a read, such as a timer or a task starting a
     * batch of requests: one write to the socket instead of one per stream. Calls may nest; the outermost flushes.
     *
     * @throws IllegalStateException off the connection's event loop, or before this handler is added
     */
    public void flushingOnceAfter(Runnable batch) {
        ChannelHandlerContext context = ctx;
        if (context == null || !context.executor().inEventLoop()) {
            throw new IllegalStateException("flushingOnceAfter runs on the connection's event loop, after "
                    + "the multiplexer was added");
        }
        flushHolds++;
        try {
            batch.run();
        } finally {
            if (--flushHolds == 0 && !inParentRead && parentFlushPending) {
                parentFlushPending = false;
                context.flush();
            }
        }
    }

    void consumeBytes(DefaultHttp2FrameStream stream, int octets) {
        codec.consumeBytes(stream, octets);
    }

    /** A frame a child wrote was lost on its way to the socket: the connection is out of step and ends. */
    void frameWriteFailed(Throwable cause) {
        codec.frameWriteFailed(cause);
    }

    /** A child closed: reset its stream if it is still open. */
    void childClosed(DefaultHttp2StreamChannel child) {
        int i = child.index;
        if (i >= 0) {
            DefaultHttp2StreamChannel last = children.remove(children.size() - 1);
            if (last != child) {
                children.set(i, last);
                last.index = i;
            }
            child.index = -1;
        }
        DefaultHttp2FrameStream stream = child.stream;
        stream.attachment = Boolean.FALSE;
        if (child.streamRetired()) {
            // The connection closed this stream and told the child: nothing to reset, nothing to retire.
            return;
        }
        if (stream.id > 0 && !stream.state.isClosed() && ctx.channel().isActive()) {
            if (stream.outboundEnded && stream.hasPending()) {
                // The child's complete response still waits for window: it goes first, then the reset.
                stream.resetWhenSent = true;
                return;
            }
            // RFC 9113 §8.1: after a complete response, a server stops the rest of the request without error;
            // before one, the stream is cancelled.
            long code = stream.outboundEnded ? Http2Error.NO_ERROR.code() : Http2Error.CANCEL.code();
            ctx.write(new Http2ResetFrame(stream, code), ctx.voidPromise());
            flushParent();
        } else if (stream.id > 0 && stream.state.isClosed()) {
            // The child closed while reading the frame that ended its stream, before the codec retired the
            // stream: retire it now, so that a stream opened from this child's closeFuture does not find it
            // still counted against the peer's SETTINGS_MAX_CONCURRENT_STREAMS (RFC 9113 §5.1.2).
            codec.closeIfBothEnded(stream);
        }
    }

    @Override
    public void streamClosed(DefaultHttp2FrameStream stream) {
        if (stream.attachment instanceof DefaultHttp2StreamChannel child) {
            child.streamClosed();
        }
    }

    @Override
    public void streamWritabilityChanged(DefaultHttp2FrameStream stream) {
        if (stream.attachment instanceof DefaultHttp2StreamChannel child) {
            child.setUserDefinedWritability(DefaultHttp2StreamChannel.STREAM_WINDOW_BIT, stream.writable);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        connectionWritabilityChanged();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void connectionWritabilityChanged() {
        boolean writable = codec.isConnectionWritable();
        for (int i = 0; i < children.size(); i++) {
            children.get(i).setUserDefinedWritability(DefaultHttp2StreamChannel.PARENT_BIT, writable);
        }
    }

    /** A {@link ChannelDrainEvent} reaches every open stream too (a WebSocket on one says 1001). */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelDrainEvent) {
            for (int i = children.size() - 1; i >= 0; i--) {
                if (i < children.size()) {
                    children.get(i).pipeline().fireUserEventTriggered(evt);
                }
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closeChildren();
        ctx.fireChannelInactive();
    }

    /**
     * A close asked for while the event loop shuts down (the loop closing the connections it still has) closes
     * every child first. Children are not tracked by the loop (no per-stream registration in its bookkeeping), so
     * the connection is what closes them; and it must do so now, before the codec's graceful close, which would
     * otherwise wait for streams that no handler will end on a loop that runs no more timers.
     */
    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (ctx.executor().isShuttingDown()) {
            closeChildren();
        }
        ctx.close(promise);
    }

    private void closeChildren() {
        for (int i = children.size() - 1; i >= 0; i--) {
            if (i < children.size()) {
                DefaultHttp2StreamChannel child = children.get(i);
                child.close(child.voidPromise());
            }
        }
    }
}
