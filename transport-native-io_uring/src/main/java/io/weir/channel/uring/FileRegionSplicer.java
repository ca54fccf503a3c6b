package io.weir.channel.uring;

import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.DefaultFileRegion;
import io.weir.channel.internal.FileRegionAccess;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;

/**
 * Sends a {@link DefaultFileRegion} of a stream channel with {@code IORING_OP_SPLICE}, never through a Java buffer:
 * the file's pages go into the channel's own pipe ({@code fill}), then from the pipe into the socket
 * ({@code drain}), one operation in flight at a time. Event loop only.
 *
 * <p><b>Progress.</b> A region's {@linkplain DefaultFileRegion#transferred() transferred} count, and the write's
 * progress, advance by what each drain moved into the socket, never by what a fill put into the pipe; the next fill
 * starts at {@code position + transferred}, so the pipe is filled only once it is empty. A short fill or drain just
 * leaves the rest to the next operation.
 *
 * <p><b>A full socket</b> fails the drain with {@code -EAGAIN} (the socket is non-blocking, so the kernel's worker
 * never waits in it): the channel then waits for writability with a one-shot poll, and the drain is submitted again.
 * A peer that never reads leaves the channel waiting on that poll; nothing spins.
 *
 * <p><b>End of file.</b> A fill that splices nothing means the file ended before the region did: the write fails
 * with an {@link IOException} naming the offset and the region, and the channel closes as for any write failure.
 *
 * <p><b>Lifetime.</b> Each operation holds a reference to its region (so closing the channel, which releases the
 * queued writes, cannot close the file whose descriptor a splice still names) and its completion releases it. The
 * pipe is made on first use and lives with the channel; it is closed once the channel is closed and no operation is
 * in flight, by {@link #close()} or by the last completion, never while the kernel may still use it. After a failure
 * or a completion of an earlier registration the pipe may hold bytes no one counted: it is closed then too, and a
 * new one made for the next region, so stale bytes never reach the socket.
 */
final class FileRegionSplicer {
    /** Whether the kernel has {@code IORING_OP_SPLICE} (Linux 5.7). */
    static final boolean SUPPORTED = IoUring.isOperationSupported(IoUringIoOps.OP_SPLICE);
    /**
     * The pipe capacity asked for: bytes one fill may move. Past the user's pipe limits
     * ({@code /proc/sys/fs/pipe-max-size}, {@code pipe-user-pages-soft}) the kernel's default (64 KiB) is kept.
     */
    static final int PIPE_CAPACITY_BYTES = 256 * 1024;
    // The data of the two kinds of splice.
    private static final short FILL = 1;
    private static final short DRAIN = 2;
    private static final int SPLICE_FLAGS = IoUringSpliceNative.SPLICE_F_NONBLOCK | IoUringSpliceNative.SPLICE_F_MOVE;

    /** What {@link #write} did. */
    enum Outcome {
        /** An operation is in flight; its completion goes on. */
        SUBMITTED,
        /** The region is sent (or was empty) and removed from the outbound buffer. */
        DONE,
        /** The region's file cannot be spliced (not a JDK file channel): the caller sends it another way. */
        NOT_SPLICEABLE
    }

    private final AbstractIoUringStreamChannel channel;
    private final int[] pipeInfo = new int[IoUringSpliceNative.PIPE_INFO_LENGTH];
    private FileDescriptor pipeRead;
    private FileDescriptor pipeWrite;
    private int pipeCapacity;
    // The region of the operation in flight, holding the reference that operation took; null when none is.
    private DefaultFileRegion inFlight;
    // Bytes of the current region in the pipe, spliced from the file and not yet into the socket.
    private int inPipe;
    // For tests: splices submitted, bytes spliced into the socket.
    private long operations;
    private long splicedBytes;

    FileRegionSplicer(AbstractIoUringStreamChannel channel) {
        this.channel = channel;
    }

    /** Whether a splice is in flight. */
    boolean isInFlight() {
        return inFlight != null;
    }

    /**
     * Submits the next splice of {@code region}, the current message of {@code in}: a drain if the pipe holds some
     * of it, a fill otherwise.
     *
     * @throws IOException if the file cannot be opened, the pipe cannot be made, or the channel is not registered
     */
    Outcome write(ChannelOutboundBuffer in, DefaultFileRegion region) throws IOException {
        long count = region.count();
        long done = region.transferred();
        if (inPipe > 0) {
            submit(region, IoUringIoOps.newSplice(pipeRead.intValue(), -1, channel.socket.intValue(), -1, inPipe,
                    SPLICE_FLAGS, DRAIN));
            return Outcome.SUBMITTED;
        }
        if (done >= count) {
            in.remove();
            return Outcome.DONE;
        }
        FileChannel file = FileRegionAccess.openChannel(region);
        int fileFd = file == null ? -1 : IoUringSpliceNative.fileDescriptor(file);
        if (fileFd < 0) {
            return Outcome.NOT_SPLICEABLE;
        }
        openPipe();
        int length = (int) Math.min(count - done, pipeCapacity);
        submit(region, IoUringIoOps.newSplice(fileFd, region.position() + done, pipeWrite.intValue(), -1, length,
                SPLICE_FLAGS, FILL));
        return Outcome.SUBMITTED;
    }

