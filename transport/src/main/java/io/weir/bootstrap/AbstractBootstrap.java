package io.weir.bootstrap;

import io.weir.channel.AttributeKey;
import io.weir.channel.Channel;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelPromise;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link Bootstrap} and {@link ServerBootstrap} share: the event loop group, options and attributes given
 * to each new channel, the handler added to its pipeline, and the local address to bind.
 *
 * <p>A bootstrap is a reusable template: configure it once, then bind or connect as often as needed. The
 * setters are not meant to race with {@code bind}/{@code connect}; configuring from one thread and then
 * sharing the bootstrap is safe (its state is guarded by its own lock).
 *
 * @param <B> the concrete bootstrap type, returned by the setters
 * @param <C> the type of channel it creates
 */
public abstract class AbstractBootstrap<B extends AbstractBootstrap<B, C>, C extends Channel> {
    private static final LoopLogger LOGGER = LoopLogger.of(AbstractBootstrap.class);

    private volatile EventLoopGroup group;
    private volatile ChannelHandler handler;
    private volatile SocketAddress localAddress;
    private final Map<ChannelOption<?>, Object> options = new LinkedHashMap<>();
    private final Map<AttributeKey<?>, Object> attrs = new LinkedHashMap<>();

    AbstractBootstrap() {
    }

    /** A copy of {@code other}'s shared settings. */
    AbstractBootstrap(AbstractBootstrap<B, C> other) {
        group = other.group;
        handler = other.handler;
        localAddress = other.localAddress;
        synchronized (other.options) {
            options.putAll(other.options);
        }
        synchronized (other.attrs) {
            attrs.putAll(other.attrs);
        }
    }

    @SuppressWarnings("unchecked")
    final B self() {
        return (B) this;
    }

    /**
     * The group whose loops the channels are created on ({@link EventLoopGroup#next()} picks one per channel).
     *
     * @throws NullPointerException if {@code group} is null
     * @throws IllegalStateException if a group was set already
     */
    public B group(EventLoopGroup group) {
        Objects.requireNonNull(group, "group");
        if (this.group != null) {
            throw new IllegalStateException("group set already: " + this.group);
        }
        this.group = group;
        return self();
    }

    /** The group set by {@link #group}, or {@code null}. */
    public final EventLoopGroup group() {
        return group;
    }

    /**
     * Sets {@code option} on each new channel; {@code null} removes it. An option the channel does not know is
     * logged and ignored.
     *
     * @throws IllegalArgumentException if the value is invalid for the option
     */
    public <T> B option(ChannelOption<T> option, T value) {
        Objects.requireNonNull(option, "option");
        synchronized (options) {
            if (value == null) {
                options.remove(option);
            } else {
                option.validate(value);
                options.put(option, value);
            }
        }
        return self();
    }

    /** Sets attribute {@code key} on each new channel; {@code null} removes it. */
    public <T> B attr(AttributeKey<T> key, T value) {
        Objects.requireNonNull(key, "key");
        synchronized (attrs) {
            if (value == null) {
                attrs.remove(key);
            } else {
                attrs.put(key, value);
            }
        }
        return self();
    }

    /**
     * The handler added to each new channel's pipeline (usually a {@link io.weir.channel.ChannelInitializer});
     * for a {@link ServerBootstrap}, the server channel's own handler.
     */
    public B handler(ChannelHandler handler) {
        this.handler = Objects.requireNonNull(handler, "handler");
        return self();
    }

    /** The address {@link #bind()} binds to (and a client binds to before connecting). */
    public B localAddress(SocketAddress localAddress) {
        this.localAddress = localAddress;
        return self();
    }

    /** {@link #localAddress(SocketAddress)} with a port on the wildcard address. */
    public B localAddress(int port) {
        return localAddress(new InetSocketAddress(port));
    }

    final SocketAddress localAddress() {
        return localAddress;
    }

    final ChannelHandler handler() {
        return handler;
    }

    /**
     * Checks that the bootstrap has what it needs to create channels.
     *
     * @throws IllegalStateException naming what is missing
     */
    public B validate() {
        if (group == null) {
            throw new IllegalStateException("group not set: call group(...) with an EventLoopGroup");
        }
        return self();
    }

    /** Binds a new channel to the {@linkplain #localAddress(SocketAddress) local address}. */
    public ChannelFuture bind() {
        validate();
        SocketAddress address = localAddress;
        if (address == null) {
            throw new IllegalStateException("localAddress not set: call localAddress(...) or bind(address)");
        }
        return doBind(address);
    }

    /** Binds a new channel to {@code port} on the wildcard address. */
    public ChannelFuture bind(int port) {
        return bind(new InetSocketAddress(port));
    }

