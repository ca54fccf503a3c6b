package io.weir.channel.epoll;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelInputShutdownReadComplete;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.ChannelPromise;
import io.weir.channel.DefaultFileRegion;
import io.weir.channel.FileRegion;
import io.weir.channel.ChannelShutdownDirection;
import io.weir.channel.DuplexChannel;
import io.weir.channel.EventLoop;
import io.weir.channel.RecvByteBufAllocator;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.IovArray;
import io.weir.channel.unix.NativeIoException;
import io.weir.channel.unix.Socket;
import io.weir.util.concurrent.FastThreadLocal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;

/**
 * An epoll channel that carries a byte stream (TCP, Unix domain stream): reads arrive as direct
 * {@link ByteBuf}s, and {@link ByteBuf}s can be written.
 *
 * <p><b>Reading.</b> On read readiness the loop allocates direct buffers through the channel's
 * {@link RecvByteBufAllocator.Handle}, reads into their memory with {@code recv(2)}, fires {@code channelRead}
 * with each (the handler owns it) and {@code channelReadComplete} at the end. It stops at
 * {@link io.weir.channel.ChannelOption#MAX_MESSAGES_PER_READ} buffers, when auto-read is off, or when the
 * kernel has nothing more; see {@link AbstractEpollChannel} for how input left behind is picked up again. The
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
 */
abstract class AbstractEpollStreamChannel extends AbstractEpollChannel implements DuplexChannel {

    /** One iovec array per event-loop thread, freed when the thread's FastThreadLocals are removed. */
    private static final FastThreadLocal<IovFiller> IOV = new FastThreadLocal<>() {
        @Override
        protected IovFiller initialValue() {
            return new IovFiller(new IovArray());
        }

        @Override
        protected void onRemoval(IovFiller value) {
            value.iov.close();
        }
    };

    /** Fewest bytes a gathering write offers the kernel, whatever the socket took last time. */
    static final int MIN_BYTES_PER_GATHERING_WRITE = 4096;
    /** Bytes a gathering write offers before the socket's behaviour is known. */
    static final int INITIAL_BYTES_PER_GATHERING_WRITE = 128 * 1024;

    private volatile boolean inputShutdown;
    private volatile boolean outputShutdown;
    // Event loop only: adapts to what the socket takes per call, so the iovec array is not filled with entries
    // the kernel would refuse anyway.
    private long maxBytesPerGatheringWrite = INITIAL_BYTES_PER_GATHERING_WRITE;
    // Event loop only; created by the first splice.
    private EpollSplicer splicer;
    private SocketWritableChannel writableChannel;

    AbstractEpollStreamChannel(Channel parent, EventLoop eventLoop, Socket socket, boolean active) {
        super(parent, eventLoop, socket, active, EpollIoOps.EPOLLRDHUP);
    }

    @Override
    public boolean isInputShutdown() {
        return inputShutdown || !isActive();
    }

    @Override
    public boolean isOutputShutdown() {
        return outputShutdown || !isActive();
    }

    @Override
    protected void doShutdown(ChannelShutdownDirection direction) throws Exception {
        if (direction == ChannelShutdownDirection.INBOUND) {
            try {
                socket.shutdown(true, false);
            } catch (NativeIoException e) {
                // Once both sides sent their FIN (this output shut down, then the peer's FIN read) the kernel
                // has left the connected state: shutdown(2) still marks the reading side shut but reports
                // ENOTCONN. Nothing can arrive any more, so the input is down as asked.
                if (e.errno() != Errors.ENOTCONN) {
                    throw e;
                }
            }
            inputShutdown = true;
            inputDone();
            if (splicer != null) {
                splicer.endOfInput();
            }
        } else {
            socket.shutdown(false, true);
            outputShutdown = true;
            removeOps(EpollIoOps.EPOLLOUT);
        }
    }

