package io.weir.channel.epoll;

import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import io.weir.util.platform.LoopLogger;
import java.io.EOFException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;

/**
 * The splices queued on one stream channel (the source): its input is moved with {@code splice(2)} into a pipe of
 * its own and from there to each target, so the bytes never enter the JVM. Event loop only; the targets share the
 * source's loop.
 *
 * <p><b>Flow.</b> The source's read loop calls {@link #run}: one {@code splice} from the socket into the empty pipe
 * (at most {@value #MAX_BYTES_PER_SPLICE} bytes, the pipe's default capacity), then out of it:
 * <ul>
 *   <li>to a channel, as a {@link SpliceOut} message written to the target channel just after its pipeline's
 *       head, so the target sends it in order with its other writes and waits for {@code EPOLLOUT} if its socket
 *       is full. Until that message is written the source splices no more ({@link #run} returns {@link #PAUSED}):
 *       the pipe is the one buffer between them, and a slow target so pushes back on the source's peer;</li>
 *   <li>to a file descriptor, at once and completely (a regular file does not say "try again").</li>
 * </ul>
 * A splice's promise completes once all its bytes left the pipe; it fails if a target fails (the bytes in the pipe
 * are then lost and the pipe is replaced), if the source's input ends first ({@link EOFException}), or if the
 * source closes ({@link ClosedChannelException}).
 *
 * <p><b>Pipe life.</b> The pipe is closed when the source closes, but not while a {@link SpliceOut} holding its
 * read end is queued on a target: its completion closes it then, so the descriptor number is never reused under it.
 */
final class EpollSplicer {
    private static final LoopLogger LOGGER = LoopLogger.of(EpollSplicer.class);
    /** Bytes one {@code splice} moves at most: the default pipe capacity (16 pages), so it never waits for room. */
    static final int MAX_BYTES_PER_SPLICE = 64 * 1024;

    /** {@link #run} results: the source's socket is empty for now. */
    static final int DRAINED = 0;
    /** The source's peer ended its output. */
    static final int END_OF_INPUT = 1;
    /** Waiting for a target to take what the pipe holds; {@link AbstractEpollStreamChannel#spliceResume()} follows. */
    static final int PAUSED = 2;
    /** The budget ran out with input perhaps still waiting. */
    static final int BUDGET_SPENT = 3;
    /** No splice is queued any more. */
    static final int IDLE = 4;

    private final AbstractEpollStreamChannel source;
    private final ArrayDeque<Task> tasks = new ArrayDeque<>();
    private FileDescriptor pipeIn;
    private FileDescriptor pipeOut;
    private boolean outPending;
    private boolean running;
    private boolean closed;

    EpollSplicer(AbstractEpollStreamChannel source) {
        this.source = source;
    }

    /** Whether a splice is queued. */
    boolean hasTasks() {
        return !tasks.isEmpty();
    }

    /** Queues a splice of {@code len} bytes to {@code target}. */
    void add(AbstractEpollStreamChannel target, int len, ChannelPromise promise) {
        tasks.add(new ChannelTask(target, len, promise));
    }

    /** Queues a splice of {@code len} bytes to {@code target} at {@code offset}. */
    void add(FileDescriptor target, long offset, int len, ChannelPromise promise) {
        tasks.add(new FileTask(target, offset, len, promise));
    }

    /**
     * Splices until the socket is empty, the budget of {@code splice} calls is spent, a target must catch up, or
     * nothing is queued; returns which ({@link #DRAINED}, ...).
     *
     * @throws IOException if reading the source's socket failed (the caller fails every splice and closes)
     */
    int run(int budget) throws IOException {
        running = true;
        try {
            for (int i = 0; i < budget; i++) {
                Task task = tasks.peek();
                if (task == null) {
                    return IDLE;
                }
                if (outPending) {
                    return PAUSED;
                }
                if (task.promise.isDone()) {
                    // Cancelled by its user: its bytes are left for the next splice or read.
                    tasks.poll();
                    continue;
                }
                IOException unusable = task.unusable();
                if (unusable != null) {
                    tasks.poll();
                    task.promise.tryFailure(unusable);
                    continue;
                }
                if (pipeIn == null) {
                    openPipe();
                }
                int res = EpollSocketNative.splice(source.socket().intValue(), -1, pipeOut.intValue(), -1,
                        (int) Math.min(task.remaining, MAX_BYTES_PER_SPLICE));
                if (res == 0) {
                    return END_OF_INPUT;
                }
                if (res < 0) {
                    if (Errors.isAgain(res)) {
                        return DRAINED;
                    }
                    throw Errors.newIoException("splice", res);
                }
                task.remaining -= res;
                boolean last = task.remaining == 0;
                if (last) {
                    tasks.poll();
                }
                task.spliceOut(res, last);
            }
            return BUDGET_SPENT;
        } finally {
            running = false;
        }
    }

