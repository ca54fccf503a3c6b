package io.weir.handler.codec.http2;

import io.weir.channel.AbstractChannel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPromise;
import io.weir.channel.DefaultChannelConfig;
import io.weir.util.ReferenceCountUtil;
import java.net.SocketAddress;
import java.util.ArrayDeque;

/**
 * The child channel of one stream. It has no I/O handle: reads are frames the multiplexer hands over, writes go
 * to the parent's pipeline through the codec. Everything runs on the parent's event loop.
 *
 * <p>Writes complete their promise when the codec accepted the frame (queued it for flow control or wrote it to
 * the parent's outbound buffer), or fail at once when the codec refused it (a closed stream). A frame the
 * connection fails to write later, while it stays open (the transport refused the bytes), is never silent: the
 * failure is fired as {@code exceptionCaught} in this child and the connection is closed, since the peer's HPACK
 * and flow-control state no longer match ours.
 */
final class DefaultHttp2StreamChannel extends AbstractChannel implements Http2StreamChannel {

    /** Writability bit of the stream's send window. */
    static final int STREAM_WINDOW_BIT = 1;
    /** Writability bit of the parent channel. */
    static final int PARENT_BIT = 2;
    /** Messages delivered per read when auto-read is off. */
    private static final int MAX_MESSAGES_PER_READ = 16;

    private final Http2MultiplexHandler multiplexer;
    private final ChannelHandlerContext parentCtx;
    final DefaultHttp2FrameStream stream;
    private final DefaultChannelConfig config;
    private final ArrayDeque<Object> inbound = new ArrayDeque<>(4);
    private boolean open = true;
    private boolean readPending;
    private boolean delivering;
    /** A task is queued to serve a read the last delivery left pending. */
    private boolean deliveryScheduled;
    private final Runnable deliverPendingRead = this::deliverPendingRead;
    boolean readCompletePending;
    private boolean closeWhenDrained;
    private boolean writing;
    private boolean closeAfterWrite;
    int index = -1;
    /** Watches the parent's write of each frame this child wrote; one per child, no allocation per write. */
    private final ChannelFutureListener parentWriteDone = this::parentWriteDone;

    DefaultHttp2StreamChannel(Http2MultiplexHandler multiplexer, ChannelHandlerContext parentCtx,
            DefaultHttp2FrameStream stream) {
        super(parentCtx.channel(), parentCtx.channel().eventLoop());
        this.multiplexer = multiplexer;
        this.parentCtx = parentCtx;
        this.stream = stream;
        this.config = new DefaultChannelConfig(this) {
            @Override
            protected void autoReadCleared() {
                // A handler paused reading (an unwritable stream, say): no further frame is delivered, not even
                // the rest of this delivery, and their bytes stay unconsumed, so the peer's window stops it.
                readPending = false;
            }
        };
        stream.attachment = this;
    }

