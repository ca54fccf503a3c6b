package io.weir.resolver;

import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.Future;
import java.net.SocketAddress;
import java.util.List;

/**
 * Resolves nothing: {@link io.weir.bootstrap.Bootstrap} hands the address to the pipeline as it is, unresolved host
 * names included. For a client whose first handler resolves on the other side (a proxy handler: the proxy looks
 * the name up, and a name only it knows still works), set with {@code bootstrap.resolver(NoopAddressResolverGroup.INSTANCE)}.
 * Without such a handler, a transport refuses an unresolved address when it connects. Thread-safe.
 */
public final class NoopAddressResolverGroup extends AddressResolverGroup<SocketAddress> {
    /** The shared group. */
    public static final NoopAddressResolverGroup INSTANCE = new NoopAddressResolverGroup();

    private NoopAddressResolverGroup() {
    }

    @Override
    protected AddressResolver<SocketAddress> newResolver(EventExecutor executor) {
        return new AddressResolver<>() {
            @Override
            public boolean isSupported(SocketAddress address) {
                return true;
            }

            @Override
            public boolean isResolved(SocketAddress address) {
                return true;
            }

            @Override
            public Future<SocketAddress> resolve(SocketAddress address) {
                return executor.newSucceededFuture(address);
            }

            @Override
            public Future<List<SocketAddress>> resolveAll(SocketAddress address) {
                return executor.newSucceededFuture(List.of(address));
            }

            @Override
            public void close() {
                // Holds nothing.
            }
        };
    }
}
