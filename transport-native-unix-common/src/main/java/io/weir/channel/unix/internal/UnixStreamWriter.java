package io.weir.channel.unix.internal;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.DefaultFileRegion;
import io.weir.channel.FileRegion;
import io.weir.channel.internal.FileRegionAccess;
import io.weir.channel.internal.GatheringWriteLimit;
import io.weir.channel.unix.IovArray;
import io.weir.channel.unix.Socket;
import io.weir.util.concurrent.FastThreadLocal;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * The write side of a native stream channel (TCP, Unix domain stream), shared by the epoll and kqueue transports:
 * one per channel, event loop only.
 *
 * <p>A flush writes the flushed {@link ByteBuf}s with {@code send(2)} from the memory address when one buffer
 * holds bytes, and with {@code writev(2)} through an {@link IovArray} of the event loop's thread otherwise, so no
 * Java array is built. The bytes offered per {@code writev} adapt to what the socket took before: doubled when it
 * took everything, halved when it took less than half ({@link GatheringWriteLimit}), up to
 * {@link IovArray#DEFAULT_MAX_BYTES}. A {@link DefaultFileRegion} over a JDK file goes out with
 * {@code sendfile(2)}; other {@link FileRegion}s transfer themselves to a {@link SocketWritableChannel}.
 * Messages of the transport's own (epoll's splice, say) go to the {@link MessageWriter} it passes in.
 *
 * <p>The channel supplies what differs per transport, the readiness interest, by acting on what
 * {@link #write(ChannelOutboundBuffer, int)} returns: {@link #WRITE_DONE} (stop watching write readiness),
 * {@link #WRITE_SOCKET_FULL} (watch it) or {@link #WRITE_SPIN_EXHAUSTED} (write the rest from a task, after other
 * channels had their turn).
 */
public final class UnixStreamWriter {
    /** {@link #write}: everything flushed was written. */
    public static final int WRITE_DONE = 0;
    /** {@link #write}: the socket took nothing; wait for write readiness. */
    public static final int WRITE_SOCKET_FULL = 1;
    /** {@link #write}: the write spin count ran out with data left; write the rest later. */
    public static final int WRITE_SPIN_EXHAUSTED = 2;

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

    /** Writes a transport's own outbound message type. */
    @FunctionalInterface
    public interface MessageWriter {
        /**
         * One write of {@code msg}, the current message of {@code in}; removes it from {@code in} once written.
         *
         * @return {@code false} if the socket took nothing
         * @throws UnsupportedOperationException if the transport does not know {@code msg}'s type either
         */
        boolean write(ChannelOutboundBuffer in, Object msg) throws Exception;
    }

    private static final MessageWriter NO_OTHER_MESSAGES = (in, msg) -> {
        throw new UnsupportedOperationException("unsupported message type: " + msg.getClass().getName());
    };

    private final Channel channel;
    private final Socket socket;
    private final MessageWriter otherMessages;
    // Adapts to what the socket takes per call, so the iovec array is not filled with entries the kernel would
    // refuse anyway.
    private final GatheringWriteLimit gatheringWriteLimit = new GatheringWriteLimit(IovArray.DEFAULT_MAX_BYTES);
    // Created by the first FileRegion that transfers itself.
    private SocketWritableChannel writableChannel;

    /**
     * The writer of {@code channel}, whose socket is {@code socket}.
     *
     * @param otherMessages writes the transport's own message types; {@code null} if it has none
     * @throws NullPointerException if {@code channel} or {@code socket} is null
     */
    public UnixStreamWriter(Channel channel, Socket socket, MessageWriter otherMessages) {
        this.channel = Objects.requireNonNull(channel, "channel");
        this.socket = Objects.requireNonNull(socket, "socket");
        this.otherMessages = otherMessages == null ? NO_OTHER_MESSAGES : otherMessages;
    }

    /**
     * The message a stream channel queues for {@code msg}: a direct {@link ByteBuf} as it is; a heap one copied once
     * into direct memory from {@code alloc} (and released); a {@link FileRegion} as it is. A transport with message
     * types of its own checks for them first.
     *
     * @throws UnsupportedOperationException for any other message (which is then not released)
     */
    public static Object filterOutboundMessage(ByteBufAllocator alloc, Object msg) {
        if (msg instanceof ByteBuf buf) {
            if (buf.isDirect()) {
                return buf;
            }
            try {
                return buf.isReadable() ? ByteBufUtil.copyToDirect(alloc, buf) : Unpooled.EMPTY_BUFFER;
            } finally {
                buf.release();
            }
        }
        if (msg instanceof FileRegion) {
            return msg;
        }
        throw new UnsupportedOperationException("unsupported message type: " + msg.getClass().getName()
                + " (expected: ByteBuf, FileRegion)");
    }

    /**
     * Writes the flushed messages of {@code in}, at most {@code spinCount} system calls. A message that fails with an
     * {@link UnsupportedOperationException} from the {@link MessageWriter} is removed with that failure.
     *
     * @return {@link #WRITE_DONE}, {@link #WRITE_SOCKET_FULL} or {@link #WRITE_SPIN_EXHAUSTED}
     * @throws Exception what the socket threw (the channel fails the write and decides whether to close)
     */
    public int write(ChannelOutboundBuffer in, int spinCount) throws Exception {
        int spin = spinCount;
        do {
            Object msg = in.current();
            if (msg == null) {
                return WRITE_DONE;
            }
            boolean progress;
            if (msg instanceof ByteBuf buf) {
                progress = writeBuffers(in, buf);
            } else if (msg instanceof FileRegion region) {
                progress = writeFileRegion(in, region);
            } else {
                try {
                    progress = otherMessages.write(in, msg);
                } catch (UnsupportedOperationException e) {
                    in.remove(e);
                    continue;
                }
            }
            if (!progress) {
                return WRITE_SOCKET_FULL;
            }
        } while (--spin > 0);
        return in.isEmpty() || in.current() == null ? WRITE_DONE : WRITE_SPIN_EXHAUSTED;
    }

    /** One write of the flushed buffers at the head, {@code first} leading; {@code false} if the socket took none. */
    public boolean writeBuffers(ChannelOutboundBuffer in, ByteBuf first) throws Exception {
        if (in.size() == 1 && first.hasMemoryAddress() && first.isReadable()) {
            // The common case (one response, one echo): straight to send(2), no iovec array to fill.
            return writeSingle(in, first);
        }
        IovFiller filler = IOV.get();
        IovArray iov = filler.iov;
        iov.clear();
        iov.maxBytes(gatheringWriteLimit.bytes());
        try {
            in.forEachFlushedMessage(filler);
            int count = iov.count();
            if (count == 0) {
                // Only empty buffers at the head: account for them without a system call.
                in.removeBytes(0);
                return true;
            }
            if (count == 1 && first.hasMemoryAddress() && first.isReadable()) {
                // Several flushed, but only the first went in: the others are empty (an empty last chunk behind a
                // response, say), or the limit left them out, so what the socket takes adjusts the limit too.
                long attempted = first.readableBytes();
                int written = socket.send(first.memoryAddress(), first.readerIndex(), first.writerIndex());
                gatheringWriteLimit.adjust(attempted, Math.max(written, 0));
                if (written <= 0) {
                    return false;
                }
                in.removeBytes(written);
                return true;
            }
            long attempted = iov.size();
            long written = socket.writev(iov, 0, count);
            gatheringWriteLimit.adjust(attempted, written);
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

    /**
     * One transfer of {@code region}, the current message of {@code in}; {@code false} if the socket took nothing.
     *
     * @throws IOException if the socket fails, or the file is shorter than the region
     */
    public boolean writeFileRegion(ChannelOutboundBuffer in, FileRegion region) throws IOException {
        long done = region.transferred();
        long count = region.count();
        if (done >= count) {
            in.remove();
            return true;
        }
        long written;
        FileChannel file = region instanceof DefaultFileRegion def ? sendableFile(def) : null;
        if (file != null) {
            written = socket.sendFile(file, region.position() + done, count - done);
            if (written > 0) {
                FileRegionAccess.addTransferred((DefaultFileRegion) region, written);
            } else if (file.size() < region.position() + count) {
                // sendfile(2) reports the end of a file that shrank under the region as "nothing sent", forever.
                throw new IOException("file shorter than the region: size " + file.size() + ", " + region);
            }
        } else {
            if (writableChannel == null) {
                writableChannel = new SocketWritableChannel(socket, channel.alloc());
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
     * if the region holds another kind of channel (whose descriptor the natives cannot see): it then transfers itself.
     */
    private static FileChannel sendableFile(DefaultFileRegion region) throws IOException {
        FileChannel file = FileRegionAccess.openChannel(region);
        return file != null && "sun.nio.ch.FileChannelImpl".equals(file.getClass().getName()) ? file : null;
    }

    /** The bytes the next gathering write offers at most (for tests and metrics). Event loop only. */
    public long maxBytesPerGatheringWrite() {
        return gatheringWriteLimit.bytes();
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