    @Override
    public Http2FrameStream stream() {
        return stream;
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public boolean isActive() {
        return open;
    }

    @Override
    protected SocketAddress localAddress0() {
        return parent().localAddress();
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return parent().remoteAddress();
    }

    @Override
    protected void doBind(SocketAddress localAddress) {
        throw new UnsupportedOperationException("a stream channel cannot bind");
    }

    @Override
    protected void doClose() {
        open = false;
        releaseInbound();
        multiplexer.childClosed(this);
    }

    private void releaseInbound() {
        Object msg;
        while ((msg = inbound.pollFirst()) != null) {
            ReferenceCountUtil.safeRelease(msg);
        }
    }

    @Override
    protected void doBeginRead() {
        readPending = true;
        if (!delivering && !inbound.isEmpty()) {
            deliver(!multiplexer.inParentRead());
        }
    }

    /** A frame of this stream arrived (on the event loop). */
    void frameReceived(Object frame) {
        if (!open) {
            ReferenceCountUtil.release(frame);
            return;
        }
        inbound.addLast(frame);
        if (readPending && !delivering) {
            deliver(!multiplexer.inParentRead());
        }
    }

    /**
     * Hands queued frames to the pipeline while a read is pending. Inside the parent's read, channelReadComplete
     * waits for the parent's (one per child per parent read); otherwise it follows at once.
     */
    private void deliver(boolean completeNow) {
        delivering = true;
        try {
            int budget = config.isAutoRead() ? Integer.MAX_VALUE : MAX_MESSAGES_PER_READ;
            Object msg;
            boolean delivered = false;
            while (open && readPending && budget-- > 0 && (msg = inbound.pollFirst()) != null) {
                if (!config.isAutoRead()) {
                    readPending = budget > 0 && !inbound.isEmpty();
                }
                int consumed = msg instanceof Http2DataFrame data ? data.content().readableBytes() : 0;
                delivered = true;
                pipeline().fireChannelRead(msg);
                if (consumed > 0) {
                    // The reader took the bytes: give them back to the peer's windows (RFC 9113 §6.9).
                    multiplexer.consumeBytes(stream, consumed);
                }
            }
            if (delivered) {
                if (completeNow) {
                    pipeline().fireChannelReadComplete();
                } else if (!readCompletePending) {
                    readCompletePending = true;
                    multiplexer.readCompleteLater(this);
                }
            }
        } finally {
            delivering = false;
        }
        if (closeWhenDrained && inbound.isEmpty()) {
            close();
        } else if (open && readPending && !inbound.isEmpty() && !deliveryScheduled) {
            // A read the pipeline asked for during this delivery (from channelRead or channelReadComplete) that the
            // per-read budget left unserved: served by a task, not here, so one stream's backlog does not hold the
            // loop. Without it the frames would wait for a read that already happened, their bytes unconsumed, and
            // the peer, out of window, would wait for them: the stream would stall.
            deliveryScheduled = true;
            eventLoop().execute(deliverPendingRead);
        }
    }

    private void deliverPendingRead() {
        deliveryScheduled = false;
        if (open && readPending && !delivering && !inbound.isEmpty()) {
            deliver(!multiplexer.inParentRead());
        }
    }

    /** Called by the multiplexer at the end of the parent's read. */
    void fireReadComplete() {
        readCompletePending = false;
        if (open) {
            pipeline().fireChannelReadComplete();
        }
    }

    /** The stream closed: close once the frames already queued were read. */
    void streamClosed() {
        if (writing) {
            // Inside doWrite (our own last frame closed the stream): close once the write loop is done.
            closeAfterWrite = true;
        } else if (inbound.isEmpty()) {
            close();
        } else {
            closeWhenDrained = true;
        }
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        writing = true;
        try {
            writeFrames(in);
        } finally {
            writing = false;
        }
        if (closeAfterWrite) {
            closeAfterWrite = false;
            streamClosed();
        }
    }

    private void writeFrames(ChannelOutboundBuffer in) {
        boolean wrote = false;
        for (;;) {
            Object msg = in.current();
            if (msg == null) {
                break;
            }
            if (!(msg instanceof Http2StreamFrame frame)) {
                in.remove(new IllegalArgumentException("a stream channel writes Http2StreamFrame, not "
                        + msg.getClass().getName()));
                continue;
            }
            // The outbound buffer releases its reference on remove(); the codec takes this one.
            ReferenceCountUtil.retain(msg);
            Http2StreamFrame bound = frame.stream() == stream ? frame : frame.withStream(stream);
            ChannelPromise promise = parentCtx.newPromise();
            parentCtx.write(bound, promise);
            wrote = true;
            if (promise.isDone() && !promise.isSuccess()) {
                in.remove(promise.cause());
            } else {
                if (!promise.isDone()) {
                    promise.addListener(parentWriteDone);
                }
                in.remove();
            }
        }
        if (wrote) {
            multiplexer.flushParent();
        }
    }

    /**
     * A frame accepted earlier did not reach the socket. The codec's own refusals of queued frames (the stream was
     * reset or ended: an {@link Http2Exception}) lose nothing on the wire, and if the connection is closing its
     * children learn that from {@code channelInactive}. Otherwise the bytes are lost from the middle of the
     * connection's stream, so the cause is fired here (where the writer listens) and the connection, now out of
     * step, is closed.
     */
    private void parentWriteDone(ChannelFuture future) {
        if (future.isSuccess() || future.cause() instanceof Http2Exception || !parent().isOpen()) {
            return;
        }
        if (open) {
            pipeline().fireExceptionCaught(future.cause());
        }
        multiplexer.frameWriteFailed(future.cause());
    }

    @Override
    protected Object filterOutboundMessage(Object msg) {
        if (msg instanceof Http2StreamFrame) {
            return msg;
        }
        throw new IllegalArgumentException("a stream channel writes Http2StreamFrame, not "
                + (msg == null ? "null" : msg.getClass().getName()));
    }

    @Override
    public String toString() {
        return "Http2StreamChannel{stream=" + stream.id + ", parent=" + parent() + '}';
    }
}
