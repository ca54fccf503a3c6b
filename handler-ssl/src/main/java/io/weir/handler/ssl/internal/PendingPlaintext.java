package io.weir.handler.ssl.internal;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelPromise;
import io.weir.util.concurrent.FastThreadLocal;
import java.nio.ByteBuffer;

/**
 * The plaintext writes an {@code SslHandler} holds until they are encrypted: a FIFO of buffers with their
 * promises, kept in two parallel ring arrays so that queueing allocates nothing once the arrays have grown.
 * Owns every queued buffer (releases it once encrypted or failed). Only used from the channel's event loop.
 *
 * <p>The promises one {@link #consume} gathers sit in an array shared by every queue on the calling thread (an
 * idle connection does not carry it): a caller reads them all through {@link #completed(int)} before it completes
 * any of them, since a promise's listener may write through another queue on the same thread.
 */
public final class PendingPlaintext {
    /** Small: most connections have one or two writes waiting at a time; the rings double as needed. */
    private static final int INITIAL_CAPACITY = 4;
    private static final int MAX_COMPLETED = 64;
    private static final FastThreadLocal<ChannelPromise[]> COMPLETED = new FastThreadLocal<>() {
        @Override
        protected ChannelPromise[] initialValue() {
            return new ChannelPromise[MAX_COMPLETED];
        }
    };

    private ByteBuf[] buffers = new ByteBuf[INITIAL_CAPACITY];
    private ChannelPromise[] promises = new ChannelPromise[INITIAL_CAPACITY];
    private int head;
    private int size;
    private long readableBytes;

    /** Whether nothing is queued. */
    public boolean isEmpty() {
        return size == 0;
    }

    /** The plaintext bytes queued. */
    public long readableBytes() {
        return readableBytes;
    }

    /** Queues {@code buf} (ownership passes here) with {@code promise}. */
    public void add(ByteBuf buf, ChannelPromise promise) {
        if (size == buffers.length) {
            grow();
        }
        int i = (head + size) & (buffers.length - 1);
        buffers[i] = buf;
        promises[i] = promise;
        size++;
        readableBytes += buf.readableBytes();
    }

    private void grow() {
        int n = buffers.length;
        ByteBuf[] b = new ByteBuf[n << 1];
        ChannelPromise[] p = new ChannelPromise[n << 1];
        for (int i = 0; i < size; i++) {
            b[i] = buffers[(head + i) & (n - 1)];
            p[i] = promises[(head + i) & (n - 1)];
        }
        buffers = b;
        promises = p;
        head = 0;
    }

    /**
     * Fills {@code out} with views of the queued bytes from the head, stopping after {@code maxBytes} or when
     * {@code out} is full, and returns how many entries it filled. The views are valid until the next call on
     * this queue.
     */
    public int fill(ByteBuffer[] out, int maxBytes) {
        int n = 0;
        int bytes = 0;
        int mask = buffers.length - 1;
        for (int i = 0; i < size && n < out.length && bytes < maxBytes; i++) {
            ByteBuf b = buffers[(head + i) & mask];
            int readable = b.readableBytes();
            if (b.nioBufferCount() != 1) {
                // A composite: the engine takes one view per entry; give it the part that fits, copied once.
                if (n > 0) {
                    break;
                }
                out[n++] = b.nioBuffer(b.readerIndex(), Math.min(readable, maxBytes));
                return n;
            }
            out[n++] = b.internalNioBuffer(b.readerIndex(), readable);
            bytes += readable;
        }
        return n;
    }

    /**
     * Marks {@code bytes} from the head as encrypted: buffers fully consumed are released and their promises
     * gathered for {@link #completed(int)}; returns how many were gathered (at most {@link #maxCompleted()}
     * per call, which {@link #fill} keeps true by filling at most that many entries).
     */
    public int consume(int bytes) {
        ChannelPromise[] completed = COMPLETED.get();
        int done = 0;
        int mask = buffers.length - 1;
        readableBytes -= bytes;
        while (size > 0 && done < MAX_COMPLETED) {
            ByteBuf b = buffers[head];
            int readable = b.readableBytes();
            if (readable > bytes) {
                b.skipBytes(bytes);
                break;
            }
            b.skipBytes(readable);
            bytes -= readable;
            b.release();
            completed[done++] = promises[head];
            buffers[head] = null;
            promises[head] = null;
            head = (head + 1) & mask;
            size--;
            if (bytes == 0 && (size == 0 || buffers[head].readableBytes() != 0)) {
                break;
            }
        }
        return done;
    }

    /** The most promises one {@link #consume} call gathers; callers pass a source array no longer than this. */
    public int maxCompleted() {
        return MAX_COMPLETED;
    }

    /**
     * The {@code i}-th promise gathered by the last {@link #consume} on this thread; the slot is cleared. Read them
     * all before completing any.
     */
    public ChannelPromise completed(int i) {
        ChannelPromise[] completed = COMPLETED.get();
        ChannelPromise p = completed[i];
        completed[i] = null;
        return p;
    }

    /** Releases every queued buffer and fails its promise with {@code cause}. */
    public void releaseAndFail(Throwable cause) {
        int mask = buffers.length - 1;
        while (size > 0) {
            ByteBuf b = buffers[head];
            ChannelPromise p = promises[head];
            buffers[head] = null;
            promises[head] = null;
            head = (head + 1) & mask;
            size--;
            b.release();
            p.tryFailure(cause);
        }
        readableBytes = 0;
    }
}
