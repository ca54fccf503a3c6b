package io.weir.channel.epoll;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelInputShutdownReadComplete;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPromise;
import io.weir.channel.ChannelShutdownDirection;
import io.weir.channel.DefaultFileRegion;
import io.weir.channel.EventLoop;
import io.weir.channel.FileRegion;
import io.weir.channel.RecvByteBufAllocator;
import io.weir.channel.ServerChannel;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.IovArray;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.AbstractUnixStreamChannel;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;

/**
 * An epoll channel that carries a byte stream (TCP, Unix domain stream): reads arrive as direct
 * {@link ByteBuf}s, and {@link ByteBuf}s can be written.
 *
 * <p><b>Reading.</b> On read readiness the loop allocates direct buffers through the channel's
 * {@link RecvByteBufAllocator.Handle}, reads into their memory with {@code recv(2)}, fires {@code channelRead}
 * with each (the handler owns it) and {@code channelReadComplete} at the end. It stops at
 * {@link io.weir.channel.ChannelOption#MAX_MESSAGES_PER_READ} buffers, when auto-read is off, or when the
 * kernel has nothing more; see unix-common's {@code AbstractUnixChannel} for how input left behind is picked up again. The
 * end of the stream shuts the input down ({@link io.weir.channel.ChannelOption#ALLOW_HALF_CLOSURE}, firing
 * {@link io.weir.channel.ChannelInputShutdownEvent} then {@link ChannelInputShutdownReadComplete}) or closes the
 * channel. A failed read fires {@code exceptionCaught} and closes the channel.
 *
 * <p><b>Writing.</b> A heap buffer is copied once, as it is written, into a direct buffer from the channel's
 * allocator (pooled by default) and released. A flush writes the flushed buffers with {@code send(2)} from
 * the memory address when one buffer is flushed, and with {@code writev(2)} through an {@link IovArray} of the
 * event loop's thread otherwise, so no Java array is built (the bytes offered per {@code writev} adapt to
 * what the socket took before: doubled when it took everything, halved when it took less than half); at most
 * {@link io.weir.channel.ChannelOption#WRITE_SPIN_COUNT} calls per flush before other channels get their turn.
 * {@code EPOLLOUT} is watched only while the socket buffer is full.
 *
 * <p><b>Zero copy.</b> A {@link DefaultFileRegion} is sent with {@code sendfile(2)} from its file, other
 * {@link FileRegion}s with their own {@link FileRegion#transferTo}; both report progress to a
 * {@link io.weir.channel.ChannelProgressivePromise} and wait for {@code EPOLLOUT} when the socket is full. Input can be
 * spliced to another channel or a file without entering the JVM ({@link EpollSplicer}): while a splice is queued,
 * the read loop feeds it instead of firing {@code channelRead}, whatever auto-read says.
 *
 * <p>The read loop, the writes and the half-closure are unix-common's {@link AbstractUnixStreamChannel}, shared
 * with kqueue; this class adds what is epoll's: splicing.
 */
abstract class AbstractEpollStreamChannel extends AbstractUnixStreamChannel {
    // Event loop only; created by the first splice.
    private EpollSplicer splicer;

    AbstractEpollStreamChannel(ServerChannel parent, EventLoop eventLoop, Socket socket, boolean active) {
        super(parent, eventLoop, socket, active, EpollChannelHandle.TRANSPORT);
    }

    /** The channel's socket, for the splicer. */
    final Socket socket() {
        return socket;
    }

    @Override
    protected void doShutdown(ChannelShutdownDirection direction) throws Exception {
        super.doShutdown(direction);
        if (direction == ChannelShutdownDirection.INBOUND && splicer != null) {
            splicer.endOfInput();
        }
    }

    @Override
    protected void doRegister() {
        super.doRegister();
        if (hasQueuedInputWork() && isActive()) {
            // A splice queued before registration wants input even with auto-read off.
            watchInput();
        }
    }

    @Override
    protected void doClose() throws Exception {
        try {
            super.doClose();
        } finally {
            if (splicer != null) {
                splicer.sourceClosed();
            }
        }
    }

