package io.weir.handler.codec.http2.internal;

import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * Outbound flow control (RFC 9113 §5.2, §6.9): DATA waits in its stream's queue until both the stream's and the
 * connection's send windows allow it, and the connection window is shared round-robin among the streams that have
 * something to send, at most one frame's worth per stream per turn, so that one large body cannot starve the
 * others. Trailers queued behind DATA keep their place. Only called from the connection's event loop.
 */
final class Http2OutboundFlow {

    private final Http2DataSink sink;
    private final Http2FrameWriter writer;
    final Http2FlowWindow connectionWindow = new Http2FlowWindow(0, 65_535);
    /** Streams with queued frames and stream window to send them, in turn order. */
    private final ArrayDeque<Http2StreamRecord> ready = new ArrayDeque<>();
    long queuedBytes;
    /** Flow-controlled octets sent since the connection started: the write-progress clock's measure. */
    long sentBytes;
    /**
     * The connection window ran out and every stream waiting then was marked stalled; streams that join the line
     * while it stays out are marked as they join. Cleared when DATA moves again.
     */
    private boolean connectionStalled;

    /** {@code writer} only answers the peer's maximum frame size; every frame goes out through {@code sink}. */
    Http2OutboundFlow(Http2DataSink sink, Http2FrameWriter writer) {
        this.sink = sink;
        this.writer = writer;
    }

    /** Queues a DATA frame (takes ownership) and writes what the windows allow. */
    void enqueueData(Http2StreamRecord stream, Http2DataFrame frame,
            ChannelPromise promise) {
        int size = frame.flowControlledBytes();
        if (ready.isEmpty() && !stream.hasPending() && size <= sendableNow(stream)) {
            // Nobody waits and the whole frame fits: it goes out now, without a queue or a turn in line.
            stream.stalledSinceNanos = 0;
            stream.pendingBytes += size;
            queuedBytes += size;
            consume(stream, size);
            sink.sendData(stream, frame.content(), frame.padding(), frame.endStream(), promise);
            return;
        }
        enqueue(stream, frame, promise);
        stream.pendingBytes += size;
        queuedBytes += size;
        if (!stream.queuedForWrite) {
            joinReady(stream);
        }
        writePending();
        updateWritability(stream);
    }

    /** Puts a stream with DATA to send in line; on a connection out of window, it is stalled from now. */
    private void joinReady(Http2StreamRecord stream) {
        stream.queuedForWrite = true;
        ready.addLast(stream);
        if (connectionStalled) {
            markStalled(stream);
        }
    }

    /** Queues trailers behind the stream's queued DATA (they cost no window). */
    void enqueueTrailers(Http2StreamRecord stream, Http2HeadersFrame frame,
            ChannelPromise promise) {
        enqueue(stream, frame, promise);
        if (!stream.queuedForWrite) {
            stream.queuedForWrite = true;
            ready.addLast(stream);
        }
        writePending();
    }

    private static void enqueue(Http2StreamRecord stream, Object frame, ChannelPromise promise) {
        if (stream.pendingFrames == null) {
            stream.pendingFrames = new ArrayDeque<>(4);
            stream.pendingPromises = new ArrayDeque<>(4);
        }
        stream.pendingFrames.addLast(frame);
        stream.pendingPromises.addLast(promise);
    }

    /** After a WINDOW_UPDATE or a SETTINGS change: give a stream its turn again. */
    void streamWindowChanged(Http2StreamRecord stream) {
        if (stream.hasPending() && !stream.queuedForWrite) {
            joinReady(stream);
        }
        writePending();
        updateWritability(stream);
    }

