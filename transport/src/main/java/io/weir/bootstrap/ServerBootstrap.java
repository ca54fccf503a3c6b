package io.weir.bootstrap;

import io.weir.channel.AttributeKey;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.ServerChannel;
import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;
import java.lang.reflect.Constructor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Creates server channels, binds them, and sets up every channel they accept.
 *
 * <pre>{@code
 * ServerBootstrap b = new ServerBootstrap()
 *         .group(bossGroup, workerGroup)
 *         .channel(NioServerSocketChannel.class)
 *         .option(ChannelOption.SO_BACKLOG, 1024)
 *         .childOption(ChannelOption.TCP_NODELAY, true)
 *         .childHandler(new ChannelInitializer<Channel>() {
 *             protected void initChannel(Channel ch) { ch.pipeline().addLast(new EchoHandler()); }
 *         });
 * Channel server = b.bind(8080).sync().channel();
 * }</pre>
 *
 * <p>The server channel is created on a loop of the parent group and given the child group, whose loops its
 * accepted channels are created on. An acceptor handler at the end of the server's pipeline gives each
 * accepted channel the child options and attributes, adds the child handler, and registers it; a child that
 * fails to register is closed. If accepting fails (out of file descriptors, typically), the server channel
 * itself stops accepting for a back-off and resumes (see {@code io.weir.channel.internal.AcceptBackoff}: 10 ms
 * doubling up to 1 s), so the loop neither spins on the error nor stays deaf longer than needed.
 *
 * <p><b>Bind means ready.</b> When the future of {@link #bind} completes successfully, the acceptor and the
 * {@linkplain #handler handler} are in the server's pipeline: a connection made the instant it completes is
 * accepted and gets the child handler, on every transport. No task needs queueing on the server's loop first.
 *
 * <p>See {@link AbstractBootstrap} for threading.
 */
public final class ServerBootstrap extends AbstractBootstrap<ServerBootstrap, ServerChannel> {
    private static final LoopLogger LOGGER = LoopLogger.of(ServerBootstrap.class);

    private final Map<ChannelOption<?>, Object> childOptions = new LinkedHashMap<>();
    private final Map<AttributeKey<?>, Object> childAttrs = new LinkedHashMap<>();
    private volatile ServerChannelFactory<? extends ServerChannel> channelFactory;
    private volatile EventLoopGroup childGroup;
    private volatile ChannelHandler childHandler;

    /** An empty bootstrap. */
    public ServerBootstrap() {
    }

    private ServerBootstrap(ServerBootstrap other) {
        super(other);
        channelFactory = other.channelFactory;
        childGroup = other.childGroup;
        childHandler = other.childHandler;
        synchronized (other.childOptions) {
            childOptions.putAll(other.childOptions);
        }
        synchronized (other.childAttrs) {
            childAttrs.putAll(other.childAttrs);
        }
    }

    /** Uses {@code group} for both the server channel and the accepted channels. */
    @Override
    public ServerBootstrap group(EventLoopGroup group) {
        return group(group, group);
    }

    /**
     * Server channels run on loops of {@code parentGroup}; the channels they accept on loops of {@code childGroup}.
     *
     * @throws IllegalStateException if the groups were set already
     */
    public ServerBootstrap group(EventLoopGroup parentGroup, EventLoopGroup childGroup) {
        Objects.requireNonNull(childGroup, "childGroup");
        super.group(parentGroup);
        if (this.childGroup != null) {
            throw new IllegalStateException("childGroup set already: " + this.childGroup);
        }
        this.childGroup = childGroup;
        return this;
    }

    /** The group accepted channels are created on, or {@code null}. */
    public EventLoopGroup childGroup() {
        return childGroup;
    }

    /**
     * The type of server channel to create, through its public constructor taking an {@link EventLoop} and the
     * child {@link EventLoopGroup} (as {@link io.weir.channel.nio.NioServerSocketChannel} and
     * {@link io.weir.channel.local.LocalServerChannel} have).
     *
     * @throws IllegalArgumentException if {@code type} has no such constructor
     */
    public ServerBootstrap channel(Class<? extends ServerChannel> type) {
        Constructor<? extends ServerChannel> constructor =
                constructor(type, "(EventLoop, EventLoopGroup)", EventLoop.class, EventLoopGroup.class);
        return channelFactory((loop, children) -> construct(constructor, loop, children));
    }

    /** How to create server channels. */
    public ServerBootstrap channelFactory(ServerChannelFactory<? extends ServerChannel> channelFactory) {
        this.channelFactory = Objects.requireNonNull(channelFactory, "channelFactory");
        return this;
    }

    /** Sets {@code option} on each accepted channel; {@code null} removes it. */
    public <T> ServerBootstrap childOption(ChannelOption<T> option, T value) {
        Objects.requireNonNull(option, "option");
        synchronized (childOptions) {
            if (value == null) {
                childOptions.remove(option);
            } else {
                option.validate(value);
                childOptions.put(option, value);
            }
        }
        return this;
    }

    /** Sets attribute {@code key} on each accepted channel; {@code null} removes it. */
    public <T> ServerBootstrap childAttr(AttributeKey<T> key, T value) {
        Objects.requireNonNull(key, "key");
        synchronized (childAttrs) {
            if (value == null) {
                childAttrs.remove(key);
            } else {
                childAttrs.put(key, value);
            }
        }
        return this;
    }

    /** The handler added to each accepted channel's pipeline (usually a {@link ChannelInitializer}). */
    public ServerBootstrap childHandler(ChannelHandler childHandler) {
        this.childHandler = Objects.requireNonNull(childHandler, "childHandler");
        return this;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException also if no channel type or factory, or no child handler, was set
     */
    @Override
    public ServerBootstrap validate() {
        super.validate();
        if (channelFactory == null) {
            throw new IllegalStateException("channel type not set: call channel(Class) or channelFactory(...)");
        }
        if (childHandler == null) {
            throw new IllegalStateException("childHandler not set: call childHandler(...), e.g. with a "
                    + "ChannelInitializer");
        }
        if (childGroup == null) {
            throw new IllegalStateException("childGroup not set: call group(parent, child)");
        }
        return this;
    }

    @Override
    ServerChannel newChannel(EventLoop loop) {
        return channelFactory.newChannel(loop, childGroup);
    }

    @Override
    void init(ServerChannel channel) {
        setOptions(channel, optionsSnapshot());
        setAttributes(channel, attrsSnapshot());
        ChannelHandler handler = handler();
        Acceptor acceptor;
        synchronized (childOptions) {
            synchronized (childAttrs) {
                acceptor = new Acceptor(childHandler, new LinkedHashMap<>(childOptions), new LinkedHashMap<>(childAttrs));
            }
        }
        channel.pipeline().addLast(new ChannelInitializer<ServerChannel>() {
            @Override
            protected void initChannel(ServerChannel ch) {
                if (handler != null) {
                    ch.pipeline().addLast(handler);
                }
                // Later: a handler given to handler() may itself be an initializer that adds more handlers when
                // it is added, and the acceptor must end up behind all of them.
                ch.eventLoop().execute(() -> ch.pipeline().addLast(acceptor));
            }
        });
    }

    /** A copy of this bootstrap, to change without affecting it. */
    public ServerBootstrap copy() {
        return new ServerBootstrap(this);
    }

    /** Sets up and registers each accepted channel. Runs on the server channel's loop. */
    @ChannelHandler.Sharable
    private static final class Acceptor implements ChannelHandler {
        private final ChannelHandler childHandler;
        private final Map<ChannelOption<?>, Object> childOptions;
        private final Map<AttributeKey<?>, Object> childAttrs;

        Acceptor(ChannelHandler childHandler, Map<ChannelOption<?>, Object> childOptions,
                 Map<AttributeKey<?>, Object> childAttrs) {
            this.childHandler = childHandler;
            this.childOptions = childOptions;
            this.childAttrs = childAttrs;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof Channel child)) {
                ctx.fireChannelRead(msg);
                return;
            }
            try {
                setOptions(child, childOptions);
                setAttributes(child, childAttrs);
                child.pipeline().addLast(childHandler);
                child.register().addListener(f -> {
                    if (!f.isSuccess()) {
                        LOGGER.log(Level.WARNING, "Failed to register an accepted channel: ", child, f.cause());
                        child.close();
                    }
                });
            } catch (Throwable t) {
                LOGGER.log(Level.WARNING, "Failed to set up an accepted channel: ", child, t);
                child.close();
            }
        }
    }
}
