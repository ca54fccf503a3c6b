package io.weir.bootstrap;

import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelPromise;
import io.weir.channel.EventLoop;
import io.weir.resolver.AddressResolver;
import io.weir.resolver.AddressResolverGroup;
import io.weir.resolver.DefaultAddressResolverGroup;
import java.lang.reflect.Constructor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Objects;

/**
 * Creates client channels and connects them.
 *
 * <pre>{@code
 * Bootstrap b = new Bootstrap()
 *         .group(group)
 *         .channel(NioSocketChannel.class)
 *         .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000)
 *         .handler(new ChannelInitializer<Channel>() {
 *             protected void initChannel(Channel ch) { ch.pipeline().addLast(new MyHandler()); }
 *         });
 * Channel ch = b.connect("example.com", 80).sync().channel();
 * }</pre>
 *
 * <p>Each connect creates a channel on {@code group().next()}, applies the options and attributes, adds the
 * handler, registers the channel, resolves an unresolved {@link InetSocketAddress} with the
 * {@linkplain #resolver(AddressResolverGroup) resolver} (by default {@link DefaultAddressResolverGroup}: the JDK's
 * name service on a small shared pool, so the event loop never waits for a name server), and connects.
 * The returned future fails with what went wrong ({@link java.net.UnknownHostException},
 * {@link java.net.ConnectException}, {@link io.weir.channel.ConnectTimeoutException} after
 * {@link io.weir.channel.ChannelOption#CONNECT_TIMEOUT_MILLIS}) and the channel is then closed.
 *
 * <p>See {@link AbstractBootstrap} for threading.
 */
public final class Bootstrap extends AbstractBootstrap<Bootstrap, Channel> {
    private volatile ChannelFactory<? extends Channel> channelFactory;
    private volatile SocketAddress remoteAddress;
    private volatile AddressResolverGroup<?> resolver = DefaultAddressResolverGroup.INSTANCE;

    /** An empty bootstrap. */
    public Bootstrap() {
    }

    private Bootstrap(Bootstrap other) {
        super(other);
        channelFactory = other.channelFactory;
        remoteAddress = other.remoteAddress;
        resolver = other.resolver;
    }

    /**
     * How host names are resolved before connecting; {@link DefaultAddressResolverGroup#INSTANCE} unless set.
     * A group whose resolvers do not support an address (a {@code LocalAddress}) leave it as it is.
     */
    public Bootstrap resolver(AddressResolverGroup<?> resolver) {
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        return this;
    }

    /**
     * The type of channel to create, through its public constructor taking an {@link EventLoop} (as
     * {@link io.weir.channel.nio.NioSocketChannel} and {@link io.weir.channel.local.LocalChannel} have).
     *
     * @throws IllegalArgumentException if {@code type} has no such constructor
     */
    public Bootstrap channel(Class<? extends Channel> type) {
        Constructor<? extends Channel> constructor = constructor(type, "(EventLoop)", EventLoop.class);
        return channelFactory(loop -> construct(constructor, loop));
    }

    /** How to create channels. */
    public Bootstrap channelFactory(ChannelFactory<? extends Channel> channelFactory) {
        this.channelFactory = Objects.requireNonNull(channelFactory, "channelFactory");
        return this;
    }

    /** The address {@link #connect()} connects to. */
    public Bootstrap remoteAddress(SocketAddress remoteAddress) {
        this.remoteAddress = remoteAddress;
        return this;
    }

