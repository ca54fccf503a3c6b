package io.weir.channel.nio;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.EventLoop;
import io.weir.channel.FileRegion;
import io.weir.channel.RecvByteBufAllocator;
import io.weir.channel.internal.GatheringWriteLimit;
import io.weir.channel.nio.internal.NioBufferGatherer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.SelectableChannel;

/**
 * A NIO channel that carries a byte stream: reads arrive as {@link ByteBuf}s, and {@link ByteBuf}s and
 * {@link FileRegion}s can be written.
 *
 * <p><b>Reading.</b> On read readiness the read loop allocates buffers through the channel's
 * {@link RecvByteBufAllocator.Handle}, fires {@code channelRead} with each (the handler owns it) and
 * {@code channelReadComplete} at the end; it stops at {@link io.weir.channel.ChannelOption#MAX_MESSAGES_PER_READ}
 * buffers, when a read does not fill its buffer, or when auto-read is off. The end of the stream shuts the
 * input down ({@link io.weir.channel.ChannelOption#ALLOW_HALF_CLOSURE}) or closes the channel.
 *
 * <p><b>Writing.</b> Heap buffers are copied once, as they are written, into a direct buffer from the channel's
 * allocator (pooled by default); the JDK would otherwise copy them into a temporary direct buffer of its own on
 * every attempt. Flushed buffers are written with gathering writes of at most
 * {@value #MAX_BUFFERS_PER_GATHERING_WRITE} buffers and an adaptive number of bytes; a flush makes at most
 * {@link io.weir.channel.ChannelOption#WRITE_SPIN_COUNT} write calls before letting other channels run.
 * Write readiness is waited for only when the socket buffer is full. {@link FileRegion}s are sent with
 * {@link FileRegion#transferTo} (zero copy) and report their progress to a
 * {@link io.weir.channel.ChannelProgressivePromise}.
 */
public abstract class AbstractNioByteChannel extends AbstractNioChannel {
    /** Most buffers one gathering write hands to the kernel (a common {@code IOV_MAX}). */
    public static final int MAX_BUFFERS_PER_GATHERING_WRITE = 1024;

    // Event loop only: adapts to what the socket takes per call, so the gatherer does not build arrays for
    // bytes the kernel would refuse anyway.
    private final GatheringWriteLimit gatheringWriteLimit = new GatheringWriteLimit(Integer.MAX_VALUE);

    /** A byte channel over {@code ch}; see {@link AbstractNioChannel}. */
    protected AbstractNioByteChannel(Channel parent, EventLoop eventLoop, SelectableChannel ch) {
        super(parent, eventLoop, ch, NioIoOps.READ);
    }

    /** Reads into {@code buf}'s writable bytes; returns the bytes read, or -1 at the end of the stream. */
    protected abstract int doReadBytes(ByteBuf buf) throws Exception;

    /** Whether reads should stop because the input was shut down. */
    protected abstract boolean isInputShutdown0();

    /** The channel gathering writes go to. */
    protected abstract GatheringByteChannel gatheringChannel();

    /** Sets the starting size of gathering writes, from the socket's send buffer. */
    protected final void maxBytesPerGatheringWrite(long bytes) {
        gatheringWriteLimit.bytes(bytes);
    }

    @Override
    protected void doBeginRead() throws Exception {
        if (isInputShutdown0()) {
            return;
        }
        super.doBeginRead();
    }

