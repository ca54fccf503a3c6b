package io.weir.channel.nio;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelMetadata;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelShutdownDirection;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.DuplexChannel;
import io.weir.channel.EventLoop;
import io.weir.channel.ServerChannel;
import io.weir.channel.internal.BindFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;

/**
 * A TCP connection over a NIO {@link SocketChannel}, made by {@link io.weir.bootstrap.Bootstrap} or accepted
 * by a {@link NioServerSocketChannel}.
 *
 * <p>Options (besides those of every channel): {@link ChannelOption#SO_KEEPALIVE}, {@link ChannelOption#SO_SNDBUF},
 * {@link ChannelOption#SO_RCVBUF}, {@link ChannelOption#SO_REUSEADDR}, {@link ChannelOption#SO_LINGER},
 * {@link ChannelOption#TCP_NODELAY} (on by default: Weir writes whole messages, and Nagle's algorithm would
 * only delay them), {@link ChannelOption#IP_TOS} and {@link ChannelOption#ALLOW_HALF_CLOSURE}. They are read
 * from and written to the socket itself; a failure to do so is a {@link ChannelException}.
 *
 * <p>Half-closure ({@link DuplexChannel}): {@link #shutdownOutput()} sends FIN after failing queued writes;
 * {@link #shutdownInput()} stops reading. With {@code ALLOW_HALF_CLOSURE} on, the peer's FIN shuts the input
 * down and fires {@link io.weir.channel.ChannelInputShutdownEvent} while the output stays writable.
 *
 * <p>Thread-safe as every channel. Closing with a positive {@code SO_LINGER} blocks the event loop until the
 * kernel has sent what it holds or the linger time ran out.
 */
public class NioSocketChannel extends AbstractNioByteChannel implements DuplexChannel {
    /** The socket options this channel reads and writes through the socket; one array for every channel. */
    private static final ChannelOption<?>[] SOCKET_OPTIONS = {
        ChannelOption.SO_KEEPALIVE, ChannelOption.SO_SNDBUF, ChannelOption.SO_RCVBUF,
        ChannelOption.SO_REUSEADDR, ChannelOption.SO_LINGER, ChannelOption.TCP_NODELAY, ChannelOption.IP_TOS
    };
    private static final ChannelMetadata METADATA =
            new ChannelMetadata(false, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ);

    private final SocketChannel ch;
    private final NioChannelConfig config;
    private volatile boolean inputShutdown;
    private volatile boolean outputShutdown;

    /**
     * A new, unconnected socket on {@code eventLoop}.
     *
     * @throws ChannelException if the socket cannot be opened
     */
    public NioSocketChannel(EventLoop eventLoop) {
        this(eventLoop, SelectorProvider.provider());
    }

    /**
     * A new, unconnected socket from {@code provider} on {@code eventLoop}.
     *
     * @throws ChannelException if the socket cannot be opened
     */
    public NioSocketChannel(EventLoop eventLoop, SelectorProvider provider) {
        this(null, eventLoop, open(provider));
    }

    /**
     * A channel over an existing socket (connected or not), which it takes ownership of.
     *
     * @param parent the server channel that accepted it, or {@code null}
     * @throws ChannelException if the socket cannot be made non-blocking (it is then closed)
     */
    public NioSocketChannel(ServerChannel parent, EventLoop eventLoop, SocketChannel socket) {
        super(parent, eventLoop, socket);
        this.ch = socket;
        this.config = new NioChannelConfig(this, socket, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ,
                SOCKET_OPTIONS);
        try {
            socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
        } catch (IOException | UnsupportedOperationException e) {
            // Not every socket has the option (Unix domain sockets); the default then is the system's.
        }
        try {
            maxBytesPerGatheringWrite((long) socket.getOption(StandardSocketOptions.SO_SNDBUF) << 1);
        } catch (IOException | UnsupportedOperationException e) {
            // Keep the built-in start value; it adapts after the first writes anyway.
        }
    }

    private static SocketChannel open(SelectorProvider provider) {
        try {
            return provider.openSocketChannel();
        } catch (IOException e) {
            throw new ChannelException("failed to open a socket", e);
        }
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public ChannelMetadata metadata() {
        return METADATA;
    }

    @Override
    public ServerChannel parent() {
        return (ServerChannel) super.parent();
    }

    @Override
    protected SocketChannel javaChannel() {
        return ch;
    }

    @Override
    public boolean isActive() {
        return ch.isOpen() && ch.isConnected();
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
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) super.remoteAddress();
    }

    @Override
    protected SocketAddress localAddress0() {
        try {
            return ch.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected SocketAddress remoteAddress0() {
        try {
            return ch.getRemoteAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        BindFailure.bind(ch, localAddress);
    }

    @Override
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) throws Exception {
        if (localAddress != null) {
            BindFailure.bind(ch, localAddress);
        }
        boolean connected;
        try {
            connected = ch.connect(remoteAddress);
        } catch (IOException e) {
            throw connectFailure(e);
        }
        if (!connected) {
            addInterest(NioIoOps.CONNECT);
        }
        return connected;
    }

    @Override
    protected void doFinishConnect() throws Exception {
        boolean connected;
        try {
            connected = ch.finishConnect();
        } catch (IOException e) {
            throw connectFailure(e);
        }
        if (!connected) {
            // OP_CONNECT fired but the kernel has not decided: not expected from NIO; report it rather than hang.
            throw new java.net.ConnectException("connect readiness without a connection: " + requestedRemoteAddress());
        }
    }

    @Override
    protected void doDisconnect() throws Exception {
        doClose();
    }

    @Override
    protected void doShutdown(ChannelShutdownDirection direction) throws Exception {
        if (direction == ChannelShutdownDirection.INBOUND) {
            ch.shutdownInput();
            inputShutdown = true;
            removeInterest(NioIoOps.READ);
        } else {
            ch.shutdownOutput();
            outputShutdown = true;
            removeInterest(NioIoOps.WRITE);
        }
    }

    @Override
    protected boolean isInputShutdown0() {
        return inputShutdown;
    }

    @Override
    protected int doReadBytes(ByteBuf buf) throws Exception {
        return buf.writeBytes(ch, buf.writableBytes());
    }

    @Override
    protected GatheringByteChannel gatheringChannel() {
        return ch;
    }
}