    private void submit(DefaultFileRegion region, IoUringIoOps ops) throws ClosedChannelException {
        channel.submit(ops);
        operations++;
        // Ours until the completion: the file must stay open while the kernel may splice from its descriptor.
        inFlight = (DefaultFileRegion) region.retain();
    }

    private void openPipe() throws IOException {
        if (pipeRead != null) {
            return;
        }
        int[] info = pipeInfo;
        int res = IoUringSpliceNative.pipe(PIPE_CAPACITY_BYTES, info);
        if (res < 0) {
            throw Errors.newIoException("pipe", res);
        }
        pipeRead = new FileDescriptor(info[IoUringSpliceNative.PIPE_READ]);
        pipeWrite = new FileDescriptor(info[IoUringSpliceNative.PIPE_WRITE]);
        pipeCapacity = info[IoUringSpliceNative.PIPE_CAPACITY];
    }

    /**
     * The completion of the splice in flight.
     *
     * @param in the channel's outbound buffer ({@code null} once closed)
     * @param current whether it belongs to the channel's live registration
     */
    void completed(IoUringIoEvent event, ChannelOutboundBuffer in, boolean current) {
        DefaultFileRegion region = inFlight;
        inFlight = null;
        // The kernel is done with the file: let go before anything below completes the write. The region is only
        // read further while the outbound buffer still holds it (it is then its current message).
        region.release();
        completed(region, in, event.data() == FILL, event.res(), current);
    }

    private void completed(DefaultFileRegion region, ChannelOutboundBuffer in, boolean fill, int res,
                           boolean current) {
        boolean stillCurrent = channel.isOpen() && in != null && in.current() == region;
        if (!fill && res > 0 && stillCurrent) {
            // Also for a completion of an earlier registration: these bytes left, so they must not leave twice.
            inPipe -= res;
            splicedBytes += res;
            FileRegionAccess.addTransferred(region, res);
            in.progress(res);
            if (inPipe == 0 && region.transferred() >= region.count()) {
                in.remove();
            }
            if (current) {
                channel.splicedSome();
                return;
            }
        }
        if (!current || !stillCurrent) {
            // Deregistered, closed, or the region failed meanwhile: what the pipe holds is no one's any more.
            discardPipe();
            if (stillCurrent) {
                channel.splicedSome();
            }
            return;
        }
        if (fill && res > 0) {
            inPipe = res;
            try {
                submit(region, IoUringIoOps.newSplice(pipeRead.intValue(), -1, channel.socket.intValue(), -1, res,
                        SPLICE_FLAGS, DRAIN));
            } catch (ClosedChannelException e) {
                discardPipe();
            }
            return;
        }
        if (!fill && res == -Native.EAGAIN) {
            channel.awaitWritable();
            return;
        }
        discardPipe();
        channel.spliceFailed(fill && res == 0
                ? new IOException("file shorter than the region: it ended at offset "
                        + (region.position() + region.transferred()) + ", " + region)
                : Errors.newIoException("splice", res));
    }

    /** Closes the pipe (the next region gets a new one); only while no splice is in flight. */
    private void discardPipe() {
        inPipe = 0;
        if (pipeRead != null) {
            closeQuietly(pipeRead);
            closeQuietly(pipeWrite);
            pipeRead = null;
            pipeWrite = null;
        }
    }

    /** Splices submitted so far. */
    long operations() {
        return operations;
    }

    /** Bytes spliced into the socket so far. */
    long splicedBytes() {
        return splicedBytes;
    }

    /** Whether the pipe is open. */
    boolean hasPipe() {
        return pipeRead != null;
    }

    /** The channel closed: closes the pipe now unless a splice is in flight (its completion closes it then). */
    void close() {
        if (inFlight == null) {
            discardPipe();
        }
    }

    private static void closeQuietly(FileDescriptor fd) {
        if (fd != null) {
            try {
                fd.close();
            } catch (IOException ignored) {
                // The number is released all the same; nothing was written through it that could be lost.
            }
        }
    }
}
