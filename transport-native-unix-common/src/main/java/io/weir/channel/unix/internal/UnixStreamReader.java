package io.weir.channel.unix.internal;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.AbstractChannel;
import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.RecvByteBufAllocator;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.NativeIoException;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The read loop of a native stream channel (TCP, Unix domain stream) on an edge-triggered readiness API (epoll's
 * {@code EPOLLET}, kqueue's {@code EV_CLEAR}), shared by the epoll and kqueue transports: one per channel, event
 * loop only.
 *
 * <p>{@link #read(RecvByteBufAllocator.Handle)} allocates direct buffers through the channel's
 * {@link RecvByteBufAllocator.Handle}, reads into their memory with {@code recv(2)}, fires {@code channelRead} with
 * each (the handler owns it) and {@code channelReadComplete} at the end. It stops at
 * {@link io.weir.channel.ChannelOption#MAX_MESSAGES_PER_READ} buffers, when auto-read is off, or when the kernel
 * has nothing more. A failed read delivers what was read, fires {@code exceptionCaught} and closes the channel on
 * an {@link IOException} or {@link OutOfMemoryError}.
 *
 * <p>What the readiness API decides stays with the channel, behind {@link Input}: whether the peer's FIN was
 * reported (after it a short read proves nothing, since no further edge announces the end of the stream), what
 * "drained" means for the next edge, and what the end of the stream does (half-close or close).
 */
public final class UnixStreamReader {
    /**
     * The channel's side of the read loop; every method is called on the event loop, in the order the loop's
     * Javadoc in {@link UnixStreamReader} gives.
     */
    public interface Input {
        /** Whether the input was shut down ({@link io.weir.channel.ChannelShutdownDirection#INBOUND}). */
        boolean isInputShutdown();

        /** Whether the peer's FIN was reported ({@code EPOLLRDHUP}, {@code EV_EOF}): read on until the end. */
        boolean peerFinReceived();

        /** Something was delivered: the pending {@link Channel#read()} is served. */
        void readServed();

        /**
         * The loop ended, after its {@code channelRead}s and before {@code channelReadComplete}.
         *
         * @param drained whether the kernel said there is nothing more: a read returned nothing, did not fill its
         *        buffer (before any FIN), or reached the end of the stream
         */
        void readLoopEnded(boolean drained);

        /** After {@code channelReadComplete} (and after {@link #endOfInput()}, if the stream ended): re-arm. */
        void readLoopDone();

        /** The end of the stream was read, after {@code channelReadComplete}: half-close or close, as configured. */
        void endOfInput();
    }

    private final AbstractChannel channel;
    private final Socket socket;
    private final Input input;

    /**
     * The reader of {@code channel}, whose socket is {@code socket}.
     *
     * @throws NullPointerException if an argument is null
     */
    public UnixStreamReader(AbstractChannel channel, Socket socket, Input input) {
        this.channel = Objects.requireNonNull(channel, "channel");
        this.socket = Objects.requireNonNull(socket, "socket");
        this.input = Objects.requireNonNull(input, "input");
    }

    /**
     * Shuts the reading side of {@code socket} down, accepting that a connection both of whose FINs were sent has
     * left the connected state: {@code shutdown(2)} then still marks the reading side shut but reports
     * {@code ENOTCONN}; nothing can arrive any more, so the input is down as asked.
     *
     * @throws IOException any other failure
     */
    public static void shutdownInput(Socket socket) throws IOException {
        try {
            socket.shutdown(true, false);
        } catch (NativeIoException e) {
            if (e.errno() != Errors.ENOTCONN) {
                throw e;
            }
        }
    }

    /** Runs one read loop with the channel's {@code handle}; see the class Javadoc. Never throws. */
    public void read(RecvByteBufAllocator.Handle handle) {
        ChannelConfig config = channel.config();
        ChannelPipeline pipeline = channel.pipeline();
        ByteBufAllocator alloc = config.getAllocator();
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
                channel.countBytesRead(n);
                // A short read emptied the socket; data arriving later brings an edge of its own. After the
                // peer's FIN no edge will announce the end of the stream, so only reading it proves it.
                drained = n < writable && !input.peerFinReceived();
                handle.incMessagesRead(1);
                input.readServed();
                ByteBuf read = buf;
                buf = null;
                pipeline.fireChannelRead(read);
                if (drained || !channel.isOpen() || input.isInputShutdown()) {
                    break;
                }
            } while (handle.continueReading());
            input.readLoopEnded(drained);
            handle.readComplete();
            pipeline.fireChannelReadComplete();
            if (endOfStream) {
                input.readServed();
                input.endOfInput();
            }
        } catch (Throwable t) {
            readFailed(pipeline, handle, buf, t);
        } finally {
            input.readLoopDone();
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
        long address = NativeBuffers.address(view);
        return socket.recv(address, view.position(), view.position() + writable);
    }

    private void readFailed(ChannelPipeline pipeline, RecvByteBufAllocator.Handle handle, ByteBuf buf, Throwable t) {
        if (buf != null) {
            if (buf.isReadable()) {
                input.readServed();
                pipeline.fireChannelRead(buf);
            } else {
                buf.release();
            }
        }
        input.readLoopEnded(true);
        handle.readComplete();
        pipeline.fireChannelReadComplete();
        pipeline.fireExceptionCaught(t);
        if (t instanceof IOException || t instanceof OutOfMemoryError) {
            // A reset or a broken socket: nothing more will come, and the stream state is unknown.
            channel.close(channel.voidPromise());
        }
    }
}
