package io.weir.channel.uring;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelMetadata;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.ChannelShutdownDirection;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.DefaultFileRegion;
import io.weir.channel.DuplexChannel;
import io.weir.channel.EventLoop;
import io.weir.channel.FileRegion;
import io.weir.channel.IoRegistration;
import io.weir.channel.RecvByteBufAllocator;
import io.weir.channel.ServerChannel;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.IovArray;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.UnixChannelConfig;
import io.weir.channel.unix.internal.UnixStreamReader;
import io.weir.channel.unix.internal.UnixStreamWriter;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * What the io_uring stream channels share, TCP ({@link IoUringSocketChannel}) and Unix domain
 * ({@link IoUringDomainSocketChannel}): a connection made by {@link io.weir.bootstrap.Bootstrap} or accepted by a
 * server channel. Its loop must run an {@link IoUringIoHandler}.
 *
 * <p><b>Reading, with a provided buffer ring</b> (the loop's {@link IoUringIoHandler} has one: the default where
 * the kernel supports it, Linux 6.3 and later). While a read is wanted (auto-read, or
 * {@link io.weir.channel.Channel#read()}) one multishot {@code IORING_OP_RECV} ({@code IORING_RECV_MULTISHOT} with
 * {@code IOSQE_BUFFER_SELECT}) stays armed: the kernel picks a buffer from one of the loop's rings for each chunk it
 * receives and completes again (small buffers, or large ones while the channel's reads keep filling small ones:
 * {@link ProvidedBufferChooser}), so a connection waiting for data holds no buffer at all. Each completion hands
 * the ring's buffer itself to the pipeline (one {@code channelRead} and one {@code channelReadComplete}); the
 * ring gets a new buffer in its place. A completion without {@code IORING_CQE_F_MORE} re-arms the receive if
 * reading is still wanted; once it is not (auto-read off and no {@code read()} pending) the receive is cancelled,
 * and the chunks the kernel completed before the cancellation took effect are kept (in order, at most what the
 * ring holds) for the next reads: one {@code read()} still delivers one chunk. When the ring is empty the
 * receive ends with {@code -ENOBUFS}: the channel fires {@link IoUringBufferRingExhaustedEvent}, its data waits
 * in the socket, and the receive is re-armed on a later loop turn once the ring has buffers again.
 *
 * <p><b>Reading, without one</b> (the factory's {@code bufferCount} 0, or an older kernel): one
 * {@code IORING_OP_RECV} in flight while a read is wanted, into a direct buffer sized by the channel's
 * {@link RecvByteBufAllocator}; each completion is one {@code channelRead} and one {@code channelReadComplete}.
 *
 * <p>Either way a buffer is the kernel's until the completion that reports it arrives: a close cancels the
 * receive, and a completion that arrives for a closed channel gives its buffer back (to the ring, or released),
 * never before.
 *
 * <p><b>Writing.</b> One write in flight: an {@code IORING_OP_SEND} when one buffer is flushed, an
 * {@code IORING_OP_WRITEV} of up to {@value #MAX_GATHERED_BUFFERS} flushed buffers through the channel's
 * {@link IovArray} otherwise. The written bytes leave the outbound buffer when the write completes, so a peer that
 * does not read leaves them queued, and the channel turns unwritable at the high water mark like any other. The
 * buffers being written (and the iovec array) are kept until the completion, so failing the queued writes on close
 * cannot free memory the kernel still reads. Heap and composite buffers are copied into one direct buffer when
 * written. A {@link io.weir.channel.DefaultFileRegion} over a file goes out with {@code IORING_OP_SPLICE}, file to
 * the channel's pipe to the socket, without passing through a Java buffer (see {@link FileRegionSplicer}); other
 * {@link FileRegion}s (and every region on a kernel without splice) go out with {@code sendfile(2)} or transfer
 * themselves as on epoll. Either way a full socket is waited for with a one-shot {@code IORING_OP_POLL_ADD} for
 * writability. Shutting output down while a region is being spliced fails what is left of it. Other message types
 * are refused.
 * One buffer of at least {@link IoUringChannelOption#SEND_ZC_THRESHOLD} bytes (where the channel takes that
 * option) goes out with {@code IORING_OP_SEND_ZC} instead, and is held until the send's notification.
 *
 * <p><b>Connecting.</b> A non-blocking {@code connect(2)}, then a one-shot {@code IORING_OP_POLL_ADD} for
 * writability, which completes the attempt; {@link ChannelOption#CONNECT_TIMEOUT_MILLIS} applies as on every
 * transport.
 *
 * <p>Options (besides those of every channel): the socket options the subclass names, read from and written to
 * the socket, and {@link ChannelOption#ALLOW_HALF_CLOSURE}.
 *
 * <p>Thread-safe as every channel.
 */
abstract class AbstractIoUringStreamChannel extends AbstractIoUringChannel implements DuplexChannel {
    private static final ChannelMetadata METADATA =
            new ChannelMetadata(false, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ);
    /** {@code MSG_NOSIGNAL}: a send to a closed connection fails with EPIPE instead of raising SIGPIPE. */
    private static final int MSG_NOSIGNAL = 0x4000;
    /** The most flushed buffers one {@code IORING_OP_WRITEV} takes (at most {@code IOV_MAX}). */
    static final int MAX_GATHERED_BUFFERS = 256;
    // The data of this channel's polls: the connect attempt's, and the wait for writability a file region needs.
    private static final short POLL_CONNECT = 1;
    private static final short POLL_WRITABLE = 2;
    // The data of this channel's receives: one into a buffer of its own, or the multishot one into the ring.
    private static final short RECV_SINGLE = 0;
    private static final short RECV_MULTISHOT = 1;
    /** {@code IORING_RECV_MULTISHOT}, in the SQE's {@code ioprio}. */
    private static final short IORING_RECV_MULTISHOT = 2;

    private final ChannelOutboundBuffer.MessageProcessor gatherer = this::gather;
    // Event loop only: the memory lent to the operation in flight of each kind, released by its completion.
    private ByteBuf receiving;
    // Event loop only: the ring the multishot receive picks buffers from (the loop's, set when first armed);
    // whether that receive is in flight, its id, whether it was asked to stop, and whether the channel waits for
    // the ring to have buffers again.
    private IoUringBufferRing bufferRing;
    private final ProvidedBufferChooser bufferChooser = new ProvidedBufferChooser();
    private boolean multishotInFlight;
    private long multishotId;
    private boolean multishotCancelled;
    private boolean awaitingBuffers;
    private final Runnable buffersAvailable = this::buffersAvailable;
    // Event loop only: chunks (and the end of the stream) the multishot receive completed after reading stopped
    // being wanted, before its cancellation took effect; delivered in order when reading is wanted again. At most
    // what one receive completes before a cancellation: bounded by the ring's buffers.
    private final ArrayDeque<ByteBuf> parked = new ArrayDeque<>();
    private boolean parkedEnd;
    private boolean parkedDeliveryScheduled;
    private final Runnable deliverParked = this::deliverParked;
    private ByteBuf sending;
    // Event loop only: the buffers and the iovec array of the writev in flight (gathered > 0), kept until its
    // completion; the array lives until the channel is closed and no writev is in flight.
    private ByteBuf[] gatheredBuffers = new ByteBuf[4];
    private int gathered;
    private IovArray iov;
    // Event loop only: output shut down while a write was in flight, so the FIN waits for that write; what the
    // write left unsent, about to become the next send.
    private boolean outputShutdownPending;
    private ByteBuf pendingRest;
    // The input was shut down here (written on the loop, read anywhere); the peer's end of stream was read.
    private volatile boolean inputShutdown;
    private boolean endOfStream;
    // Event loop only: a send that failed, thrown from the next doWrite so the transport's write-error rules apply.
    private IOException writeFailure;
    // Event loop only: file regions go out through the shared writer; a poll for writability may be pending.
    private UnixStreamWriter fileWriter;
    private boolean writablePollPending;
    // Event loop only: sends DefaultFileRegions by splice; made by the first one.
    private FileRegionSplicer splicer;

    /**
     * A stream channel over {@code socket}, which it owns from now on (closed if the construction fails).
     *
     * @param parent the server channel that accepted it, or {@code null}
     * @param active whether the socket is connected already (accepted)
     * @param socketOptions the options the config reads from and writes to the socket
     * @throws NullPointerException if {@code eventLoop} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run an {@link IoUringIoHandler}
     */
    AbstractIoUringStreamChannel(ServerChannel parent, EventLoop eventLoop, Socket socket, boolean active,
                                 ChannelOption<?>... socketOptions) {
        super(parent, eventLoop, socket, active, METADATA, UnixChannelConfig.NO_BACKLOG, socketOptions);
    }

    @Override
    public ServerChannel parent() {
        return (ServerChannel) super.parent();
    }

    @Override
    public boolean isInputShutdown() {
        return inputShutdown || !isActive();
    }

    @Override
    public boolean isOutputShutdown() {
        return outputShutdownPending || socket.isOutputShutdown() || !isActive();
    }

    /**
     * Shuts one direction down. Shutting input down ends a receive in flight with 0 bytes, which is dropped (a
     * connection both of whose FINs were sent has left the connected state: {@code ENOTCONN} then still means the
     * input is down). Shutting output down while a write is in flight treats that write as the kernel's already, as a
     * readiness transport's socket buffer would hold it: its messages complete now, what is left of it is still
     * sent, and the FIN follows it; the writes queued behind it fail as on every transport.
     */
    @Override
    protected void doShutdown(ChannelShutdownDirection direction) throws Exception {
        if (direction == ChannelShutdownDirection.INBOUND) {
            UnixStreamReader.shutdownInput(socket);
            inputShutdown = true;
        } else if (sending == null && gathered == 0) {
            socket.shutdown(false, true);
        } else {
            outputShutdownPending = true;
            completeMessagesInFlight();
        }
    }

    /** Completes the flushed messages the write in flight covers (and empty ones between them). */
    private void completeMessagesInFlight() {
        ChannelOutboundBuffer in = outboundBuffer();
        while (in != null && in.current() instanceof ByteBuf buf && (!buf.isReadable() || isInFlight(buf))) {
            // Ours stays retained until the write's completion.
            in.remove();
        }
    }

    private boolean isInFlight(ByteBuf buf) {
        if (buf == sending) {
            return true;
        }
        for (int i = 0; i < gathered; i++) {
            if (gatheredBuffers[i] == buf) {
                return true;
            }
        }
        return false;
    }

    /**
     * The write in flight when output was shut down completed with {@code res}: sends what it left, or the FIN.
     * Called before the write's buffers are released.
     */
    private void continueOutputShutdown(int res) {
        ByteBuf rest = null;
        if (res >= 0) {
            int skip = res;
            if (sending != null) {
                rest = remainder(sending, skip, null);
            } else {
                for (int i = 0; i < gathered; i++) {
                    int readable = gatheredBuffers[i].readableBytes();
                    rest = remainder(gatheredBuffers[i], skip, rest);
                    skip = Math.max(0, skip - readable);
                }
            }
        }
        if (rest == null) {
            try {
                socket.shutdown(false, true);
            } catch (IOException e) {
                pipeline().fireExceptionCaught(e);
            }
            return;
        }
        try {
            submit(IoUringIoOps.newSend(socket.intValue(), address(rest, rest.readerIndex(), rest.readableBytes()),
                    rest.readableBytes(), MSG_NOSIGNAL, (short) 0));
        } catch (IOException e) {
            rest.release();
            return;
        }
        // Swapped in by the caller once the finished write's buffers are released.
        pendingRest = rest;
    }

    /** Appends what {@code buf} holds past its first {@code skip} readable bytes to {@code rest} (or a new buffer). */
    private ByteBuf remainder(ByteBuf buf, int skip, ByteBuf rest) {
        int readable = buf.readableBytes();
        if (skip >= readable) {
            return rest;
        }
        ByteBuf target = rest != null ? rest : config.getAllocator().directBuffer(readable - skip);
        target.writeBytes(buf, buf.readerIndex() + skip, readable - skip);
        return target;
    }

    // ---------------------------------------------------------------- connect

    @Override
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) throws Exception {
        if (localAddress != null) {
            socket.bind(localAddress);
        }
        try {
            if (socket.connect(remoteAddress)) {
                markActive();
                return true;
            }
            submit(IoUringIoOps.newPollAdd(socket.intValue(), POLLOUT, false, POLL_CONNECT));
        } catch (IOException e) {
            doClose();
            throw e;
        }
        return false;
    }

    @Override
    protected void doFinishConnect() throws Exception {
        try {
            if (!socket.finishConnect()) {
                throw new ConnectException("writable without a connection: " + requestedRemoteAddress());
            }
        } catch (IOException e) {
            doClose();
            throw e;
        }
        markActive();
    }

    @Override
    protected void doDisconnect() throws Exception {
        doClose();
    }

    // ---------------------------------------------------------------- completions

    @Override
    void completed(IoUringIoEvent event, boolean current) {
        switch (event.opcode()) {
            case IoUringIoOps.OP_RECV -> {
                if (event.data() == RECV_MULTISHOT) {
                    multishotCompleted(event, current);
                    return;
                }
                ByteBuf buf = receiving;
                receiving = null;
                if (current) {
                    received(buf, event.res());
                } else {
                    buf.release();
                    resumeAfterStaleCompletion();
                }
            }
            case IoUringIoOps.OP_SEND -> sendCompleted(event.res(), current);
            case IoUringIoOps.OP_SEND_ZC -> zeroCopyCompleted(event, current);
            case IoUringIoOps.OP_SPLICE -> splicer.completed(event, outboundBuffer(), current);
            case IoUringIoOps.OP_WRITEV -> {
                boolean shuttingDown = current && outputShutdownPending;
                if (shuttingDown) {
                    continueOutputShutdown(event.res());
                }
                releaseGathered();
                sending = takePendingRest();
                if (!isOpen()) {
                    closeIov();
                }
                if (current && !shuttingDown) {
                    sent(event.res());
                } else if (!current) {
                    staleSent(event.res());
                }
            }
            case IoUringIoOps.OP_POLL_ADD -> {
                if (event.data() == POLL_WRITABLE) {
                    writablePollPending = false;
                    if (current) {
                        writeFlushed();
                    }
                } else if (current) {
                    // The attempt ended one way or the other: finishConnect() asks the socket which.
                    finishConnect();
                }
            }
            case IoUringIoOps.OP_ASYNC_CANCEL -> {
                // The receive had already finished (-ENOENT) or could not be stopped yet (-EALREADY): a later
                // delivery asks again.
                if (event.res() < 0 && multishotInFlight) {
                    multishotCancelled = false;
                }
            }
            default -> {
                // Nothing else is submitted for this channel.
            }
        }
    }

    // ---------------------------------------------------------------- reading

    @Override
    void startInput() {
        if (!isActive() || inputShutdown || endOfStream) {
            return;
        }
        if (!parked.isEmpty() || parkedEnd) {
            // Delivered from a task, not from within read(): a handler that calls read() in channelRead must not
            // recurse once per parked chunk. The receive is re-armed once they are delivered.
            if (!parkedDeliveryScheduled) {
                parkedDeliveryScheduled = true;
                eventLoop().execute(deliverParked);
            }
            return;
        }
        IoUringBufferRing ring = providedBuffers();
        if (ring == null) {
            startReceive();
            return;
        }
        if (multishotInFlight || awaitingBuffers) {
            // A cancelled receive's last completion re-arms it if reading is wanted again by then.
            return;
        }
        try {
            multishotId = submit(new IoUringIoOps(IoUringIoOps.OP_RECV, IoUringBufferRing.IOSQE_BUFFER_SELECT,
                    IORING_RECV_MULTISHOT, socket.intValue(), 0, 0, 0, 0, ring.groupId(), 0, 0,
                    RECV_MULTISHOT));
        } catch (Throwable t) {
            close(voidPromise());
            return;
        }
        bufferRing = ring;
        multishotInFlight = true;
        multishotCancelled = false;
    }

    /**
     * The loop's provided buffer ring the next receive picks from (small or large buffers, see
     * {@link ProvidedBufferChooser}), or {@code null} if the loop has none or the channel is not registered.
     */
    IoUringBufferRing providedBuffers() {
        IoUringIoHandler handler = handler();
        return handler == null ? null : bufferChooser.choose(handler.bufferRing(), handler.largeBufferRing());
    }

    private IoUringIoHandler handler() {
        IoRegistration registration = ioRegistration();
        return registration == null ? null : registration.attachment();
    }

    /** The ring the multishot receive last armed on, or {@code null}: for tests. Event loop only. */
    IoUringBufferRing receivingRing() {
        return bufferRing;
    }

    /**
     * The last completion of a receive of an earlier registration arrived: a channel registered again meanwhile
     * found that receive in flight and did not start its own, so it starts it now.
     */
    private void resumeAfterStaleCompletion() {
        IoRegistration registration = ioRegistration();
        if (registration != null && registration.isValid() && wantsInput()) {
            startInput();
        }
    }

    /** Whether a multishot receive is in flight and not asked to stop. Event loop only; tests. */
    boolean isMultishotArmed() {
        return multishotInFlight && !multishotCancelled;
    }

    /** Reading is no longer wanted: a multishot receive would go on delivering, so it is cancelled. */
    @Override
    void stopInput() {
        if (multishotInFlight && !multishotCancelled) {
            cancelMultishot();
        }
    }

    private void cancelMultishot() {
        try {
            submit(IoUringIoOps.newAsyncCancel(multishotId, (short) 0));
        } catch (IOException e) {
            // Not registered any more: the registration's cancellation stops the receive.
            return;
        }
        multishotCancelled = true;
    }

    /** The ring has buffers again after this channel's receive found it empty. */
    private void buffersAvailable() {
        awaitingBuffers = false;
        if (wantsInput()) {
            startInput();
        }
    }

    /**
     * One completion of the multishot receive: a chunk in one of the ring's buffers, its end of stream, its
     * failure, or its end (no {@code IORING_CQE_F_MORE}: cancelled, ring empty, or ended by the kernel).
     */
    private void multishotCompleted(IoUringIoEvent event, boolean current) {
        int res = event.res();
        boolean more = event.hasMore();
        if (!more) {
            multishotInFlight = false;
        }
        ByteBuf buf = null;
        int flags = event.flags();
        if ((flags & IoUringIoEvent.CQE_F_BUFFER) != 0) {
            int id = flags >>> IoUringBufferRing.CQE_BUFFER_SHIFT;
            if (current && res > 0) {
                buf = bufferRing.take(id, res);
            } else {
                bufferRing.recycle(id);
            }
        }
        if (!current) {
            if (!more) {
                resumeAfterStaleCompletion();
            }
            return;
        }
        if (buf != null) {
            if (!wantsInput() || !parked.isEmpty()) {
                // Completed before the cancellation took effect: kept for the next read, in order.
                parked.add(buf);
                if (more && !multishotCancelled) {
                    cancelMultishot();
                }
                return;
            }
            deliverChunk(buf);
            if (!wantsInput()) {
                if (more && !multishotCancelled) {
                    cancelMultishot();
                }
            } else if (!more) {
                startInput();
            }
            return;
        }
        if (res == -Native.ENOBUFS) {
            awaitingBuffers = true;
            bufferRing.awaitBuffers(buffersAvailable);
            pipeline().fireUserEventTriggered(IoUringBufferRingExhaustedEvent.INSTANCE);
            return;
        }
        if (res == 0 && !parked.isEmpty()) {
            parkedEnd = true;
            return;
        }
        if (res > 0 || res == -Native.ECANCELED) {
            // Stopped because reading was not wanted (or, with no buffer, nothing to deliver): wanted again now?
            if (!more && wantsInput()) {
                startInput();
            }
            return;
        }
        inputFailed(res);
    }

    private void deliverChunk(ByteBuf buf) {
        RecvByteBufAllocator.Handle allocHandle = recvBufAllocHandle();
        allocHandle.reset(config);
        allocHandle.attemptedBytesRead(bufferRing.bufferSize());
        int bytes = buf.readableBytes();
        deliver(buf, bytes);
        IoUringIoHandler handler = handler();
        if (handler != null && multishotInFlight && !multishotCancelled
                && bufferChooser.recordRead(bufferRing, handler.bufferRing(), handler.largeBufferRing(), bytes)) {
            // Its last completion re-arms the receive on the other ring (the chunks before it are delivered).
            cancelMultishot();
        }
    }

    /** Delivers parked chunks while reading is wanted, then the parked end of stream, or re-arms the receive. */
    private void deliverParked() {
        parkedDeliveryScheduled = false;
        while (!parked.isEmpty() && wantsInput() && isOpen()) {
            deliverChunk(parked.poll());
        }
        if (!parked.isEmpty() || !isOpen()) {
            return;
        }
        if (parkedEnd) {
            parkedEnd = false;
            inputFailed(0);
        } else if (wantsInput()) {
            startInput();
        }
    }

    private void releaseParked() {
        ByteBuf buf;
        while ((buf = parked.poll()) != null) {
            buf.release();
        }
        parkedEnd = false;
    }

    /** One {@code IORING_OP_RECV} into a buffer of the channel's own, unless one is in flight. */
    private void startReceive() {
        if (receiving != null) {
            return;
        }
        RecvByteBufAllocator.Handle allocHandle = recvBufAllocHandle();
        allocHandle.reset(config);
        ByteBuf buf = config.getAllocator().directBuffer(allocHandle.guess());
        try {
            int writable = buf.writableBytes();
            allocHandle.attemptedBytesRead(writable);
            submit(IoUringIoOps.newRecv(socket.intValue(), address(buf, buf.writerIndex(), writable), writable, 0,
                    RECV_SINGLE));
        } catch (Throwable t) {
            buf.release();
            close(voidPromise());
            return;
        }
        receiving = buf;
    }

    private void received(ByteBuf buf, int res) {
        if (res > 0) {
            buf.writerIndex(buf.writerIndex() + res);
            deliver(buf, res);
            if (wantsInput()) {
                startInput();
            }
            return;
        }
        buf.release();
        inputFailed(res);
    }

    /** {@code buf} holds {@code res} received bytes: one {@code channelRead} and one {@code channelReadComplete}. */
    private void deliver(ByteBuf buf, int res) {
        ChannelPipeline pipeline = pipeline();
        RecvByteBufAllocator.Handle allocHandle = recvBufAllocHandle();
        countBytesRead(res);
        allocHandle.lastBytesRead(res);
        allocHandle.incMessagesRead(1);
        readServed();
        pipeline.fireChannelRead(buf);
        allocHandle.readComplete();
        pipeline.fireChannelReadComplete();
    }

    /** A receive ended with {@code res <= 0}: cancelled, the end of the stream, or a failure. */
    private void inputFailed(int res) {
        ChannelPipeline pipeline = pipeline();
        RecvByteBufAllocator.Handle allocHandle = recvBufAllocHandle();
        // Cancelled, or the end that shutdownInput() itself caused: nothing to tell.
        if (res == -Native.ECANCELED || (res == 0 && inputShutdown)) {
            return;
        }
        // Set before channelReadComplete, whose auto-read would otherwise ask for a receive past the end.
        endOfStream = res == 0;
        allocHandle.lastBytesRead(-1);
        allocHandle.readComplete();
        readServed();
        pipeline.fireChannelReadComplete();
        if (res == 0) {
            inputEnded();
            return;
        }
        pipeline.fireExceptionCaught(Errors.newIoException("recv", res));
        close(voidPromise());
    }

    // ---------------------------------------------------------------- writing

    /**
     * Also while the channel has no registration: its writes are submitted to the ring, so output flushed before the
     * first registration (a greeting written while an accepted channel's pipeline is set up) or while deregistered
     * waits for the next registration, which sends it ({@link #doRegister()}). A registration that was cancelled
     * (the loop shutting down) does not make writes wait: they fail, and the channel closes, releasing them.
     */
    @Override
    protected boolean isWritePending() {
        return sending != null || gathered > 0 || writablePollPending || ioRegistration() == null
                || splicer != null && splicer.isInFlight();
    }

    /** Sends what was flushed while the channel had no registration. */
    @Override
    protected void doRegister() throws Exception {
        super.doRegister();
        writeFlushed();
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        IOException failure = writeFailure;
        if (failure != null) {
            writeFailure = null;
            throw failure;
        }
        for (;;) {
            Object msg = in.current();
            if (msg == null) {
                return;
            }
            if (msg instanceof FileRegion region) {
                FileRegionSplicer.Outcome outcome = FileRegionSplicer.Outcome.NOT_SPLICEABLE;
                if (FileRegionSplicer.SUPPORTED && region instanceof DefaultFileRegion file) {
                    FileRegionSplicer s = splicer;
                    if (s == null) {
                        s = new FileRegionSplicer(this);
                        splicer = s;
                    }
                    outcome = s.write(in, file);
                }
                if (outcome == FileRegionSplicer.Outcome.SUBMITTED
                        || outcome == FileRegionSplicer.Outcome.NOT_SPLICEABLE && !writeFileRegion(in, region)) {
                    return;
                }
                continue;
            }
            ByteBuf buf = (ByteBuf) msg;
            int readable = buf.readableBytes();
            if (readable == 0) {
                in.remove();
                continue;
            }
            if (in.size() > 1 && writev(in)) {
                return;
            }
            long address = address(buf, buf.readerIndex(), readable);
            if (!submitZeroCopySend(buf, address, readable)) {
                submit(IoUringIoOps.newSend(socket.intValue(), address, readable, MSG_NOSIGNAL, (short) 0));
            }
            // Ours until the completion: failing the queued writes on close must not free what the kernel reads.
            sending = buf.retain();
            return;
        }
    }

    /**
     * Transfers {@code region} with up to {@code writeSpinCount} system calls.
     *
     * @return {@code true} once it is written; {@code false} if the rest waits for a poll for writability, which
     *         a full socket needs and which also lets other channels have their turn after the spins
     */
    private boolean writeFileRegion(ChannelOutboundBuffer in, FileRegion region) throws Exception {
        UnixStreamWriter writer = fileWriter;
        if (writer == null) {
            writer = new UnixStreamWriter(this, socket, null);
            fileWriter = writer;
        }
        for (int spin = config.getWriteSpinCount(); spin > 0; spin--) {
            if (!writer.writeFileRegion(in, region)) {
                break;
            }
            if (in.current() != region) {
                return true;
            }
        }
        submit(IoUringIoOps.newPollAdd(socket.intValue(), POLLOUT, false, POLL_WRITABLE));
        writablePollPending = true;
        return false;
    }

    /** A splice found the socket full: waits for writability, then writes on. */
    void awaitWritable() {
        try {
            submit(IoUringIoOps.newPollAdd(socket.intValue(), POLLOUT, false, POLL_WRITABLE));
        } catch (ClosedChannelException e) {
            // Closed meanwhile: the close fails what is queued.
            return;
        }
        writablePollPending = true;
    }

    /** A splice moved bytes (or was of an earlier registration): writes on if the channel is registered. */
    void splicedSome() {
        IoRegistration registration = ioRegistration();
        if (registration != null && registration.isValid()) {
            writeFlushed();
        }
    }

    /** A splice failed: the failure is thrown from the next doWrite, so the transport's write-error rules apply. */
    void spliceFailed(IOException failure) {
        writeFailure = failure;
        writeFlushed();
        writeFailure = null;
    }

    /**
     * Submits one {@code IORING_OP_WRITEV} of the flushed buffers, if more than one has bytes.
     *
     * @return {@code false} if only one had: the caller sends that one
     */
    private boolean writev(ChannelOutboundBuffer in) throws Exception {
        IovArray array = iov;
        if (array == null) {
            array = new IovArray();
            iov = array;
        }
        array.clear();
        in.forEachFlushedMessage(gatherer);
        if (array.count() < 2) {
            releaseGathered();
            return false;
        }
        try {
            submit(new IoUringIoOps(IoUringIoOps.OP_WRITEV, (byte) 0, (short) 0, socket.intValue(), -1,
                    array.memoryAddress(0, array.count()), array.count(), 0, (short) 0, 0, 0, (short) 0));
        } catch (IOException e) {
            releaseGathered();
            throw e;
        }
        return true;
    }

    /** Adds one flushed buffer to the iovec array, retaining it until the writev's completion. */
    private boolean gather(Object msg) {
        if (!(msg instanceof ByteBuf buf) || gathered == MAX_GATHERED_BUFFERS) {
            return false;
        }
        if (!buf.isReadable()) {
            return true;
        }
        if (!iov.add(buf)) {
            return false;
        }
        if (gathered == gatheredBuffers.length) {
            gatheredBuffers = Arrays.copyOf(gatheredBuffers, gathered << 1);
        }
        gatheredBuffers[gathered++] = buf.retain();
        return true;
    }

    private ByteBuf takePendingRest() {
        ByteBuf rest = pendingRest;
        pendingRest = null;
        return rest;
    }

    private void releaseGathered() {
        ByteBuf[] buffers = gatheredBuffers;
        for (int i = 0; i < gathered; i++) {
            buffers[i].release();
            buffers[i] = null;
        }
        gathered = 0;
    }

    private void closeIov() {
        IovArray array = iov;
        if (array != null) {
            iov = null;
            array.close();
        }
    }

    /** Closes as every channel does; frees the iovec array now unless a writev still uses it. */
    @Override
    protected void doClose() throws Exception {
        try {
            super.doClose();
        } finally {
            releaseParked();
            if (gathered == 0) {
                closeIov();
            }
            if (splicer != null) {
                splicer.close();
            }
        }
    }

    // ---------------------------------------------------------------- zero-copy sends

    /** The most zero-copy sends whose buffers wait for their notification; beyond, writes use a plain send. */
    static final int MAX_ZERO_COPY_HELD = 16;
    /** {@code EOPNOTSUPP}: the socket does not do zero-copy sends. */
    private static final int EOPNOTSUPP = 95;
    private static final boolean SEND_ZC_SUPPORTED = IoUring.isOperationSupported(IoUringIoOps.OP_SEND_ZC);

    // Event loop only: the buffers of zero-copy sends, each held (by its own reference) until the send's
    // notification says the kernel no longer reads it; slot i is the send whose data is i. Made on first use.
    private ByteBuf[] zeroCopyHeld;
    private int zeroCopyHeldCount;
    private boolean zeroCopyRefused;
    private long zeroCopySends;

    /**
     * Sends {@code readable} bytes of {@code buf} with {@code IORING_OP_SEND_ZC} if
     * {@link IoUringChannelOption#SEND_ZC_THRESHOLD} asks for it and the kernel, the socket and a free slot allow;
     * the slot holds a reference of its own until the notification.
     *
     * @return whether it did; if not, the caller sends as usual
     */
    private boolean submitZeroCopySend(ByteBuf buf, long address, int readable) throws IOException {
        int threshold = config.sendZeroCopyThreshold();
        if (threshold < 0 || readable < threshold || !SEND_ZC_SUPPORTED || zeroCopyRefused
                || zeroCopyHeldCount == MAX_ZERO_COPY_HELD) {
            return false;
        }
        ByteBuf[] held = zeroCopyHeld;
        if (held == null) {
            held = new ByteBuf[MAX_ZERO_COPY_HELD];
            zeroCopyHeld = held;
        }
        int slot = 0;
        while (held[slot] != null) {
            slot++;
        }
        submit(new IoUringIoOps(IoUringIoOps.OP_SEND_ZC, (byte) 0, (short) 0, socket.intValue(), 0, address,
                readable, MSG_NOSIGNAL, (short) 0, 0, 0, (short) slot));
        held[slot] = buf.retain();
        zeroCopyHeldCount++;
        zeroCopySends++;
        return true;
    }

    /**
     * A completion of a zero-copy send: first its result, which completes the write as a plain send's does
     * ({@link IoUringIoEvent#CQE_F_MORE} set if a notification follows), then the notification
     * ({@link IoUringIoEvent#CQE_F_NOTIF}), which alone gives the buffer back. A socket that refuses zero-copy
     * ({@code -EOPNOTSUPP}) sends nothing: the channel stops asking and the bytes go out with a plain send.
     */
    private void zeroCopyCompleted(IoUringIoEvent event, boolean current) {
        if ((event.flags() & IoUringIoEvent.CQE_F_NOTIF) != 0) {
            releaseZeroCopy(event.data());
            return;
        }
        if (!event.hasMore()) {
            // No notification follows: the kernel did not take the buffer.
            releaseZeroCopy(event.data());
        }
        int res = event.res();
        if (res == -EOPNOTSUPP) {
            zeroCopyRefused = true;
            res = 0;
        }
        sendCompleted(res, current);
    }

    /** The send of {@link #sending} (plain or zero-copy) completed with {@code res}: releases it, writes on. */
    private void sendCompleted(int res, boolean current) {
        boolean shuttingDown = current && outputShutdownPending;
        if (shuttingDown) {
            continueOutputShutdown(res);
        }
        ByteBuf buf = sending;
        sending = takePendingRest();
        buf.release();
        if (current && !shuttingDown) {
            sent(res);
        } else if (!current) {
            staleSent(res);
        }
    }

    /**
     * A send or writev that completed after the channel was deregistered: its bytes left all the same, so they leave
     * the outbound buffer (or they would be sent twice once the channel is registered again), and the rest goes out
     * on the new registration if there is one. A failure is left to the writes on the new registration to meet.
     */
    private void staleSent(int res) {
        if (res <= 0 || !isOpen()) {
            return;
        }
        ChannelOutboundBuffer in = outboundBuffer();
        if (in != null) {
            in.removeBytes(res);
        }
        IoRegistration registration = ioRegistration();
        if (registration != null && registration.isValid()) {
            writeFlushed();
        }
    }

    private void releaseZeroCopy(int slot) {
        ByteBuf buf = zeroCopyHeld[slot];
        zeroCopyHeld[slot] = null;
        zeroCopyHeldCount--;
        buf.release();
    }

    /** The channel's file-region splicer, {@code null} before its first region: for tests. Event loop only. */
    FileRegionSplicer splicer() {
        return splicer;
    }

    /** Whether the channel waits for writability with a poll: for tests. Event loop only. */
    boolean isAwaitingWritable() {
        return writablePollPending;
    }

    /** Zero-copy sends whose buffers wait for their notification: for tests. Event loop only. */
    int zeroCopyBuffersHeld() {
        return zeroCopyHeldCount;
    }

    /** Zero-copy sends submitted so far: for tests. Event loop only. */
    long zeroCopySends() {
        return zeroCopySends;
    }

    private void sent(int res) {
        if (res == -Native.ECANCELED) {
            return;
        }
        if (res >= 0) {
            ChannelOutboundBuffer in = outboundBuffer();
            if (in != null) {
                in.removeBytes(res);
            }
        } else {
            writeFailure = Errors.newIoException("send", res);
        }
        writeFlushed();
        // Nothing flushed was left to throw it from: the failure is of no write any more.
        writeFailure = null;
    }

    /**
     * Keeps direct buffers of one memory region and file regions as they are and copies other buffers (heap,
     * composite) into a direct one, releasing the original.
     *
     * @throws UnsupportedOperationException for anything but a {@link ByteBuf} or a {@link FileRegion}
     */
    @Override
    protected Object filterOutboundMessage(Object msg) {
        if (msg instanceof FileRegion) {
            return msg;
        }
        if (!(msg instanceof ByteBuf buf)) {
            throw new UnsupportedOperationException("unsupported message type: " + msg.getClass().getName()
                    + " (expected: ByteBuf, FileRegion)");
        }
        if (buf.isDirect() && buf.nioBufferCount() == 1) {
            return buf;
        }
        int readable = buf.readableBytes();
        ByteBuf direct = config.getAllocator().directBuffer(readable);
        try {
            direct.writeBytes(buf, buf.readerIndex(), readable);
        } catch (Throwable t) {
            direct.release();
            throw t;
        }
        buf.release();
        return direct;
    }
}
