package io.weir.resolver;

import io.weir.util.concurrent.EventExecutor;
import java.net.SocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Hands out one {@link AddressResolver} per {@link EventExecutor}, made on first use and closed with the group
 * (or when the executor terminates). {@link io.weir.bootstrap.Bootstrap#resolver} takes a group, so that each
 * connect resolves with the resolver of its channel's event loop. Thread-safe.
 *
 * @param <T> the kind of address its resolvers resolve to
 */
public abstract class AddressResolverGroup<T extends SocketAddress> implements AutoCloseable {
    private final Map<EventExecutor, AddressResolver<T>> resolvers = new ConcurrentHashMap<>();

    /** For subclasses. */
    protected AddressResolverGroup() {
    }

    /**
     * The resolver for {@code executor}.
     *
     * @throws IllegalStateException if {@code executor} is shutting down
     */
    public final AddressResolver<T> getResolver(EventExecutor executor) {
        Objects.requireNonNull(executor, "executor");
        if (executor.isShuttingDown()) {
            throw new IllegalStateException("executor is shutting down: " + executor);
        }
        return resolvers.computeIfAbsent(executor, e -> {
            AddressResolver<T> r = newResolver(e);
            e.terminationFuture().addListener(f -> {
                AddressResolver<T> removed = resolvers.remove(e);
                if (removed != null) {
                    removed.close();
                }
            });
            return r;
        });
    }

    /** A new resolver whose futures notify on {@code executor}. */
    protected abstract AddressResolver<T> newResolver(EventExecutor executor);

    /** Closes every resolver handed out. */
    @Override
    public void close() {
        for (EventExecutor e : resolvers.keySet()) {
            AddressResolver<T> r = resolvers.remove(e);
            if (r != null) {
                r.close();
            }
        }
    }
}
