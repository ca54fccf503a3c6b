package io.weir.channel.nio.internal;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.util.concurrent.FastThreadLocal;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Gathers the flushed {@link ByteBuf}s at the head of a {@link ChannelOutboundBuffer} as NIO buffers for one
 * gathering write ({@link java.nio.channels.GatheringByteChannel#write(ByteBuffer[], int, int)}): the NIO
 * transport's counterpart of the native transports' iovec filler. One per event-loop thread
 * ({@link #ofThisThread()}), its array reused by every channel of the loop, so a write allocates nothing for a
 * buffer that reuses its internal NIO view (pooled buffers do). Loop thread only.
 *
 * <p>Use: {@link #gather}, write the first {@link #count()} buffers of the returned array, then
 * {@link ChannelOutboundBuffer#removeBytes} and {@link #clear()} (which drops the references the array holds).
 */
public final class NioBufferGatherer implements ChannelOutboundBuffer.MessageProcessor {
    /** Slots the array starts with; it doubles as a write needs more. */
    static final int INITIAL_CAPACITY = 1024;

    private static final FastThreadLocal<NioBufferGatherer> GATHERERS = new FastThreadLocal<>() {
        @Override
        protected NioBufferGatherer initialValue() {
            return new NioBufferGatherer();
        }
    };

    private ByteBuffer[] buffers = new ByteBuffer[INITIAL_CAPACITY];
    private int count;
    private long size;
    private int maxCount;
    private long maxBytes;

    private NioBufferGatherer() {
    }

    /** The calling thread's gatherer. */
    public static NioBufferGatherer ofThisThread() {
        return GATHERERS.get();
    }

    /**
     * The flushed {@link ByteBuf}s at the head of {@code in} as NIO buffers: at most {@code maxCount} buffers and,
     * unless the first buffer alone is larger, at most {@code maxBytes} bytes. Stops at the first message that is
     * not a {@code ByteBuf}; skips empty ones. Only the first {@link #count()} slots of the array are valid, until
     * the next call or {@link #clear()}.
     *
     * @throws IllegalArgumentException if {@code maxCount} or {@code maxBytes} is not positive
     */
    public ByteBuffer[] gather(ChannelOutboundBuffer in, int maxCount, long maxBytes) throws Exception {
        if (maxCount <= 0) {
            throw new IllegalArgumentException("maxCount: " + maxCount + " (expected: > 0)");
        }
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: > 0)");
        }
        clear();
        this.maxCount = maxCount;
        this.maxBytes = maxBytes;
        in.forEachFlushedMessage(this);
        return buffers;
    }

    /** The valid buffers the last {@link #gather} returned. */
    public int count() {
        return count;
    }

    /** The bytes in the buffers the last {@link #gather} returned. */
    public long size() {
        return size;
    }

    /** Drops the references to the last write's buffers. */
    public void clear() {
        if (count > 0) {
            Arrays.fill(buffers, 0, count, null);
            count = 0;
        }
        size = 0;
    }

    @Override
    public boolean processMessage(Object msg) {
        if (!(msg instanceof ByteBuf buf)) {
            return false;
        }
        int readerIndex = buf.readerIndex();
        int readable = buf.writerIndex() - readerIndex;
        if (readable == 0) {
            return true;
        }
        if (maxBytes - readable < size && count != 0) {
            return false;
        }
        size += readable;
        int views = buf.nioBufferCount();
        ensureCapacity(Math.min(maxCount, count + views));
        if (views == 1) {
            buffers[count++] = buf.internalNioBuffer(readerIndex, readable);
        } else {
            ByteBuffer[] nioBufs = buf.nioBuffers(readerIndex, readable);
            for (int i = 0; i < nioBufs.length && count < maxCount; i++) {
                ByteBuffer nioBuf = nioBufs[i];
                if (nioBuf == null) {
                    break;
                }
                if (nioBuf.hasRemaining()) {
                    buffers[count++] = nioBuf;
                }
            }
        }
        return count < maxCount;
    }

    private void ensureCapacity(int needed) {
        if (needed <= buffers.length) {
            return;
        }
        int newCapacity = buffers.length;
        do {
            newCapacity <<= 1;
            if (newCapacity < 0) {
                throw new IllegalStateException("too many NIO buffers: " + needed);
            }
        } while (needed > newCapacity);
        buffers = Arrays.copyOf(buffers, newCapacity);
    }
}