    /** Writes queued frames round-robin while the connection window lasts. */
    void writePending() {
        while (!ready.isEmpty()) {
            Http2StreamRecord stream = ready.peekFirst();
            if (!stream.hasPending()) {
                ready.pollFirst();
                stream.queuedForWrite = false;
                continue;
            }
            Object head = stream.pendingFrames.peekFirst();
            if (head instanceof Http2HeadersFrame trailers) {
                stream.pendingFrames.pollFirst();
                sink.sendTrailers(stream, trailers, stream.pendingPromises.pollFirst());
                continue;
            }
            Http2DataFrame data = (Http2DataFrame) head;
            int size = data.flowControlledBytes();
            int allowed = sendableNow(stream);
            if (size > 0 && allowed <= 0) {
                if (connectionWindow.available() <= 0) {
                    // Every stream waits for the connection window, so every one of them is stalled, not only
                    // the one at the head of the line: marked once when the window runs out (later ones as they
                    // join), not on every write while it stays out.
                    if (!connectionStalled) {
                        connectionStalled = true;
                        for (Http2StreamRecord waiting : ready) {
                            markStalled(waiting);
                        }
                    }
                    return;
                }
                // This stream waits for its own WINDOW_UPDATE; the others go on.
                ready.pollFirst();
                stream.queuedForWrite = false;
                markStalled(stream);
                continue;
            }
            stream.stalledSinceNanos = 0;
            int dataBytes = data.content().readableBytes();
            if (size <= allowed) {
                stream.pendingFrames.pollFirst();
                ChannelPromise promise = stream.pendingPromises.pollFirst();
                consume(stream, size);
                sink.sendData(stream, data.content(), data.padding(), data.endStream(), promise);
            } else {
                // A piece of the frame: data only (its padding goes with the last piece).
                int piece = Math.min(allowed, dataBytes);
                if (piece == 0) {
                    // Only padding is left and it does not fit: wait for window like an exhausted stream.
                    ready.pollFirst();
                    stream.queuedForWrite = false;
                    markStalled(stream);
                    continue;
                }
                consume(stream, piece);
                sink.sendData(stream, data.content().readRetainedSlice(piece), 0, false, sink.newPromise());
            }
            // Round robin: after one frame the stream goes to the back of the line.
            if (ready.peekFirst() == stream && ready.size() > 1) {
                ready.pollFirst();
                ready.addLast(stream);
            }
        }
    }

    /** The flow-controlled octets one frame of {@code stream} may carry now: both windows and the frame size. */
    private int sendableNow(Http2StreamRecord stream) {
        return Math.min(Math.min(stream.remoteWindow.available(), connectionWindow.available()),
                writer.maxFrameSize());
    }

    private void consume(Http2StreamRecord stream, int size) {
        stream.remoteWindow.consume(size);
        connectionWindow.consume(size);
        stream.pendingBytes -= size;
        queuedBytes -= size;
        sentBytes += size;
        connectionStalled = false;
        updateWritability(stream);
    }

    private void markStalled(Http2StreamRecord stream) {
        if (stream.stalledSinceNanos == 0) {
            stream.stalledSinceNanos = Math.max(1, sink.nanoTime());
        }
    }

    /** True when the stream can take more DATA without growing its queue beyond its window. */
    static boolean isWritable(Http2StreamRecord stream) {
        return stream.state.localMaySendData() && stream.pendingBytes < stream.remoteWindow.window();
    }

    void updateWritability(Http2StreamRecord stream) {
        if (stream.remoteWindow == null) {
            return;
        }
        boolean writable = isWritable(stream);
        if (writable != stream.writable) {
            stream.writable = writable;
            if (stream.state.localMaySendData()) {
                sink.writabilityChanged(stream);
            }
            // else: the stream sent its END_STREAM (or was reset) and its child is about to close; telling it would
            // cost a writability event per stream that no handler can act on.
        }
    }

    /**
     * Fails and releases everything queued on a stream that closed, with {@code cause}, or when it is null with a
     * stream error of {@code error} and {@code reason}, made only if something was queued (so that a normal end or
     * a reset, which a peer can cause at will, builds no exception).
     */
    void streamClosed(Http2StreamRecord stream, Throwable cause, Http2Error error, String reason) {
        if (stream.hasPending()) {
            if (cause == null) {
                cause = Http2Exception.streamError(stream.id, error, reason);
            }
            Object frame;
            while ((frame = stream.pendingFrames.pollFirst()) != null) {
                ReferenceCountUtil.safeRelease(frame);
                stream.pendingPromises.pollFirst().tryFailure(cause);
            }
        }
        queuedBytes -= stream.pendingBytes;
        stream.pendingBytes = 0;
        if (stream.queuedForWrite) {
            ready.remove(stream);
            stream.queuedForWrite = false;
        }
    }

    /** True while {@code stream} still has DATA queued that a closing state would drop. */
    static boolean canStillSend(Http2StreamRecord stream) {
        Http2StreamState state = stream.state;
        return state == Http2StreamState.OPEN || state == Http2StreamState.HALF_CLOSED_REMOTE;
    }
}