    @Override
    protected final void readReady() {
        if (isInputShutdown0()) {
            // EOF stays readable forever; the input is done, so stop hearing about it.
            readServed();
            removeInterest(NioIoOps.READ);
            return;
        }
        ChannelConfig config = config();
        ChannelPipeline pipeline = pipeline();
        ByteBufAllocator alloc = config.getAllocator();
        RecvByteBufAllocator.Handle handle = recvBufAllocHandle();
        handle.reset(config);
        ByteBuf buf = null;
        boolean endOfStream = false;
        try {
            do {
                buf = handle.allocate(alloc);
                handle.attemptedBytesRead(buf.writableBytes());
                handle.lastBytesRead(doReadBytes(buf));
                if (handle.lastBytesRead() <= 0) {
                    buf.release();
                    buf = null;
                    endOfStream = handle.lastBytesRead() < 0;
                    if (endOfStream) {
                        readServed();
                    }
                    break;
                }
                countBytesRead(handle.lastBytesRead());
                handle.incMessagesRead(1);
                readServed();
                ByteBuf read = buf;
                buf = null;
                pipeline.fireChannelRead(read);
            } while (handle.continueReading() && isOpen());
            handle.readComplete();
            pipeline.fireChannelReadComplete();
            if (endOfStream) {
                inputEnded();
            }
        } catch (Throwable t) {
            readFailed(pipeline, handle, buf, t);
        } finally {
            readLoopDone();
        }
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
        handle.readComplete();
        pipeline.fireChannelReadComplete();
        pipeline.fireExceptionCaught(t);
        if (t instanceof IOException || t instanceof OutOfMemoryError) {
            // A reset or a broken socket: nothing more will come, and the stream state is unknown.
            close(voidPromise());
        }
    }

    /** Copies heap buffers into direct memory once; accepts {@link FileRegion}s; refuses anything else. */
    @Override
    protected Object filterOutboundMessage(Object msg) {
        if (msg instanceof ByteBuf buf) {
            return buf.isDirect() ? buf : newDirectBuffer(buf);
        }
        if (msg instanceof FileRegion) {
            return msg;
        }
        throw new UnsupportedOperationException("unsupported message type: " + msg.getClass().getName()
                + " (expected: ByteBuf, FileRegion)");
    }

    /** A direct copy of {@code buf}'s readable bytes; releases {@code buf} (the copy is released if it fails). */
    private ByteBuf newDirectBuffer(ByteBuf buf) {
        try {
            return buf.isReadable() ? ByteBufUtil.copyToDirect(alloc(), buf) : Unpooled.EMPTY_BUFFER;
        } finally {
            buf.release();
        }
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
            if (msg instanceof ByteBuf) {
                if (!writeBuffers(in)) {
                    incompleteWrite(true);
                    return;
                }
            } else if (msg instanceof FileRegion region) {
                if (!writeFileRegion(in, region)) {
                    incompleteWrite(true);
                    return;
                }
            } else {
                // filterOutboundMessage() lets nothing else in; a subclass that does must write it itself.
                in.remove(new UnsupportedOperationException("unsupported message type: " + msg.getClass().getName()));
            }
        } while (--spin > 0);
        if (in.isEmpty()) {
            writeComplete();
        } else {
            incompleteWrite(false);
        }
    }

    /** One gathering write of the flushed buffers at the head; {@code false} if the socket took nothing. */
    private boolean writeBuffers(ChannelOutboundBuffer in) throws Exception {
        NioBufferGatherer gatherer = NioBufferGatherer.ofThisThread();
        try {
            ByteBuffer[] buffers = gatherer.gather(in, MAX_BUFFERS_PER_GATHERING_WRITE, gatheringWriteLimit.bytes());
            int count = gatherer.count();
            if (count == 0) {
                // Only empty buffers at the head: account for them without a system call.
                in.removeBytes(0);
                return true;
            }
            long attempted = gatherer.size();
            GatheringByteChannel ch = gatheringChannel();
            long written = count == 1 ? ch.write(buffers[0]) : ch.write(buffers, 0, count);
            if (written <= 0) {
                in.removeBytes(0);
                return false;
            }
            gatheringWriteLimit.adjust(attempted, written);
            in.removeBytes(written);
            return true;
        } finally {
            // The array is the thread's: it must not keep this channel's buffers reachable.
            gatherer.clear();
        }
    }

    /** One transfer of {@code region}; {@code false} if the socket took nothing. */
    private boolean writeFileRegion(ChannelOutboundBuffer in, FileRegion region) throws IOException {
        if (region.transferred() >= region.count()) {
            in.remove();
            return true;
        }
        long written = region.transferTo(gatheringChannel(), region.transferred());
        if (written > 0) {
            in.progress(written);
            if (region.transferred() >= region.count()) {
                in.remove();
            }
            return true;
        }
        return false;
    }

}