    /** {@link #remoteAddress(SocketAddress)} of {@code host} (resolved when connecting) and {@code port}. */
    public Bootstrap remoteAddress(String host, int port) {
        return remoteAddress(InetSocketAddress.createUnresolved(host, port));
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException also if no channel type or factory, or no handler, was set
     */
    @Override
    public Bootstrap validate() {
        super.validate();
        if (channelFactory == null) {
            throw new IllegalStateException("channel type not set: call channel(Class) or channelFactory(...)");
        }
        if (handler() == null) {
            throw new IllegalStateException("handler not set: call handler(...), e.g. with a ChannelInitializer");
        }
        return this;
    }

    /** Connects to the {@linkplain #remoteAddress(SocketAddress) remote address}. */
    public ChannelFuture connect() {
        validate();
        SocketAddress address = remoteAddress;
        if (address == null) {
            throw new IllegalStateException("remoteAddress not set: call remoteAddress(...) or connect(address)");
        }
        return doConnect(address, localAddress());
    }

    /** Connects to {@code host}:{@code port}, resolving the host with the {@link #resolver} first. */
    public ChannelFuture connect(String host, int port) {
        return connect(InetSocketAddress.createUnresolved(host, port));
    }

    /** Connects to {@code host}:{@code port}. */
    public ChannelFuture connect(InetAddress host, int port) {
        return connect(new InetSocketAddress(host, port));
    }

    /**
     * Creates a channel and connects it to {@code remoteAddress}; the future completes when it is connected or
     * has failed (the channel is then closed).
     *
     * @throws IllegalStateException if the bootstrap is incomplete ({@link #validate()})
     * @throws io.weir.channel.ChannelException if the channel cannot be created
     */
    public ChannelFuture connect(SocketAddress remoteAddress) {
        Objects.requireNonNull(remoteAddress, "remoteAddress");
        validate();
        return doConnect(remoteAddress, localAddress());
    }

    /** {@link #connect(SocketAddress)} from {@code localAddress}. */
    public ChannelFuture connect(SocketAddress remoteAddress, SocketAddress localAddress) {
        Objects.requireNonNull(remoteAddress, "remoteAddress");
        validate();
        return doConnect(remoteAddress, localAddress);
    }

    private ChannelFuture doConnect(SocketAddress remote, SocketAddress local) {
        ChannelFuture registered = initAndRegister();
        Channel channel = registered.channel();
        ChannelPromise promise = channel.newPromise();
        registered.addListener(f -> {
            if (f.isSuccess()) {
                // Later, for the reason AbstractBootstrap binds later: a connect that completes at once would
                // fire channelActive from inside the registration.
                AddressResolverGroup<?> group = resolver;
                channel.eventLoop().execute(() -> resolveAndConnect(group, channel, remote, local, promise));
            } else {
                promise.tryFailure(f.cause());
            }
        });
        return promise;
    }

    /** On the channel's event loop. */
    private static void resolveAndConnect(AddressResolverGroup<?> group, Channel channel, SocketAddress remote,
                                          SocketAddress local, ChannelPromise promise) {
        if (!(remote instanceof InetSocketAddress inet) || !inet.isUnresolved()) {
            // Nothing to resolve: no resolver is asked (a loop in its quiet period still connects).
            connect(channel, remote, local, promise);
            return;
        }
        AddressResolver<?> resolver;
        try {
            resolver = group.getResolver(channel.eventLoop());
        } catch (RuntimeException e) {
            promise.tryFailure(e);
            channel.close();
            return;
        }
        if (!resolver.isSupported(remote) || resolver.isResolved(remote)) {
            connect(channel, remote, local, promise);
            return;
        }
        resolver.resolve(remote).addListener(f -> {
            if (f.isSuccess()) {
                connect(channel, (SocketAddress) f.getNow(), local, promise);
            } else {
                promise.tryFailure(f.cause());
                channel.close();
            }
        });
    }

    private static void connect(Channel channel, SocketAddress remote, SocketAddress local, ChannelPromise promise) {
        channel.connect(remote, local, promise).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    @Override
    Channel newChannel(EventLoop loop) {
        return channelFactory.newChannel(loop);
    }

    @Override
    void init(Channel channel) {
        setOptions(channel, optionsSnapshot());
        setAttributes(channel, attrsSnapshot());
        channel.pipeline().addLast(handler());
    }

    /** A copy of this bootstrap, to change without affecting it. */
    public Bootstrap copy() {
        return new Bootstrap(this);
    }
}