    @Override
    protected void doBeginRead() throws Exception {
        if (!inputShutdown) {
            super.doBeginRead();
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
    final void readLoop() {
        if (inputShutdown) {
            // The end of the stream stays readable forever; the input is done, so stop hearing about it.
            inputDone();
            return;
        }
        if (splicer != null && splicer.hasTasks()) {
            spliceLoop();
            return;
        }
        ChannelConfig config = config();
        ChannelPipeline pipeline = pipeline();
        ByteBufAllocator alloc = config.getAllocator();
        RecvByteBufAllocator.Handle handle = recvBufAllocHandle();
        handle.reset(config);
        ByteBuf buf = null;
        boolean drained = false;
        boolean endOfStream = false;
        try {
            do {
                buf = handle.allocate(alloc);
                if (!buf.isDirect()) {
                    // recv(2) needs native memory; a heap allocator's buffer would need a copy per read.
                    buf.release();
                    buf = null;
                    buf = alloc.directBuffer(handle.guess());
                }
                int writable = buf.writableBytes();
                handle.attemptedBytesRead(writable);
                int n = readInto(buf, writable);
                handle.lastBytesRead(n);
                if (n <= 0) {
                    buf.release();
                    buf = null;
                    drained = true;
                    endOfStream = n < 0;
                    break;
                }
                buf.writerIndex(buf.writerIndex() + n);
                // A short read emptied the socket; data arriving later brings an edge of its own. After the
                // peer's FIN no edge will announce the end of the stream, so only reading it proves it.
                drained = n < writable && !rdHupReceived();
                handle.incMessagesRead(1);
                readServed();
                ByteBuf read = buf;
                buf = null;
                pipeline.fireChannelRead(read);
                if (drained || !isOpen() || inputShutdown) {
                    break;
                }
            } while (handle.continueReading());
            readLoopEnded(drained);
            handle.readComplete();
            pipeline.fireChannelReadComplete();
            if (endOfStream) {
                readServed();
                endOfInput();
            }
        } catch (Throwable t) {
            readFailed(pipeline, handle, buf, t);
        } finally {
            readLoopDone();
        }
    }

    // ---------------------------------------------------------------- splicing

    @Override
    final boolean hasQueuedInputWork() {
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
        if (inputShutdown) {
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

    /** The peer's FIN was read: half-close or close, as configured. */
    private void endOfInput() {
        inputDone();
        boolean wasShutdown = inputShutdown;
        inputEnded();
        if (!wasShutdown && inputShutdown && isOpen()) {
            pipeline().fireChannelShutdown(ChannelInputShutdownReadComplete.INSTANCE);
        }
    }

    /** Reads into {@code buf}'s writable bytes: bytes read, 0 if none are available, -1 at the end of stream. */
    private int readInto(ByteBuf buf, int writable) throws IOException {
        int writerIndex = buf.writerIndex();
        if (buf.hasMemoryAddress()) {
            return socket.recv(buf.memoryAddress(), writerIndex, writerIndex + writable);
        }
        // Direct but without a known address (Unsafe off): the address of its NIO view.
        ByteBuffer view = buf.nioBuffer(writerIndex, writable);
        long address = Native.bufferAddress(view);
        return socket.recv(address, view.position(), view.position() + writable);
    }

    private void readFailed(ChannelPipeline pipeline, RecvByteBufAllocator.Handle handle, ByteBuf buf, Throwable t) {
        if (buf != null) {
            if (buf.isReadable()) {
                readServed();
                pipeline.fireChannelRead(buf);
            } else {
                buf.release();
            }
        }
        readLoopEnded(true);
        handle.readComplete();
        pipeline.fireChannelReadComplete();
        pipeline.fireExceptionCaught(t);
        if (t instanceof IOException || t instanceof OutOfMemoryError) {
            // A reset or a broken socket: nothing more will come, and the stream state is unknown.
            close(voidPromise());
        }
    }

    // ---------------------------------------------------------------- writing

    /** Copies heap (and other non-native) buffers into direct memory once; accepts {@link FileRegion}s. */
    @Override
    protected Object filterOutboundMessage(Object msg) {
        if (msg instanceof ByteBuf buf) {
            if (buf.isDirect()) {
                return buf;
            }
            try {
                return buf.isReadable() ? ByteBufUtil.copyToDirect(alloc(), buf) : Unpooled.EMPTY_BUFFER;
            } finally {
                buf.release();
            }
        }
        if (msg instanceof FileRegion || msg instanceof SpliceOut) {
            return msg;
        }
        throw new UnsupportedOperationException("unsupported message type: " + msg.getClass().getName()
                + " (expected: ByteBuf, FileRegion)");
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        int spin = config().getWriteSpinCount();
        do {
            Object msg = in.current();
            if (msg == null) {
                writeComplete();
                return;
            }
            boolean progress;
            if (msg instanceof ByteBuf buf) {
                progress = writeBuffers(in, buf);
            } else if (msg instanceof FileRegion region) {
                progress = writeFileRegion(in, region);
            } else if (msg instanceof SpliceOut out) {
                progress = writeSpliceOut(in, out);
            } else {
                // filterOutboundMessage() lets nothing else in; a subclass that does must write it itself.
                in.remove(new UnsupportedOperationException("unsupported message type: " + msg.getClass().getName()));
                continue;
            }
            if (!progress) {
                incompleteWrite(true);
                return;
            }
        } while (--spin > 0);
        if (in.isEmpty() || in.current() == null) {
            writeComplete();
        } else {
            incompleteWrite(false);
        }
    }

    /** One write of the flushed buffers at the head; {@code false} if the socket took nothing. */
    private boolean writeBuffers(ChannelOutboundBuffer in, ByteBuf first) throws Exception {
        if (in.size() == 1 && first.hasMemoryAddress() && first.isReadable()) {
            // The common case (one response, one echo): straight to send(2), no iovec array to fill.
            return writeSingle(in, first);
        }
        IovFiller filler = IOV.get();
        IovArray iov = filler.iov;
        iov.clear();
        iov.maxBytes(maxBytesPerGatheringWrite);
        try {
            in.forEachFlushedMessage(filler);
            int count = iov.count();
            if (count == 0) {
                // Only empty buffers at the head: account for them without a system call.
                in.removeBytes(0);
                return true;
            }
            if (count == 1 && first.hasMemoryAddress() && first.isReadable()) {
                // Several flushed, but only the first holds bytes (an empty last chunk behind a response, say).
                return writeSingle(in, first);
            }
            long attempted = iov.size();
            long written = socket.writev(iov, 0, count);
            adjustMaxBytesPerGatheringWrite(attempted, written);
            if (written <= 0) {
                return false;
            }
            in.removeBytes(written);
            return true;
        } finally {
            iov.clear();
        }
    }

    /** One send(2) of {@code buf}'s readable bytes from its memory address; {@code false} if the socket took none. */
    private boolean writeSingle(ChannelOutboundBuffer in, ByteBuf buf) throws IOException {
        int written = socket.send(buf.memoryAddress(), buf.readerIndex(), buf.writerIndex());
        if (written <= 0) {
            return false;
        }
        in.removeBytes(written);
        return true;
    }

    /** One transfer of {@code region}; {@code false} if the socket took nothing. */
    private boolean writeFileRegion(ChannelOutboundBuffer in, FileRegion region) throws Exception {
        long done = region.transferred();
        long count = region.count();
        if (done >= count) {
            in.remove();
            return true;
        }
        long written;
        FileChannel file = region instanceof DefaultFileRegion def ? openFile(def) : null;
        if (file != null) {
            written = socket.sendFile(file, region.position() + done, count - done);
            if (written > 0) {
                EpollSocketNative.addFileRegionTransferred(region, written);
            } else if (file.size() < region.position() + count) {
                // sendfile(2) reports the end of a file that shrank under the region as "nothing sent", forever.
                throw new IOException("file shorter than the region: size " + file.size() + ", " + region);
            }
        } else {
            if (writableChannel == null) {
                writableChannel = new SocketWritableChannel(socket, alloc());
            }
            written = region.transferTo(writableChannel, done);
        }
        if (written <= 0) {
            return false;
        }
        in.progress(written);
        if (region.transferred() >= count) {
            in.remove();
        }
        return true;
    }

    /**
     * The JDK file channel of {@code region} for {@code sendfile(2)}, opening the region's file if needed; {@code null}
     * if the region holds another kind of channel (or the natives cannot see it): it then transfers itself.
     */
    private static FileChannel openFile(DefaultFileRegion region) throws IOException {
        region.open();
        FileChannel file = EpollSocketNative.fileRegionChannel(region);
        return file != null && "sun.nio.ch.FileChannelImpl".equals(file.getClass().getName()) ? file : null;
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

    private void adjustMaxBytesPerGatheringWrite(long attempted, long written) {
        if (attempted == written) {
            // The socket took all of it: next time offer more, in case this write was cut by the limit.
            long doubled = attempted << 1;
            if (doubled > maxBytesPerGatheringWrite) {
                maxBytesPerGatheringWrite = Math.min(doubled, IovArray.DEFAULT_MAX_BYTES);
            }
        } else if (attempted > MIN_BYTES_PER_GATHERING_WRITE && written < attempted >>> 1) {
            maxBytesPerGatheringWrite = Math.max(MIN_BYTES_PER_GATHERING_WRITE, attempted >>> 1);
        }
    }

    /** Adds the readable bytes of each flushed direct buffer to the thread's iovec array until it is full. */
    private static final class IovFiller implements ChannelOutboundBuffer.MessageProcessor {
        final IovArray iov;

        IovFiller(IovArray iov) {
            this.iov = iov;
        }

        @Override
        public boolean processMessage(Object msg) {
            if (!(msg instanceof ByteBuf buf)) {
                return false;
            }
            // Empty ones (heap EMPTY_BUFFER included) are removed by removeBytes; the kernel need not see them.
            return !buf.isReadable() || iov.add(buf);
        }
    }
}
