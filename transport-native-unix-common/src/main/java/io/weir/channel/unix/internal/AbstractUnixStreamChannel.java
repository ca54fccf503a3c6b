package io.weir.channel.unix.internal;

import io.weir.channel.ChannelInputShutdownReadComplete;
import io.weir.channel.ChannelMetadata;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelShutdownDirection;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.DuplexChannel;
import io.weir.channel.EventLoop;
import io.weir.channel.ServerChannel;
import io.weir.channel.unix.Socket;

/**
 * A native channel carrying a byte stream (TCP, Unix domain stream), shared by epoll and kqueue. The read loop,
 * the writes (single {@code send}, gathering {@code writev} through an {@link io.weir.channel.unix.IovArray},
 * {@code sendfile} for {@link io.weir.channel.DefaultFileRegion}s) and the half-closure are
 * {@link UnixStreamReader} and {@link UnixStreamWriter}; this class connects them to the interest of
 * {@link AbstractUnixChannel}: write readiness is watched only while the socket buffer is full, read readiness
 * while a read is wanted, the peer's FIN always (until the input is done).
 *
 * <p>Ownership: every {@link io.weir.buffer.ByteBuf} fired with {@code channelRead} belongs to the handler that
 * receives it; a heap buffer written is copied once into a direct one and released. Event-loop hooks only; not
 * for applications.
 */
public abstract class AbstractUnixStreamChannel extends AbstractUnixChannel implements DuplexChannel {
    private static final ChannelMetadata METADATA =
            new ChannelMetadata(false, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ);

    private final UnixStreamReader reader;
    private final UnixStreamWriter writer;
    private volatile boolean inputShutdown;
    private volatile boolean outputShutdown;

    /** See {@link AbstractUnixChannel}; the peer's FIN is watched from the start. */
    protected AbstractUnixStreamChannel(ServerChannel parent, EventLoop eventLoop, Socket socket, boolean active,
                                        UnixTransport transport) {
        super(parent, eventLoop, socket, active, transport, INTEREST_PEER_FIN);
        reader = new UnixStreamReader(this, socket, new ReaderInput());
        writer = new UnixStreamWriter(this, socket, this::writeOtherMessage);
    }

    @Override
    public final ChannelMetadata metadata() {
        return METADATA;
    }

    /** The server channel that accepted this connection, or {@code null} if it was connected from here. */
    @Override
    public final ServerChannel parent() {
        return (ServerChannel) super.parent();
    }

    @Override
    public boolean isInputShutdown() {
        return inputShutdown || !isActive();
    }

    @Override
    public boolean isOutputShutdown() {
        return outputShutdown || !isActive();
    }

    /** Whether the input was shut down from this side ({@link ChannelShutdownDirection#INBOUND}). Event loop. */
    protected final boolean inputShutdown() {
        return inputShutdown;
    }

    @Override
    protected void doShutdown(ChannelShutdownDirection direction) throws Exception {
        if (direction == ChannelShutdownDirection.INBOUND) {
            UnixStreamReader.shutdownInput(socket);
            inputShutdown = true;
            inputDone();
        } else {
            socket.shutdown(false, true);
            outputShutdown = true;
            unwatch(INTEREST_WRITE);
        }
    }

    @Override
    protected void doBeginRead() throws Exception {
        if (!inputShutdown) {
            super.doBeginRead();
        }
    }

    /** Reads what the socket holds into buffers fired with {@code channelRead}; see {@link UnixStreamReader}. */
    @Override
    protected void readLoop() {
        if (inputShutdown) {
            // The end of the stream stays readable forever; the input is done, so stop hearing about it.
            inputDone();
            return;
        }
        reader.read(recvBufAllocHandle());
    }

    /** The peer's FIN was read: half-close or close, as configured. */
    protected final void endOfInput() {
        inputDone();
        boolean wasShutdown = inputShutdown;
        inputEnded();
        if (!wasShutdown && inputShutdown && isOpen()) {
            pipeline().fireChannelShutdown(ChannelInputShutdownReadComplete.INSTANCE);
        }
    }

    /** Heap and other non-native buffers are copied into direct memory once; file regions pass as they are. */
    @Override
    protected Object filterOutboundMessage(Object msg) {
        return UnixStreamWriter.filterOutboundMessage(alloc(), msg);
    }

    /**
     * One write of {@code msg}, an outbound message of the transport's own kind that {@link #filterOutboundMessage}
     * let in (neither a buffer nor a file region); removes it from {@code in} once written. Event loop only.
     *
     * @return {@code false} if the socket took nothing
     * @throws UnsupportedOperationException if the transport does not know {@code msg}'s type either
     */
    protected boolean writeOtherMessage(ChannelOutboundBuffer in, Object msg) throws Exception {
        throw new UnsupportedOperationException("unsupported message type: " + msg.getClass().getName());
    }

    @Override
    protected final void doWrite(ChannelOutboundBuffer in) throws Exception {
        int result = writer.write(in, config().getWriteSpinCount());
        if (result == UnixStreamWriter.WRITE_DONE) {
            writeComplete();
        } else {
            incompleteWrite(result == UnixStreamWriter.WRITE_SOCKET_FULL);
        }
    }

    /** The channel's side of the shared read loop. */
    private final class ReaderInput implements UnixStreamReader.Input {
        @Override
        public boolean isInputShutdown() {
            return inputShutdown;
        }

        @Override
        public boolean peerFinReceived() {
            return AbstractUnixStreamChannel.this.peerFinReceived();
        }

        @Override
        public void readServed() {
            AbstractUnixStreamChannel.this.readServed();
        }

        @Override
        public void readLoopEnded(boolean drained) {
            AbstractUnixStreamChannel.this.readLoopEnded(drained);
        }

        @Override
        public void readLoopDone() {
            AbstractUnixStreamChannel.this.readLoopDone();
        }

        @Override
        public void endOfInput() {
            AbstractUnixStreamChannel.this.endOfInput();
        }
    }
}
