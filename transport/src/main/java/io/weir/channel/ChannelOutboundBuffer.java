package io.weir.channel;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufHolder;
import io.weir.buffer.Unpooled;
import io.weir.util.Recycler;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.SystemProperties;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * The queue of a channel's outbound messages: written but not yet flushed, and flushed but not yet
 * (completely) sent. The transport drains the flushed part in its
 * {@link AbstractChannel#doWrite(ChannelOutboundBuffer)}: message by message ({@link #current()},
 * {@link #remove()}), or by visiting the flushed messages ({@link #forEachFlushedMessage}) to fill its own
 * gathering write (an iovec array for the native transports, NIO buffers for NIO) and accounting for what the
 * kernel took with {@link #removeBytes}. The buffer itself knows no transport.
 *
 * <pre>
 *  flushedEntry --&gt; ... --&gt; unflushedEntry --&gt; ... --&gt; tailEntry
 *  |&lt;------ flushed ------&gt;|&lt;-------- written, not flushed ----&gt;|
 * </pre>
 *
 * <p><b>Threads.</b> Everything except the writability methods ({@link #isWritable},
 * {@link #getUserDefinedWritability}, {@link #setUserDefinedWritability}, {@link #totalPendingWriteBytes},
 * {@link #bytesBeforeUnwritable}, {@link #bytesBeforeWritable}) must be called on the channel's event loop.
 * Those may be called from any thread. The pending bytes are updated atomically because writes started off
 * the loop count towards them while they travel to it.
 *
 * <p><b>Writability.</b> When the pending bytes (message sizes by the channel's
 * {@link MessageSizeEstimator} plus {@value #ENTRY_OVERHEAD_BYTES_DEFAULT} bytes per entry) rise above the
 * high water mark the channel becomes unwritable; it becomes writable again when they fall below the low
 * water mark and no user-defined writability bit is cleared. Each flip fires
 * {@link ChannelHandler#channelWritabilityChanged} as a task on the event loop, never from inside the
 * write or remove that caused it; flips that cancel out before the task runs fire it once.
 *
 * <p><b>Ownership.</b> The buffer owns every queued message. Removing an entry releases its message and
 * completes its promise; failing or closing releases every message and fails every promise.
 */
public final class ChannelOutboundBuffer {
    /**
     * Default for {@code io.weir.transport.outboundBufferEntryOverheadBytes}: bytes each queued message counts
     * for beyond its own size, so that many tiny messages still reach the high water mark.
     */
    public static final int ENTRY_OVERHEAD_BYTES_DEFAULT = 96;
    static final int ENTRY_OVERHEAD_BYTES = Math.max(0,
            SystemProperties.getInt("io.weir.transport.outboundBufferEntryOverheadBytes", ENTRY_OVERHEAD_BYTES_DEFAULT));
    private static final int WATER_MARK_BIT = 1;

    private static final LoopLogger LOGGER = LoopLogger.of(ChannelOutboundBuffer.class);

    private static final AtomicLongFieldUpdater<ChannelOutboundBuffer> TOTAL_PENDING_SIZE =
            AtomicLongFieldUpdater.newUpdater(ChannelOutboundBuffer.class, "totalPendingSize");
    private static final AtomicIntegerFieldUpdater<ChannelOutboundBuffer> UNWRITABLE =
            AtomicIntegerFieldUpdater.newUpdater(ChannelOutboundBuffer.class, "unwritable");
    private static final AtomicIntegerFieldUpdater<ChannelOutboundBuffer> WRITABILITY_EVENT_PENDING =
            AtomicIntegerFieldUpdater.newUpdater(ChannelOutboundBuffer.class, "writabilityEventPending");

    private final Channel channel;
    // Created by the first writability change: most buffers (a short exchange, an HTTP/2 stream's) never flip.
    private Runnable fireWritabilityChanged;

    // Event loop only.
    private Entry flushedEntry;
    private Entry unflushedEntry;
    private Entry tailEntry;
    private int flushed;
    private boolean inFail;
    /** Bytes handed to the transport so far (see {@link #writtenBytes()}). */
    private long writtenBytes;

    private volatile long totalPendingSize;
    // Bit 0: above the water marks; bits 1..31: user-defined writability, set means unwritable.
    private volatile int unwritable;
    private volatile int writabilityEventPending;

    /**
     * A buffer for {@code channel}. Transports get theirs from {@link AbstractChannel}; this constructor is
     * public for tests and channel implementations that do not extend it.
     */
    public ChannelOutboundBuffer(Channel channel) {
        this.channel = Objects.requireNonNull(channel, "channel");
    }

    /**
     * Queues {@code msg} as written but not flushed; its promise completes once it is removed. Event loop only.
     *
     * @param size the message's estimated size in bytes
     */
    public void addMessage(Object msg, int size, ChannelPromise promise) {
        Entry entry = Entry.newInstance(msg, size, total(msg), promise);
        if (tailEntry == null) {
            flushedEntry = null;
        } else {
            tailEntry.next = entry;
        }
        tailEntry = entry;
        if (unflushedEntry == null) {
            unflushedEntry = entry;
        }
        incrementPendingOutboundBytes(entry.pendingSize);
    }

    private static long total(Object msg) {
        if (msg instanceof ByteBuf buf) {
            return buf.readableBytes();
        }
        if (msg instanceof ByteBufHolder holder) {
            return holder.content().readableBytes();
        }
        if (msg instanceof FileRegion region) {
            return region.count();
        }
        return -1;
    }

    /**
     * Marks everything written so far as flushed. Walks only the entries added since the last flush; an entry
     * whose promise was cancelled meanwhile is dropped here (its message released), so it is never sent.
     * Event loop only.
     */
    public void addFlush() {
        Entry entry = unflushedEntry;
        if (entry == null) {
            return;
        }
        if (flushedEntry == null) {
            flushedEntry = entry;
        }
        do {
            flushed++;
            // A void promise cannot be cancelled: its entry is not touched here (an HTTP/2 stream's frames carry
            // their channel's, one object per stream, by now out of cache).
            if (entry.kind != Entry.VOID && !entry.promise.setUncancellable()) {
                int pending = entry.cancel();
                decrementPendingOutboundBytes(pending, true);
            }
            entry = entry.next;
        } while (entry != null);
        unflushedEntry = null;
    }

    /**
     * Adds {@code size} bytes to the pending total, which may make the channel unwritable. Any thread: for
     * writes on their way to the loop.
     */
    void incrementPendingOutboundBytes(long size) {
        if (size == 0) {
            return;
        }
        long newSize = TOTAL_PENDING_SIZE.addAndGet(this, size);
        if (newSize > channel.config().getWriteBufferWaterMark().high()) {
            setUnwritable(WATER_MARK_BIT);
        }
    }

    /**
     * Subtracts {@code size} bytes from the pending total, which may make the channel writable again. Any
     * thread.
     */
    void decrementPendingOutboundBytes(long size) {
        decrementPendingOutboundBytes(size, true);
    }

    private void decrementPendingOutboundBytes(long size, boolean notifyWritability) {
        if (size == 0) {
            return;
        }
        long newSize = TOTAL_PENDING_SIZE.addAndGet(this, -size);
        if (notifyWritability && newSize < channel.config().getWriteBufferWaterMark().low()) {
            setWritable(WATER_MARK_BIT);
        }
    }

    /** The message the transport should write next, or {@code null} if nothing is flushed. Event loop only. */
    public Object current() {
        Entry entry = flushedEntry;
        return entry == null ? null : entry.msg;
    }

    /** Bytes of the current message already reported as written, or 0. Event loop only. */
    public long currentProgress() {
        Entry entry = flushedEntry;
        return entry == null ? 0 : entry.progress;
    }

    /**
     * Reports that {@code amount} more bytes of the current message were written, notifying a
     * {@link ChannelProgressivePromise}. Event loop only.
     */
    public void progress(long amount) {
        Entry entry = flushedEntry;
        if (entry != null) {
            progress(entry, amount);
            countWritten(amount);
        }
    }

    /**
     * Counts {@code amount} into the channel's loop's byte counters, if it keeps them. Read through the channel,
     * not kept in a field: a buffer is made per channel (an HTTP/2 stream's too), and without it the buffer is 8
     * bytes smaller.
     */
    private void countWritten(long amount) {
        IoByteCounters counters = channel instanceof AbstractChannel c ? c.ioBytes : null;
        if (counters != null && amount > 0) {
            counters.addWritten(amount);
        }
    }

    /**
     * Bytes of the channel's output handed to the transport since the channel was created, partial writes
     * included; a message removed whole without reported progress (transports that write messages, not bytes)
     * counts its estimated size. It only grows; two readings that differ mean the output moved (a peer that
     * reads). Event loop only.
     */
    public long writtenBytes() {
        return writtenBytes;
    }

    private void progress(Entry entry, long amount) {
        writtenBytes += amount;
        long progress = entry.progress + amount;
        entry.progress = progress;
        if (entry.kind == Entry.PROGRESSIVE) {
            ((ChannelProgressivePromise) entry.promise).tryProgress(progress, entry.total);
        }
    }

    /**
     * Removes the current message after it was written completely: releases it and completes its promise.
     * Event loop only.
     *
     * @return {@code false} if nothing was flushed
     */
    public boolean remove() {
        Entry e = flushedEntry;
        if (e == null) {
            return false;
        }
        Object msg = e.msg;
        ChannelPromise promise = e.promise;
        int size = e.pendingSize;
        if (e.progress == 0) {
            writtenBytes += size;
        }
        boolean voidPromise = e.kind == Entry.VOID;
        removeEntry(e);
        if (!e.cancelled) {
            ReferenceCountUtil.safeRelease(msg);
            if (!voidPromise) {
                safeSuccess(promise);
            }
            decrementPendingOutboundBytes(size, true);
        }
        e.recycle();
        return true;
    }

    /**
     * Removes the current message because writing it failed: releases it and fails its promise with
     * {@code cause}. Event loop only.
     *
     * @return {@code false} if nothing was flushed
     */
    public boolean remove(Throwable cause) {
        return remove0(Objects.requireNonNull(cause, "cause"), true);
    }

    private boolean remove0(Throwable cause, boolean notifyWritability) {
        Entry e = flushedEntry;
        if (e == null) {
            return false;
        }
        Object msg = e.msg;
        ChannelPromise promise = e.promise;
        int size = e.pendingSize;
        removeEntry(e);
        if (!e.cancelled) {
            ReferenceCountUtil.safeRelease(msg);
            safeFail(promise, cause);
            decrementPendingOutboundBytes(size, notifyWritability);
        }
        e.recycle();
        return true;
    }

    private void removeEntry(Entry e) {
        if (--flushed == 0) {
            flushedEntry = null;
            if (e == tailEntry) {
                tailEntry = null;
                unflushedEntry = null;
            }
        } else {
            flushedEntry = e.next;
        }
    }

    /**
     * Accounts for a write of {@code writtenBytes} that took the flushed {@link ByteBuf}s in order (a
     * gathering write): buffers written completely are removed, the buffer written partly has its reader
     * index advanced. Event loop only.
     *
     * @throws IllegalArgumentException if bytes are left to account for but the current message is not a
     *         {@link ByteBuf}, or {@code writtenBytes} is negative
     */
    public void removeBytes(long writtenBytes) {
        if (writtenBytes < 0) {
            throw new IllegalArgumentException("writtenBytes: " + writtenBytes + " (expected: >= 0)");
        }
        countWritten(writtenBytes);
        // The pending bytes of the removed entries are subtracted once, at the end: one atomic update and one
        // water-mark check per write instead of one per buffer. Writability events are tasks anyway.
        long removedPendingBytes = 0;
        try {
            for (;;) {
                // Re-read every turn: a promise completed below may have written, flushed or closed.
                Entry entry = flushedEntry;
                Object msg = entry == null ? null : entry.msg;
                if (!(msg instanceof ByteBuf buf)) {
                    if (writtenBytes != 0) {
                        throw new IllegalArgumentException(writtenBytes
                                + " written bytes left over but the current message is not a ByteBuf: " + msg);
                    }
                    break;
                }
                int readerIndex = buf.readerIndex();
                int readable = buf.writerIndex() - readerIndex;
                if (readable <= writtenBytes) {
                    if (writtenBytes != 0) {
                        progress(entry, readable);
                        writtenBytes -= readable;
                    }
                    removedPendingBytes += removeWritten(entry);
                } else {
                    if (writtenBytes != 0) {
                        buf.readerIndex(readerIndex + (int) writtenBytes);
                        progress(entry, writtenBytes);
                    }
                    break;
                }
            }
        } finally {
            decrementPendingOutboundBytes(removedPendingBytes, true);
        }
    }

    /**
     * Removes the head entry {@code e}, written completely: releases its message and completes its promise,
     * but leaves the pending bytes to the caller.
     *
     * @return the pending bytes the entry accounted for
     */
    private int removeWritten(Entry e) {
        Object msg = e.msg;
        ChannelPromise promise = e.promise;
        int size = e.pendingSize;
        boolean cancelled = e.cancelled;
        boolean voidPromise = e.kind == Entry.VOID;
        removeEntry(e);
        // Recycled before the promise completes: nothing below touches the entry, and a listener that writes
        // again can reuse it at once.
        e.recycle();
        if (cancelled) {
            return 0;
        }
        ReferenceCountUtil.safeRelease(msg);
        if (!voidPromise) {
            // A void promise's success is nothing (its trySuccess is final and does nothing): not touched.
            safeSuccess(promise);
        }
        return size;
    }

    /** Whether the channel is writable as far as this buffer is concerned. Any thread. */
    public boolean isWritable() {
        return unwritable == 0;
    }

    /**
     * Whether user-defined writability bit {@code index} is set to writable. Any thread.
     *
     * @throws IllegalArgumentException unless {@code 1 <= index <= 31}
     */
    public boolean getUserDefinedWritability(int index) {
        return (unwritable & writabilityMask(index)) == 0;
    }

    /**
     * Sets user-defined writability bit {@code index}: while any bit is unwritable, the channel is
     * unwritable whatever its pending bytes (for protocols that stop writers for reasons of their own, like
     * an HTTP/2 stream's flow-control window). Any thread. Handlers reach this through
     * {@link Channel#setUserDefinedWritability}.
     *
     * @throws IllegalArgumentException unless {@code 1 <= index <= 31}
     */
    public void setUserDefinedWritability(int index, boolean writable) {
        int mask = writabilityMask(index);
        if (writable) {
            setWritable(mask);
        } else {
            setUnwritable(mask);
        }
    }

    static int writabilityMask(int index) {
        if (index < 1 || index > 31) {
            throw new IllegalArgumentException("index: " + index + " (expected: 1..31)");
        }
        return 1 << index;
    }

    private void setWritable(int mask) {
        for (;;) {
            int oldValue = unwritable;
            if ((oldValue & mask) == 0) {
                // Already writable for this bit: every remove below the low water mark lands here, and a CAS
                // writing the same value back would cost an atomic per message.
                return;
            }
            int newValue = oldValue & ~mask;
            if (UNWRITABLE.compareAndSet(this, oldValue, newValue)) {
                if (oldValue != 0 && newValue == 0) {
                    fireChannelWritabilityChanged();
                }
                return;
            }
        }
    }

    private void setUnwritable(int mask) {
        for (;;) {
            int oldValue = unwritable;
            if ((oldValue & mask) == mask) {
                return;
            }
            int newValue = oldValue | mask;
            if (UNWRITABLE.compareAndSet(this, oldValue, newValue)) {
                if (oldValue == 0 && newValue != 0) {
                    fireChannelWritabilityChanged();
                }
                return;
            }
        }
    }

    private void fireChannelWritabilityChanged() {
        // Later, as a task: a flip happens inside a write or a remove, where re-entering the handlers that
        // called them would be surprising; one pending task covers flips that cancel out meanwhile.
        if (WRITABILITY_EVENT_PENDING.compareAndSet(this, 0, 1)) {
            try {
                // Only the thread that won the CAS gets here; a stale null read just makes a second, equal task.
                Runnable task = fireWritabilityChanged;
                if (task == null) {
                    task = () -> {
                        writabilityEventPending = 0;
                        channel.pipeline().fireChannelWritabilityChanged();
                    };
                    fireWritabilityChanged = task;
                }
                channel.eventLoop().execute(task);
            } catch (RejectedExecutionException e) {
                writabilityEventPending = 0;
                LOGGER.log(Level.DEBUG, "event loop refused a writability event for ", channel, e);
            }
        }
    }

    /** The number of flushed messages not yet removed. Event loop only. */
    public int size() {
        return flushed;
    }

    /** Whether no flushed message is waiting. Event loop only. */
    public boolean isEmpty() {
        return flushed == 0;
    }

    /** Whether no message is queued, flushed or not, and no failing pass is under way. Event loop only. */
    boolean holdsNothing() {
        return tailEntry == null && !inFail;
    }

    /** The pending bytes (written or flushed, not yet removed, plus writes travelling to the loop). Any thread. */
    public long totalPendingWriteBytes() {
        return totalPendingSize;
    }

    /** Bytes that can be queued before the channel turns unwritable; 0 if it is unwritable. Any thread. */
    public long bytesBeforeUnwritable() {
        long bytes = channel.config().getWriteBufferWaterMark().high() - totalPendingSize + 1;
        return bytes > 0 && isWritable() ? bytes : 0;
    }

    /** Bytes that must be sent before the channel turns writable; 0 if it is writable. Any thread. */
    public long bytesBeforeWritable() {
        long bytes = totalPendingSize - channel.config().getWriteBufferWaterMark().low() + 1;
        return bytes > 0 && !isWritable() ? bytes : 0;
    }

    /**
     * Calls {@code processor} with each flushed message, in order, until it returns {@code false} (for
     * transports that fill their own I/O vectors). Event loop only.
     */
    public void forEachFlushedMessage(MessageProcessor processor) throws Exception {
        Objects.requireNonNull(processor, "processor");
        Entry entry = flushedEntry;
        while (entry != null && entry != unflushedEntry) {
            if (!entry.cancelled && !processor.processMessage(entry.msg)) {
                return;
            }
            entry = entry.next;
        }
    }

    /**
     * Removes every flushed message, failing its promise with {@code cause}. Event loop only.
     *
     * @param notifyWritability whether falling below the low water mark fires a writability event
     */
    void failFlushed(Throwable cause, boolean notifyWritability) {
        // A promise listener may write and flush again; the entries it adds are handled by the caller's close.
        if (inFail) {
            return;
        }
        inFail = true;
        try {
            while (remove0(cause, notifyWritability)) {
                // keep removing
            }
        } finally {
            inFail = false;
        }
    }

    /**
     * Fails and releases everything still queued, flushed or not, without writability events: the channel
     * is closing or its output shut down. Event loop only.
     */
    void close(Throwable cause) {
        if (inFail) {
            channel.eventLoop().execute(() -> close(cause));
            return;
        }
        failFlushed(cause, false);
        inFail = true;
        try {
            Entry e = unflushedEntry;
            while (e != null) {
                TOTAL_PENDING_SIZE.addAndGet(this, -e.pendingSize);
                if (!e.cancelled) {
                    ReferenceCountUtil.safeRelease(e.msg);
                    safeFail(e.promise, cause);
                }
                Entry next = e.next;
                e.recycle();
                e = next;
            }
        } finally {
            inFail = false;
        }
        unflushedEntry = null;
        tailEntry = null;
        flushedEntry = null;
        flushed = 0;
    }

    private static void safeSuccess(ChannelPromise promise) {
        if (!promise.trySuccess(null) && !promise.isVoid()) {
            LOGGER.log(Level.WARNING, "Failed to mark a write as done; it was completed elsewhere: ", promise, null);
        }
    }

    private static void safeFail(ChannelPromise promise, Throwable cause) {
        if (!promise.tryFailure(cause) && !promise.isVoid()) {
            LOGGER.log(Level.WARNING, "Failed to fail a write; it was completed elsewhere: ", promise, cause);
        }
    }

    @Override
    public String toString() {
        return "ChannelOutboundBuffer(flushed: " + flushed + ", pending bytes: " + totalPendingSize
                + ", writable: " + isWritable() + ')';
    }

    /** Visits flushed messages; see {@link #forEachFlushedMessage}. */
    @FunctionalInterface
    public interface MessageProcessor {
        /** Processes one message; returns whether to go on with the next. */
        boolean processMessage(Object msg) throws Exception;
    }

    /** One queued message. Pooled; event loop only. */
    private static final class Entry {
        private static final Recycler<Entry> RECYCLER = new Recycler<>() {
            @Override
            protected Entry newObject(Handle<Entry> handle) {
                return new Entry(handle);
            }
        };

        static final byte PLAIN = 0;
        static final byte VOID = 1;
        static final byte PROGRESSIVE = 2;

        private final Recycler.Handle<Entry> handle;
        Entry next;
        Object msg;
        ChannelPromise promise;
        long progress;
        long total;
        int pendingSize;
        boolean cancelled;
        /** What the promise wants to hear, worked out as the message is added, while the promise is in cache. */
        byte kind;

        private Entry(Recycler.Handle<Entry> handle) {
            this.handle = handle;
        }

        static Entry newInstance(Object msg, int size, long total, ChannelPromise promise) {
            Entry entry = RECYCLER.get();
            entry.msg = msg;
            entry.pendingSize = size + ENTRY_OVERHEAD_BYTES;
            entry.total = total;
            entry.promise = promise;
            entry.kind = kindOf(promise);
            return entry;
        }

        /**
         * {@link #VOID} for a void promise (its success and cancellation are final no-ops, and it cannot be
         * progressive), {@link #PROGRESSIVE} for a {@link ChannelProgressivePromise}, {@link #PLAIN} otherwise.
         * Classes are checked first: an interface instanceof that fails scans the class's secondary supertypes.
         */
        private static byte kindOf(ChannelPromise promise) {
            if (promise instanceof AbstractVoidChannelPromise) {
                return VOID;
            }
            if (promise.getClass() == DefaultChannelPromise.class) {
                return PLAIN;
            }
            return promise instanceof ChannelProgressivePromise ? PROGRESSIVE : PLAIN;
        }

        /** Drops the message of a cancelled write; returns the pending bytes it accounted for. */
        int cancel() {
            if (cancelled) {
                return 0;
            }
            cancelled = true;
            int pending = pendingSize;
            ReferenceCountUtil.safeRelease(msg);
            msg = Unpooled.EMPTY_BUFFER;
            pendingSize = 0;
            total = 0;
            progress = 0;
            return pending;
        }

        void recycle() {
            next = null;
            msg = null;
            promise = null;
            progress = 0;
            total = 0;
            pendingSize = 0;
            cancelled = false;
            kind = PLAIN;
            handle.recycle(this);
        }
    }
}
