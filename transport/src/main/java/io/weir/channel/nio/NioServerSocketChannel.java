package io.weir.channel.nio;

import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelMetadata;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.RecvByteBufAllocator;
import io.weir.channel.ServerChannel;
import io.weir.channel.internal.AcceptBackoff;
import io.weir.channel.internal.BindFailure;
import io.weir.util.platform.LoopLogger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.Objects;

/**
 * A listening TCP socket over a NIO {@link ServerSocketChannel}. On accept readiness it accepts connections in a
 * loop, at most {@link ChannelOption#MAX_MESSAGES_PER_READ} per event, and fires each as a
 * {@link NioSocketChannel} message through {@code channelRead}; each is created on
 * {@link #childEventLoopGroup()}{@code .next()} and stays on that loop. {@link io.weir.bootstrap.ServerBootstrap}
 * installs the handler that registers them; without it, an accepted channel that reaches the end of the
 * pipeline is closed.
 *
 * <p>Options (besides those of every channel): {@link ChannelOption#SO_BACKLOG} (read when binding; default
 * {@value #DEFAULT_BACKLOG}), {@link ChannelOption#SO_REUSEADDR}, {@link ChannelOption#SO_RCVBUF} (inherited by
 * accepted sockets). Writing to a server channel fails with {@link UnsupportedOperationException}.
 * Thread-safe as every channel.
 */
public class NioServerSocketChannel extends AbstractNioChannel implements ServerChannel {
    /** Default {@link ChannelOption#SO_BACKLOG}: the JDK's own default listen queue length. */
    public static final int DEFAULT_BACKLOG = 50;
    /** Default {@link ChannelOption#MAX_MESSAGES_PER_READ}: connections accepted per readiness event. */
    public static final int DEFAULT_MAX_ACCEPTS_PER_READ = 16;

    private static final LoopLogger LOGGER = LoopLogger.of(NioServerSocketChannel.class);
    private static final ChannelMetadata METADATA = new ChannelMetadata(false, DEFAULT_MAX_ACCEPTS_PER_READ);

    private final ServerSocketChannel ch;
    private final EventLoopGroup childGroup;
    private final ServerConfig config;
    // Event loop only.
    private final AcceptBackoff acceptBackoff = new AcceptBackoff();
    private final Runnable resumeAccepting = this::resumeAccepting;

    /**
     * A new, unbound server socket on {@code eventLoop} whose accepted channels go to loops of {@code childGroup}.
     *
     * @throws ChannelException if the socket cannot be opened
     */
    public NioServerSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup) {
        this(eventLoop, childGroup, SelectorProvider.provider());
    }

    /**
     * A new, unbound server socket from {@code provider}; see {@link #NioServerSocketChannel(EventLoop, EventLoopGroup)}.
     *
     * @throws ChannelException if the socket cannot be opened
     */
    public NioServerSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup, SelectorProvider provider) {
        this(eventLoop, childGroup, open(provider));
    }

    /**
     * A channel over an existing server socket, which it takes ownership of.
     *
     * @throws NullPointerException if {@code childGroup} is null
     */
    public NioServerSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup, ServerSocketChannel socket) {
        super(null, eventLoop, socket, NioIoOps.ACCEPT);
        this.ch = socket;
        this.childGroup = Objects.requireNonNull(childGroup, "childGroup");
        this.config = new ServerConfig(this, socket);
    }

    private static ServerSocketChannel open(SelectorProvider provider) {
        try {
            return provider.openServerSocketChannel();
        } catch (IOException e) {
            throw new ChannelException("failed to open a server socket", e);
        }
    }

    @Override
    public EventLoopGroup childEventLoopGroup() {
        return childGroup;
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
    protected ServerSocketChannel javaChannel() {
        return ch;
    }

    @Override
    public boolean isActive() {
        return ch.isOpen() && ch.socket().isBound();
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
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
        return null;
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        try {
            ch.bind(localAddress, config.backlog);
        } catch (IOException e) {
            throw BindFailure.withAddress(localAddress, e);
        }
    }

    @Override
    protected void readReady() {
        ChannelConfig cfg = config;
        ChannelPipeline pipeline = pipeline();
        RecvByteBufAllocator.Handle handle = recvBufAllocHandle();
        handle.reset(cfg);
        Throwable failure = null;
        try {
            do {
                SocketChannel accepted = ch.accept();
                if (accepted == null) {
                    break;
                }
                NioSocketChannel child;
                try {
                    child = new NioSocketChannel(this, childGroup.next(), accepted);
                } catch (Throwable t) {
                    closeQuietly(accepted);
                    throw t;
                }
                acceptBackoff.accepted();
                handle.incMessagesRead(1);
                readServed();
                pipeline.fireChannelRead(child);
            } while (handle.continueReading() && isOpen());
        } catch (Throwable t) {
            // Running out of file descriptors lands here; the listening socket itself is fine, so stay open.
            failure = t;
        }
        boolean report = failure != null && pauseAccepting();
        handle.readComplete();
        pipeline.fireChannelReadComplete();
        if (report) {
            pipeline.fireExceptionCaught(failure);
        }
        readLoopDone();
    }

    /**
     * Accept failed: stop watching {@code OP_ACCEPT} for the back-off (see {@link AcceptBackoff}); the pending
     * connections stay in the backlog, and the selector reports them again once the interest is back.
     *
     * @return whether to report this failure to the pipeline
     */
    private boolean pauseAccepting() {
        removeInterest(readInterestOp());
        return acceptBackoff.pause(eventLoop(), resumeAccepting);
    }

    private void resumeAccepting() {
        acceptBackoff.resume();
        if (isOpen() && (isReadPending() || config.isAutoRead())) {
            addInterest(readInterestOp());
        }
    }

    @Override
    protected boolean readInterestSuspended() {
        return acceptBackoff.isPaused();
    }

    private static final class ServerConfig extends NioChannelConfig {
        volatile int backlog = DEFAULT_BACKLOG;

        ServerConfig(NioServerSocketChannel channel, ServerSocketChannel socket) {
            super(channel, socket, DEFAULT_MAX_ACCEPTS_PER_READ, ChannelOption.SO_REUSEADDR, ChannelOption.SO_RCVBUF);
        }

        @Override
        public java.util.Map<ChannelOption<?>, Object> getOptions() {
            return getOptions(super.getOptions(), ChannelOption.SO_BACKLOG);
        }

        @SuppressWarnings("unchecked")
        @Override
        public <T> T getOption(ChannelOption<T> option) {
            return option == ChannelOption.SO_BACKLOG ? (T) Integer.valueOf(backlog) : super.getOption(option);
        }

        @Override
        public <T> boolean setOption(ChannelOption<T> option, T value) {
            if (option == ChannelOption.SO_BACKLOG) {
                option.validate(value);
                backlog = (Integer) value;
                return true;
            }
            return super.setOption(option, value);
        }
    }
}
