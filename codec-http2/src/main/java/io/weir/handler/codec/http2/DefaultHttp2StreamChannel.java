package io.weir.handler.codec.http2;

import io.weir.channel.AbstractChannel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelId;
import io.weir.channel.ChannelPromise;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.MessageSizeEstimator;
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

    // Bits of state, below.
    private static final int OPEN = 1;
    private static final int READ_PENDING = 1 << 1;
    private static final int DELIVERING = 1 << 2;
    /** A task is queued to serve a read the last delivery left pending. */
    private static final int DELIVERY_SCHEDULED = 1 << 3;
    /** The multiplexer will call {@link #fireReadComplete()} at the end of the parent's read. */
    private static final int READ_COMPLETE_PENDING = 1 << 4;
    private static final int CLOSE_WHEN_DRAINED = 1 << 5;
    /** Inside {@link #doWriteThrough}. */
    private static final int WRITING = 1 << 6;
    private static final int CLOSE_AFTER_WRITE = 1 << 7;
    /**
     * The connection closed the stream and retired it: this child's close neither resets it nor hands it back to
     * the codec, so a close goes one way, connection to child.
     */
    private static final int STREAM_RETIRED = 1 << 8;
    /** Inside a delivery of channelRead or channelReadComplete: a close's deregistration waits for its end. */
    private static final int IN_DELIVERY = 1 << 9;
    /** Messages delivered per read when auto-read is off. */
    private static final int MAX_MESSAGES_PER_READ = 16;
    /**
     * A stream channel's default {@link io.weir.channel.ChannelOption#MESSAGE_SIZE_ESTIMATOR}: a DATA frame counts
     * its flow-controlled octets against the water marks, every other frame nothing (a head or a reset costs the
     * peer no window, and counting it would cost an atomic update per response).
     */
    static final MessageSizeEstimator FRAME_SIZE_ESTIMATOR = () -> msg ->
            msg instanceof Http2DataFrame data ? data.flowControlledBytes() : 0;

    /** The multiplexer's context in the connection's pipeline; its handler is the multiplexer. */
    private final ChannelHandlerContext parentCtx;
    final DefaultHttp2FrameStream stream;
    private final DefaultChannelConfig config;
    /**
     * Frames received and not yet read; created by the first frame that has to wait (most streams' frames are
     * read as they arrive, so most children never need one).
     */
    private ArrayDeque<Object> inbound;
    /**
     * The child's state bits above, in one field rather than nine booleans (a stream's channel is made per
     * request). Written on the event loop only; {@link #isOpen()} may be read from any thread, as before.
     */
    private short state = OPEN;
    /** Index in the multiplexer's list of children, -1 once removed from it. */
    int index = -1;
    /** This child's number on its connection, for its id (made when first asked for: most are never read). */
    private final int sequence;
    /** Handed to the connection with every frame this child writes: no promise and no listener per write. */
    private Http2StreamChannelWritePromise writePromise;
    /** The deregistration of a close made during a delivery, run when the delivery returns. */
    private Runnable deregistrationAfterDelivery;

    /**
     * @param parentCtx the multiplexer's context (its handler is the {@link Http2MultiplexHandler})
     */
    DefaultHttp2StreamChannel(ChannelHandlerContext parentCtx, DefaultHttp2FrameStream stream, int sequence) {
        super(parentCtx.channel(), parentCtx.channel().eventLoop(), true, true);
        this.parentCtx = parentCtx;
        this.sequence = sequence;
        this.stream = stream;
        this.config = new DefaultChannelConfig(this, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ,
                FRAME_SIZE_ESTIMATOR) {
            @Override
            protected void autoReadCleared() {
                // A handler paused reading (an unwritable stream, say): no further frame is delivered, not even
                // the rest of this delivery, and their bytes stay unconsumed, so the peer's window stops it.
                clear(READ_PENDING);
            }
        };
        stream.attachment = this;
    }

    private boolean is(int bit) {
        return (state & bit) != 0;
    }

    private void set(int bit) {
        state = (short) (state | bit);
    }

    private void clear(int bit) {
        state = (short) (state & ~bit);
    }

    private Http2MultiplexHandler multiplexer() {
        return (Http2MultiplexHandler) parentCtx.handler();
    }

    /** See {@link #STREAM_RETIRED}. */
    boolean streamRetired() {
        return is(STREAM_RETIRED);
    }

    @Override
    protected ChannelId newId() {
        return new StreamChannelId(parent().id(), sequence);
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
        return is(OPEN);
    }

    /**
     * The multiplexer closes every child when the connection closes, so the event loop need not track each
     * stream's channel to close it at shutdown (one set insert and removal per stream).
     */
    @Override
    protected boolean isClosedByParent() {
        return true;
    }

    @Override
    public boolean isActive() {
        return is(OPEN);
    }

    /** The connection's, which caches it: a stream's channel keeps no copy (its close would take one). */
    @Override
    public SocketAddress localAddress() {
        return parent().localAddress();
    }

    /** The connection's, which caches it. */
    @Override
    public SocketAddress remoteAddress() {
        return parent().remoteAddress();
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
        clear(OPEN);
        releaseInbound();
        multiplexer().childClosed(this);
    }

    private void releaseInbound() {
        ArrayDeque<Object> queue = inbound;
        if (queue == null) {
            return;
        }
        Object msg;
        while ((msg = queue.pollFirst()) != null) {
            ReferenceCountUtil.safeRelease(msg);
        }
    }

    private boolean inboundEmpty() {
        return inbound == null || inbound.isEmpty();
    }

    private Object pollInbound() {
        return inbound == null ? null : inbound.pollFirst();
    }

    @Override
    protected void doBeginRead() {
        set(READ_PENDING);
        if (!is(DELIVERING) && !inboundEmpty()) {
            deliver(!multiplexer().inParentRead());
        }
    }

    /** A frame of this stream arrived (on the event loop). */
    void frameReceived(Object frame) {
        int s = state;
        if ((s & OPEN) == 0) {
            ReferenceCountUtil.release(frame);
            return;
        }
        if ((s & (READ_PENDING | DELIVERING)) == READ_PENDING && inboundEmpty()) {
            // Nothing waits before it: read at once, without a trip through the queue.
            deliver(!multiplexer().inParentRead(), frame);
            return;
        }
        ArrayDeque<Object> queue = inbound;
        if (queue == null) {
            queue = new ArrayDeque<>(4);
            inbound = queue;
        }
        queue.addLast(frame);
        if ((state & (READ_PENDING | DELIVERING)) == READ_PENDING) {
            deliver(!multiplexer().inParentRead());
        }
    }

    /**
     * Hands queued frames to the pipeline while a read is pending. Inside the parent's read, channelReadComplete
     * waits for the parent's (one per child per parent read); otherwise it follows at once.
     */
    private void deliver(boolean completeNow) {
        deliver(completeNow, null);
    }

    /**
     * As {@link #deliver(boolean)}, reading {@code first} (if not null) before the queue; only called while open
     * with a read pending, so {@code first} is always read.
     */
    private void deliver(boolean completeNow, Object first) {
        // Also called from a handler's channelReadComplete (a read it asked for): the outer delivery ends it.
        boolean outer = !is(IN_DELIVERY);
        set(DELIVERING | IN_DELIVERY);
        try {
            int budget = config.isAutoRead() ? Integer.MAX_VALUE : MAX_MESSAGES_PER_READ;
            Object msg = first;
            boolean delivered = false;
            while ((state & (OPEN | READ_PENDING)) == (OPEN | READ_PENDING) && budget-- > 0
                    && (msg != null || (msg = pollInbound()) != null)) {
                if (!config.isAutoRead() && (budget <= 0 || inboundEmpty())) {
                    clear(READ_PENDING);
                }
                int consumed = msg instanceof Http2DataFrame data ? data.content().readableBytes() : 0;
                delivered = true;
                Object read = msg;
                msg = null;
                pipeline().fireChannelRead(read);
                if (consumed > 0) {
                    // The reader took the bytes: give them back to the peer's windows (RFC 9113 §6.9).
                    multiplexer().consumeBytes(stream, consumed);
                }
            }
            if (delivered) {
                if (completeNow) {
                    pipeline().fireChannelReadComplete();
                } else if ((state & (OPEN | READ_COMPLETE_PENDING)) == OPEN) {
                    // Not for a child the delivery closed (most streams end in their handler's channelRead): it
                    // would get no channelReadComplete, and the multiplexer would touch it again for nothing at the
                    // end of the parent's read, when it is out of cache.
                    set(READ_COMPLETE_PENDING);
                    multiplexer().readCompleteLater(this);
                }
            }
        } finally {
            clear(DELIVERING);
            if (outer) {
                endDelivery();
            }
        }
        if (is(CLOSE_WHEN_DRAINED) && inboundEmpty()) {
            close(voidPromise());
        } else if ((state & (OPEN | READ_PENDING | DELIVERY_SCHEDULED)) == (OPEN | READ_PENDING)
                && !inboundEmpty()) {
            // A read the pipeline asked for during this delivery (from channelRead or channelReadComplete) that the
            // per-read budget left unserved: served by a task, not here, so one stream's backlog does not hold the
            // loop. Without it the frames would wait for a read that already happened, their bytes unconsumed, and
            // the peer, out of window, would wait for them: the stream would stall.
            // A task per scheduled delivery, not a field per channel: rare (a backlog past one read's budget).
            set(DELIVERY_SCHEDULED);
            eventLoop().execute(this::deliverPendingRead);
        }
    }

    private void deliverPendingRead() {
        clear(DELIVERY_SCHEDULED);
        if ((state & (OPEN | READ_PENDING | DELIVERING)) == (OPEN | READ_PENDING) && !inboundEmpty()) {
            deliver(!multiplexer().inParentRead());
        }
    }

    /** Called by the multiplexer at the end of the parent's read. */
    void fireReadComplete() {
        clear(READ_COMPLETE_PENDING);
        if (is(OPEN)) {
            boolean outer = !is(IN_DELIVERY);
            set(IN_DELIVERY);
            try {
                pipeline().fireChannelReadComplete();
            } finally {
                if (outer) {
                    endDelivery();
                }
            }
        }
    }

    /**
     * A close during a delivery (most often the stream's last frame, written in {@code channelRead}) leaves its
     * deregistration here, run as the delivery returns rather than as a loop task after the parent's whole read:
     * one task fewer per stream, and the channel is still in cache.
     */
    @Override
    protected void executeDeregistration(Runnable deregistration) {
        if (is(IN_DELIVERY) && deregistrationAfterDelivery == null) {
            deregistrationAfterDelivery = deregistration;
        } else {
            super.executeDeregistration(deregistration);
        }
    }

    private void endDelivery() {
        clear(IN_DELIVERY);
        Runnable deregistration = deregistrationAfterDelivery;
        if (deregistration != null) {
            deregistrationAfterDelivery = null;
            deregistration.run();
        }
    }

    /** The stream closed: close once the frames already queued were read. */
    void streamClosed() {
        set(STREAM_RETIRED);
        if (is(WRITING)) {
            // Inside doWriteThrough (our own last frame closed the stream): close once the codec's write returned.
            set(CLOSE_AFTER_WRITE);
        } else if (inboundEmpty()) {
            close(voidPromise());
        } else {
            set(CLOSE_WHEN_DRAINED);
        }
    }

    /**
     * Hands the frame to the connection now (the connection queues it until the parent is flushed, so this channel
     * queues nothing of its own) and completes {@code promise} once the codec accepted or refused it.
     */
    @Override
    protected void doWriteThrough(Object msg, ChannelPromise promise) {
        // filterOutboundMessage let only stream frames through.
        Http2StreamFrame frame = asStreamFrame(msg);
        Http2StreamFrame bound = frame.stream() == stream ? frame : frame.withStream(stream);
        set(WRITING);
        try {
            if (stream.hasPending()) {
                writeWithOwnPromise(bound, promise);
            } else {
                // Nothing of this stream waits for window: the only frame the connection can fail during this call
                // is this one, so a failure reported during the call is its refusal and one shared promise serves.
                Http2StreamChannelWritePromise shared = writePromise();
                Throwable refused;
                shared.beginWrite();
                try {
                    parentCtx.write(bound, shared);
                } finally {
                    refused = shared.endWrite();
                }
                if (refused != null) {
                    promise.tryFailure(refused);
                } else {
                    promise.trySuccess();
                }
            }
        } finally {
            clear(WRITING);
        }
        if (is(CLOSE_AFTER_WRITE)) {
            // This frame ended the stream, so this channel closes now and may never see the channelReadComplete
            // its handler would flush in: the connection is flushed for it (at the end of the parent's read when
            // inside one), as nothing more can follow on the stream.
            clear(CLOSE_AFTER_WRITE);
            multiplexer().flushParent();
            streamClosed();
        }
    }

    @Override
    protected void doFlushThrough() {
        multiplexer().flushParent();
    }

    /**
     * Writes {@code frame} with a promise of its own: frames of this stream wait in the connection's flow-control
     * queue, and this write may fail them (a reset drops them), so a failure during the call need not be this
     * frame's. Rare: only streams out of send window get here.
     */
    private void writeWithOwnPromise(Http2StreamFrame frame, ChannelPromise childPromise) {
        ChannelPromise promise = parentCtx.newPromise();
        parentCtx.write(frame, promise);
        if (promise.isDone() && !promise.isSuccess()) {
            childPromise.tryFailure(promise.cause());
            return;
        }
        if (!promise.isDone()) {
            // Outside beginWrite/endWrite, a failure the relay reports is a frame lost: frameLost, as wanted here.
            promise.addListener(writePromise().relay());
        }
        childPromise.trySuccess();
    }

    private Http2StreamChannelWritePromise writePromise() {
        Http2StreamChannelWritePromise promise = writePromise;
        if (promise == null) {
            promise = new Http2StreamChannelWritePromise(this);
            writePromise = promise;
        }
        return promise;
    }

    /**
     * A frame accepted earlier did not reach the socket. The codec's own refusals of queued frames (the stream was
     * reset or ended: an {@link Http2Exception}) lose nothing on the wire, and if the connection is closing its
     * children learn that from {@code channelInactive}. Otherwise the bytes are lost from the middle of the
     * connection's stream, so the cause is fired here (where the writer listens) and the connection, now out of
     * step, is closed.
     */
    void frameLost(Throwable cause) {
        if (cause instanceof Http2Exception || !parent().isOpen()) {
            return;
        }
        if (is(OPEN)) {
            pipeline().fireExceptionCaught(cause);
        }
        multiplexer().frameWriteFailed(cause);
    }

    /**
     * {@code msg} as a stream frame, or null. DATA and HEADERS are recognised by their classes before the interface
     * is asked: on JDK 17 to 22 a check against an interface rewrites the class's one-entry type-check cache
     * (JDK-8180450), and a DATA frame is also checked against {@code ReferenceCounted} when it is released, so each
     * frame would pay a scan of its interfaces twice.
     */
    static Http2StreamFrame asStreamFrame(Object msg) {
        if (msg instanceof Http2DataFrame data) {
            return data;
        }
        if (msg instanceof Http2HeadersFrame headers) {
            return headers;
        }
        return msg instanceof Http2StreamFrame frame ? frame : null;
    }

    @Override
    protected Object filterOutboundMessage(Object msg) {
        if (asStreamFrame(msg) != null) {
            return msg;
        }
        throw new IllegalArgumentException("a stream channel writes Http2StreamFrame, not "
                + (msg == null ? "null" : msg.getClass().getName()));
    }

    @Override
    public String toString() {
        return "Http2StreamChannel{stream=" + stream.id + ", parent=" + parent() + '}';
    }

    /**
     * A child's id: its connection's id and the child's number on that connection, as {@code <parent>/<n>}. Unique
     * as long as the connection's is, and made without the random bytes, clock read and hashing of a
     * {@code DefaultChannelId}, once per stream.
     */
    static final class StreamChannelId implements ChannelId {
        private static final long serialVersionUID = 1L;

        private final ChannelId parent;
        private final int sequence;

        StreamChannelId(ChannelId parent, int sequence) {
            this.parent = parent;
            this.sequence = sequence;
        }

        @Override
        public String asShortText() {
            return parent.asShortText() + '/' + Integer.toUnsignedString(sequence);
        }

        @Override
        public String asLongText() {
            return parent.asLongText() + '/' + Integer.toUnsignedString(sequence);
        }

        @Override
        public int compareTo(ChannelId o) {
            if (o instanceof StreamChannelId other && parent.equals(other.parent)) {
                return Integer.compareUnsigned(sequence, other.sequence);
            }
            return asLongText().compareTo(o.asLongText());
        }

        @Override
        public boolean equals(Object o) {
            return o == this || o instanceof StreamChannelId other && sequence == other.sequence
                    && parent.equals(other.parent);
        }

        @Override
        public int hashCode() {
            return parent.hashCode() * 31 + sequence;
        }

        @Override
        public String toString() {
            return asShortText();
        }
    }
}
