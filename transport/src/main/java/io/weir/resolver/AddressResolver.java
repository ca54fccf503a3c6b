package io.weir.resolver;

import io.weir.util.concurrent.Future;
import java.net.SocketAddress;
import java.util.List;

/**
 * Turns a possibly unresolved address (a host name) into addresses a channel can connect to, without blocking the
 * thread that asks: the answer comes through a future. One resolver serves one {@link io.weir.util.concurrent.EventExecutor}
 * (see {@link AddressResolverGroup}); its futures notify listeners on that executor.
 *
 * @param <T> the kind of address it resolves to
 */
public interface AddressResolver<T extends SocketAddress> extends AutoCloseable {
    /** Whether this resolver handles {@code address} at all (an {@code InetSocketAddress}, say). */
    boolean isSupported(SocketAddress address);

    /** Whether {@code address} needs no resolving. */
    boolean isResolved(SocketAddress address);

    /**
     * The first address {@code address} resolves to ({@code address} itself if already resolved).
     *
     * @return a future that fails with {@link java.net.UnknownHostException} for a name that does not resolve
     *         (or does not in time)
     */
    Future<T> resolve(SocketAddress address);

    /** Every address {@code address} resolves to, in the order the name service gave them. */
    Future<List<T>> resolveAll(SocketAddress address);

    /** Releases what the resolver holds; further calls may fail. */
    @Override
    void close();
}
