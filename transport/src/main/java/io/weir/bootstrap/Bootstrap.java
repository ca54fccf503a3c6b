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
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
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
 * <p>A name that resolves to several addresses is tried address by address, in the resolver's order, until one
 * connects: each try on a new channel (a failed connect closes its channel), on the same event loop, with the
 * whole connect timeout. The returned future's {@link ChannelFuture#channel()} is the channel of the current try,
 * and once the future succeeds, the connected one: take the channel from the completed future. When every address
 * fails, the future fails with a {@link java.net.ConnectException} naming each address and why it failed (each
 * cause added as suppressed); with a single address, with that address's own failure.
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
        ConnectPromise promise = new ConnectPromise(channel);
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
    private void resolveAndConnect(AddressResolverGroup<?> group, Channel channel, SocketAddress remote,
                                   SocketAddress local, ConnectPromise promise) {
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
        resolver.resolveAll(remote).addListener(f -> {
            List<?> all = f.isSuccess() ? (List<?>) f.getNow() : null;
            if (all != null && !all.isEmpty()) {
                new AddressWalk(this, inet.getHostString(), all, local, promise).attempt(channel, 0);
            } else {
                promise.tryFailure(f.isSuccess() ? new UnknownHostException(inet.getHostString() + ": no address")
                        : f.cause());
                channel.close();
            }
        });
    }

    private static void connect(Channel channel, SocketAddress remote, SocketAddress local, ChannelPromise promise) {
        channel.connect(remote, local, promise).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    /**
     * Connects to each resolved address in turn until one succeeds, a new channel per try (a failed connect closes
     * its channel). Event loop only.
     */
    private static final class AddressWalk {
        private final Bootstrap bootstrap;
        private final String host;
        private final List<?> addresses;
        private final SocketAddress local;
        private final ConnectPromise promise;
        private final List<Throwable> failures = new ArrayList<>(2);

        AddressWalk(Bootstrap bootstrap, String host, List<?> addresses, SocketAddress local, ConnectPromise promise) {
            this.bootstrap = bootstrap;
            this.host = host;
            this.addresses = addresses;
            this.local = local;
            this.promise = promise;
        }

        void attempt(Channel channel, int index) {
            promise.current(channel);
            if (promise.isDone()) {
                // Cancelled between tries.
                channel.close();
                return;
            }
            ChannelPromise attempt = channel.newPromise();
            channel.connect((SocketAddress) addresses.get(index), local, attempt).addListener(f -> {
                if (f.isSuccess()) {
                    if (!promise.trySuccess()) {
                        channel.close();
                    }
                    return;
                }
                channel.close();
                failures.add(f.cause());
                if (index + 1 >= addresses.size() || promise.isDone()) {
                    promise.tryFailure(failure());
                    return;
                }
                ChannelFuture next;
                try {
                    next = bootstrap.initAndRegister(channel.eventLoop());
                } catch (RuntimeException e) {
                    failures.add(e);
                    promise.tryFailure(failure());
                    return;
                }
                next.addListener(r -> {
                    if (r.isSuccess()) {
                        next.channel().eventLoop().execute(() -> attempt(next.channel(), index + 1));
                    } else {
                        next.channel().close();
                        failures.add(r.cause());
                        promise.tryFailure(failure());
                    }
                });
            });
        }

        private Throwable failure() {
            if (failures.size() == 1 && addresses.size() == 1) {
                return failures.get(0);
            }
            StringBuilder sb = new StringBuilder("could not connect to ").append(host).append(": tried ");
            for (int i = 0; i < failures.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                sb.append(i < addresses.size() ? addresses.get(i) : "a new channel").append(" (")
                        .append(failures.get(i)).append(')');
            }
            ConnectException e = new ConnectException(sb.toString());
            for (Throwable t : failures) {
                e.addSuppressed(t);
            }
            return e;
        }
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
