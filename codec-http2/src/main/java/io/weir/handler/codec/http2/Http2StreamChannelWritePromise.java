package io.weir.handler.codec.http2;

import io.weir.channel.AbstractVoidChannelPromise;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelPromise;
import io.weir.channel.DefaultChannelPromise;

/**
 * The promise a stream channel hands its connection with each frame it writes: one per stream channel, reused for
 * every write, so a frame costs the connection no promise and no listener. Like the connection's void promise it
 * never completes, takes no listeners and cannot be waited on; {@link #unvoid()} gives a real promise (for a handler
 * that needs a listener, TLS coalescing records, say) that reports to the same place. Unlike a void promise, a
 * failure goes to the stream channel: the first one reported while the connection is still writing a frame
 * ({@link #beginWrite()} to {@link #endWrite()}) is that frame's refusal, which fails the child's write; any other is
 * a frame lost on its way to the socket ({@link DefaultHttp2StreamChannel#frameLost}). Bound to the connection's
 * channel (the pipeline checks that a write's promise belongs to it); only used on its event loop.
 */
final class Http2StreamChannelWritePromise extends AbstractVoidChannelPromise {
    private final DefaultHttp2StreamChannel child;
    /** Created by the first {@link #unvoid()}: it reports a real promise's failure like a failure of this one. */
    private ChannelFutureListener relay;
    private boolean writing;
    private Throwable refusal;

    Http2StreamChannelWritePromise(DefaultHttp2StreamChannel child) {
        super(child.parent());
        this.child = child;
    }

    /** The child hands the connection a frame with this promise now. */
    void beginWrite() {
        writing = true;
    }

    /** The connection's write call returned: the frame's refusal, or {@code null} if it was accepted. */
    Throwable endWrite() {
        writing = false;
        Throwable refused = refusal;
        refusal = null;
        return refused;
    }

    @Override
    protected void failed(Throwable cause) {
        if (writing && refusal == null) {
            refusal = cause;
        } else {
            child.frameLost(cause);
        }
    }

    @Override
    public ChannelPromise unvoid() {
        ChannelPromise promise = new DefaultChannelPromise(channel());
        promise.addListener(relay());
        return promise;
    }

    /**
     * The listener that reports a real promise's failure like a failure of this one (outside
     * {@link #beginWrite()} to {@link #endWrite()}: as a frame lost); one per stream channel, made on first use.
     */
    ChannelFutureListener relay() {
        ChannelFutureListener listener = relay;
        if (listener == null) {
            listener = future -> {
                if (!future.isSuccess()) {
                    failed(future.cause());
                }
            };
            relay = listener;
        }
        return listener;
    }

    @Override
    public String toString() {
        return "Http2StreamChannelWritePromise(" + child + ')';
    }
}