    // ---------------------------------------------------------------- reading

    @Override
    protected final void readLoop() {
        if (splicer != null && splicer.hasTasks() && !inputShutdown()) {
            spliceLoop();
            return;
        }
        super.readLoop();
    }

    // ---------------------------------------------------------------- splicing

    @Override
    protected final boolean hasQueuedInputWork() {
        return splicer != null && splicer.hasTasks();
    }

    /**
     * Queues a splice of {@code len} bytes of this channel's input to {@code target} (a channel on the same loop) or,
     * if {@code target} is null, to {@code file} at {@code offset}. Any thread.
     */
    final void splice(AbstractEpollStreamChannel target, FileDescriptor file, long offset, int len,
                      ChannelPromise promise) {
        EventLoop loop = eventLoop();
        if (loop.inEventLoop()) {
            splice0(target, file, offset, len, promise);
        } else {
            loop.execute(() -> splice0(target, file, offset, len, promise));
        }
    }

    private void splice0(AbstractEpollStreamChannel target, FileDescriptor file, long offset, int len,
                         ChannelPromise promise) {
        if (!isOpen()) {
            promise.tryFailure(new ClosedChannelException());
            return;
        }
        if (inputShutdown()) {
            promise.tryFailure(new java.io.EOFException("the input of " + this + " is shut down"));
            return;
        }
        if (!promise.setUncancellable()) {
            return;
        }
        if (splicer == null) {
            splicer = new EpollSplicer(this);
        }
        if (target != null) {
            splicer.add(target, len, promise);
        } else {
            splicer.add(file, offset, len, promise);
        }
        if (isRegistered() && isActive()) {
            watchInput();
        }
    }

    /** A splice target took what the pipe held: go on splicing (or reading) what waits meanwhile. */
    final void spliceResume() {
        if (isOpen()) {
            readLoopDone();
        }
    }

    private void spliceLoop() {
        int result;
        try {
            result = splicer.run(config().getMaxMessagesPerRead());
        } catch (Throwable t) {
            splicer.failAll(t);
            readLoopEnded(true);
            pipeline().fireExceptionCaught(t);
            if (t instanceof IOException) {
                close(voidPromise());
            }
            readLoopDone();
            return;
        }
        switch (result) {
            case EpollSplicer.DRAINED -> {
                readLoopEnded(true);
                readLoopDone();
            }
            case EpollSplicer.END_OF_INPUT -> {
                readLoopEnded(true);
                splicer.endOfInput();
                endOfInput();
            }
            // Input may wait, but only spliceResume() may take it: re-running now would spin until the target drains.
            case EpollSplicer.PAUSED -> readLoopEnded(false);
            default -> {
                readLoopEnded(false);
                readLoopDone();
            }
        }
    }

    // ---------------------------------------------------------------- writing

    /** Copies heap (and other non-native) buffers into direct memory once; accepts {@link FileRegion}s. */
    @Override
    protected Object filterOutboundMessage(Object msg) {
        return msg instanceof SpliceOut ? msg : super.filterOutboundMessage(msg);
    }

    /** Epoll's own outbound message: bytes waiting in a splice pipe. */
    @Override
    protected boolean writeOtherMessage(ChannelOutboundBuffer in, Object msg) throws Exception {
        if (msg instanceof SpliceOut out) {
            return writeSpliceOut(in, out);
        }
        return super.writeOtherMessage(in, msg);
    }

    /** One splice from a pipe of {@link EpollSplicer}; {@code false} if the socket took nothing. */
    private boolean writeSpliceOut(ChannelOutboundBuffer in, SpliceOut out) throws IOException {
        int res = EpollSocketNative.splice(out.pipeIn.intValue(), -1, socket.intValue(), -1, out.remaining);
        if (res < 0) {
            if (Errors.isAgain(res)) {
                return false;
            }
            throw Errors.newIoException("splice", res);
        }
        if (res == 0) {
            throw new IOException("splice pipe empty with " + out.remaining + " bytes still expected: " + out);
        }
        out.remaining -= res;
        if (out.remaining == 0) {
            in.remove();
        }
        return true;
    }
}