    /** Fails every queued splice with {@code cause}. */
    void failAll(Throwable cause) {
        Task task;
        while ((task = tasks.poll()) != null) {
            task.promise.tryFailure(cause);
        }
    }

    /** The source's input ended: no queued splice can complete. */
    void endOfInput() {
        Task task;
        while ((task = tasks.poll()) != null) {
            task.promise.tryFailure(new EOFException("the input of " + source + " ended with " + task.remaining
                    + " bytes of a splice still to come"));
        }
    }

    /** The source closed: fails what is queued and closes the pipe once no target holds it. */
    void sourceClosed() {
        closed = true;
        failAll(new ClosedChannelException());
        if (!outPending) {
            closePipe();
        }
    }

    private void openPipe() throws IOException {
        long res = EpollSocketNative.newPipe();
        if (res < 0) {
            throw Errors.newIoException("pipe2", res);
        }
        pipeIn = new FileDescriptor((int) (res >>> 32));
        pipeOut = new FileDescriptor((int) res);
    }

    /** Closes the pipe (its contents, if any, are lost); the next splice opens a new one. */
    private void closePipe() {
        FileDescriptor in = pipeIn;
        FileDescriptor out = pipeOut;
        pipeIn = null;
        pipeOut = null;
        closeQuietly(in);
        closeQuietly(out);
    }

    private static void closeQuietly(FileDescriptor fd) {
        if (fd != null) {
            try {
                fd.close();
            } catch (IOException e) {
                LOGGER.log(Level.DEBUG, "Failed to close a splice pipe: " + fd, e);
            }
        }
    }

    /** A failed splice-out left bytes of unknown number in the pipe: fail {@code task} and start afresh. */
    private void spliceOutFailed(Task task, Throwable cause) {
        tasks.remove(task);
        task.promise.tryFailure(cause);
        closePipe();
    }

    private abstract static class Task {
        final ChannelPromise promise;
        long remaining;

        Task(int len, ChannelPromise promise) {
            this.remaining = len;
            this.promise = promise;
        }

        /** Why the target cannot take bytes any more, or {@code null}. */
        abstract IOException unusable();

        /** Moves the {@code bytes} the pipe now holds to the target; {@code last}: they end this splice. */
        abstract void spliceOut(int bytes, boolean last);
    }

    private final class ChannelTask extends Task {
        private final AbstractEpollStreamChannel target;

        ChannelTask(AbstractEpollStreamChannel target, int len, ChannelPromise promise) {
            super(len, promise);
            this.target = target;
        }

        @Override
        IOException unusable() {
            return target.isActive() && !target.isOutputShutdown() ? null
                    : new ClosedChannelException();
        }

        @Override
        void spliceOut(int bytes, boolean last) {
            outPending = true;
            ChannelPromise written = target.newPromise();
            written.addListener(new ChunkWritten(this, last));
            SpliceOut msg = new SpliceOut(pipeIn, bytes);
            // Just after the head: the bytes are raw, no handler of the target may transform them (or see them).
            ChannelHandlerContext first = target.pipeline().firstContext();
            if (first != null) {
                first.write(msg, written);
                first.flush();
            } else {
                target.write(msg, written);
                target.flush();
            }
        }
    }

    /** Completes a channel splice's chunk: lets the source go on, or fails the splice. */
    private final class ChunkWritten implements ChannelFutureListener {
        private final ChannelTask task;
        private final boolean last;

        ChunkWritten(ChannelTask task, boolean last) {
            this.task = task;
            this.last = last;
        }

        @Override
        public void operationComplete(ChannelFuture future) {
            outPending = false;
            if (!future.isSuccess()) {
                spliceOutFailed(task, future.cause());
            } else if (last) {
                task.promise.trySuccess();
            }
            if (closed) {
                closePipe();
            } else if (!running) {
                // The pipe is empty again: take what waited in the source's socket meanwhile.
                source.spliceResume();
            }
        }
    }

    private final class FileTask extends Task {
        private final FileDescriptor target;
        private long offset;

        FileTask(FileDescriptor target, long offset, int len, ChannelPromise promise) {
            super(len, promise);
            this.target = target;
            this.offset = offset;
        }

        @Override
        IOException unusable() {
            return target.isOpen() ? null : new ClosedChannelException();
        }

        @Override
        void spliceOut(int bytes, boolean last) {
            int left = bytes;
            while (left > 0) {
                int res = EpollSocketNative.splice(pipeIn.intValue(), -1, target.intValue(), offset, left);
                if (res <= 0) {
                    IOException cause = res == 0 || Errors.isAgain(res)
                            ? new IOException("splice target " + target + " cannot take data now (a file"
                                + " descriptor that would block is not supported)")
                            : Errors.newIoException("splice", res);
                    spliceOutFailed(this, cause);
                    return;
                }
                left -= res;
                offset += res;
            }
            if (last) {
                promise.trySuccess();
            }
        }
    }
}
