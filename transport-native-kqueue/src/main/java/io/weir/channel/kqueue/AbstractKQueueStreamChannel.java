package io.weir.channel.kqueue;

import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelInputShutdownReadComplete;
import io.weir.channel.ChannelMetadata;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelShutdownDirection;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.DuplexChannel;
import io.weir.channel.EventLoop;
import io.weir.channel.ServerChannel;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.UnixStreamReader;
import io.weir.channel.unix.internal.UnixStreamWriter;

/**
 * A kqueue channel carrying a byte stream (TCP, Unix domain stream). The read loop, the writes (single
 * {@code send}, gathering {@code writev} through an {@link io.weir.channel.unix.IovArray}, {@code sendfile} for
 * {@link io.weir.channel.DefaultFileRegion}s) and the half-closure are unix-common's {@link UnixStreamReader} and
 * {@link UnixStreamWriter}, the same code epoll runs; this class connects them to the kqueue filters: the write
 * filter is kept only while the socket buffer is full, the read filter while a read is wanted.
 *
 * <p>Ownership: every {@link io.weir.buffer.ByteBuf} fired with {@code channelRead} belongs to the handler that
 * receives it; a heap buffer written is copied once into a direct one and released. Event-loop hooks only.
 */
abstract class AbstractKQueueStreamChannel extends AbstractKQueueChannel implements DuplexChannel {
    private static final ChannelMetadata METADATA =
            new ChannelMetadata(false, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ);

    private final KQueueChannelConfig config;
    private final UnixStreamReader reader;
    private final UnixStreamWriter writer;
    private volatile boolean inputShutdown;
    private volatile boolean outputShutdown;

    /**
     * @param eventLoop a loop that passed {@link #checkCompatible}
     * @param socketOptions the options the config reads from and writes to the socket
     */
    AbstractKQueueStreamChannel(ServerChannel parent, EventLoop eventLoop, Socket socket, boolean active,
                                ChannelOption<?>... socketOptions) {
        super(parent, eventLoop, socket, active);
        config = new KQueueChannelConfig(this, socket, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ,
                KQueueChannelConfig.NO_BACKLOG, socketOptions);
        reader = new UnixStreamReader(this, socket, new Input());
        writer = new UnixStreamWriter(this, socket, null);
    }

    @Override
    public final ChannelConfig config() {
        return config;
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

    @Override
    protected void doShutdown(ChannelShutdownDirection direction) throws Exception {
        if (direction == ChannelShutdownDirection.INBOUND) {
            UnixStreamReader.shutdownInput(socket);
            inputShutdown = true;
            inputOver();
        } else {
            socket.shutdown(false, true);
            outputShutdown = true;
            unwatch(KQueueIoOps.WRITE);
        }
    }

    @Override
    protected void doBeginRead() throws Exception {
        if (!inputShutdown) {
            super.doBeginRead();
        }
    }

    @Override
    final void readInput() {
        if (inputShutdown) {
            // A shut input stays readable (end of stream) forever: stop hearing about it.
            inputOver();
            return;
        }
        reader.read(recvBufAllocHandle());
    }

    /** The FIN was read: half-close or close, as configured. */
    private void streamEnded() {
        inputOver();
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

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        int result = writer.write(in, config().getWriteSpinCount());
        if (result == UnixStreamWriter.WRITE_DONE) {
            writeDrained();
        } else {
            writeLeftOver(result == UnixStreamWriter.WRITE_SOCKET_FULL);
        }
    }

    /** The channel's side of the shared read loop. */
    private final class Input implements UnixStreamReader.Input {
        @Override
        public boolean isInputShutdown() {
            return inputShutdown;
        }

        @Override
        public boolean peerFinReceived() {
            return peerFinSeen();
        }

        @Override
        public void readServed() {
            readDelivered();
        }

        @Override
        public void readLoopEnded(boolean drained) {
            readStopped(drained);
        }

        @Override
        public void readLoopDone() {
            readFinished();
        }

        @Override
        public void endOfInput() {
            streamEnded();
        }
    }
}