    /** Binds a new channel to {@code host}:{@code port}; the host name is resolved now, on the calling thread. */
    public ChannelFuture bind(String host, int port) {
        return bind(new InetSocketAddress(host, port));
    }

    /** Binds a new channel to {@code host}:{@code port}. */
    public ChannelFuture bind(InetAddress host, int port) {
        return bind(new InetSocketAddress(host, port));
    }

    /**
     * Creates a channel on {@code group().next()}, registers it, and binds it to {@code localAddress}. The
     * returned future fails (and the channel is closed) if registration or binding fails.
     *
     * @throws IllegalStateException if the bootstrap is incomplete ({@link #validate()})
     * @throws ChannelException if the channel cannot be created
     */
    public ChannelFuture bind(SocketAddress localAddress) {
        validate();
        return doBind(Objects.requireNonNull(localAddress, "localAddress"));
    }

    private ChannelFuture doBind(SocketAddress address) {
        ChannelFuture registered = initAndRegister();
        Channel channel = registered.channel();
        ChannelPromise promise = channel.newPromise();
        registered.addListener(f -> {
            if (!f.isSuccess()) {
                promise.tryFailure(f.cause());
                return;
            }
            // Later, not from inside the registration: its listeners run before channelRegistered fires and
            // before the pipeline looks at isActive(), so a bind from here would make channelActive fire early
            // (before the handlers that registration tasks add) and twice. And two hops later, not one: the tasks
            // that channelRegistered queues (ServerBootstrap's acceptor above all) are queued after this one, and
            // must have run before the bind, so that a completed bind means a listening socket whose handlers are
            // all in place: a connection made the instant it completes is served.
            channel.eventLoop().execute(() -> channel.eventLoop().execute(() ->
                    channel.bind(address, promise).addListener(ChannelFutureListener.CLOSE_ON_FAILURE)));
        });
        return promise;
    }

    /** Creates, initialises and registers a channel; the future completes with the registration. */
    final ChannelFuture initAndRegister() {
        return initAndRegister(group.next());
    }

    /** {@link #initAndRegister()} on {@code loop}. */
    final ChannelFuture initAndRegister(EventLoop loop) {
        C channel;
        try {
            channel = newChannel(loop);
        } catch (ChannelException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ChannelException("failed to create a channel on " + loop, e);
        }
        try {
            init(channel);
        } catch (Throwable t) {
            channel.close();
            return channel.newFailedFuture(t);
        }
        return channel.register();
    }

    /** A new channel on {@code loop}. */
    abstract C newChannel(EventLoop loop);

    /** Applies options and attributes and adds handlers to a new, unregistered channel. */
    abstract void init(C channel) throws Exception;

    final Map<ChannelOption<?>, Object> optionsSnapshot() {
        synchronized (options) {
            return new LinkedHashMap<>(options);
        }
    }

    final Map<AttributeKey<?>, Object> attrsSnapshot() {
        synchronized (attrs) {
            return new LinkedHashMap<>(attrs);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void setOptions(Channel channel, Map<ChannelOption<?>, Object> options) {
        for (Map.Entry<ChannelOption<?>, Object> e : options.entrySet()) {
            try {
                if (!channel.config().setOption((ChannelOption) e.getKey(), e.getValue())) {
                    LOGGER.log(Level.WARNING, "Unknown channel option '" + e.getKey() + "' for " + channel);
                }
            } catch (RuntimeException ex) {
                LOGGER.log(Level.WARNING, "Failed to set channel option '" + e.getKey() + "' with value '"
                        + e.getValue() + "' for " + channel, ex);
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void setAttributes(Channel channel, Map<AttributeKey<?>, Object> attrs) {
        for (Map.Entry<AttributeKey<?>, Object> e : attrs.entrySet()) {
            channel.attr((AttributeKey) e.getKey()).set(e.getValue());
        }
    }

    /** The public constructor of {@code type} taking {@code parameterTypes}, or a clear error. */
    static <T> Constructor<? extends T> constructor(Class<? extends T> type, String needed, Class<?>... parameterTypes) {
        Objects.requireNonNull(type, "type");
        try {
            return type.getConstructor(parameterTypes);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(type.getName() + " has no public constructor " + type.getSimpleName()
                    + needed + "; pass a factory instead", e);
        }
    }

    static <T> T construct(Constructor<? extends T> constructor, Object... args) {
        try {
            return constructor.newInstance(args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new ChannelException("failed to create a " + constructor.getDeclaringClass().getName(), cause);
        } catch (ReflectiveOperationException e) {
            throw new ChannelException("failed to create a " + constructor.getDeclaringClass().getName(), e);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(group: " + group + ", handler: " + handler + ", options: "
                + optionsSnapshot() + ')';
    }
}
