package io.weir.resolver.dns;

import io.weir.channel.EventLoop;
import io.weir.resolver.AddressResolver;
import io.weir.resolver.AddressResolverGroup;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One {@link DnsNameResolver} per event loop, for {@code Bootstrap.resolver(..)}:
 *
 * <pre>{@code
 * DnsAddressResolverGroup dns = new DnsAddressResolverGroup(new DnsNameResolverBuilder()
 *         .queryTimeoutMillis(2_000));
 * new Bootstrap().group(group).channel(NioSocketChannel.class).resolver(dns)...connect("example.com", 443);
 * }</pre>
 *
 * Each loop's resolver has its own cache. The constructor reads {@code /etc/resolv.conf} and {@code /etc/hosts}
 * for what the builder does not set (so that no event loop ever reads a file): make the group off the loops.
 * Close it (or shut the loops down) to close its resolvers. Thread-safe.
 */
public final class DnsAddressResolverGroup extends AddressResolverGroup<InetSocketAddress> {
    private final DnsNameResolverBuilder template;

    /**
     * A group whose resolvers are built like {@code builder} (copied now; its event loop is ignored).
     *
     * @throws NullPointerException if {@code builder} is null
     */
    public DnsAddressResolverGroup(DnsNameResolverBuilder builder) {
        this.template = Objects.requireNonNull(builder, "builder").copy().loadSystemDefaults();
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if {@code executor} is not an {@link EventLoop}
     */
    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        if (!(executor instanceof EventLoop loop)) {
            throw new IllegalArgumentException("not an EventLoop: " + executor);
        }
        return new Adapter(template.copy().eventLoop(loop).build());
    }

    /** A {@link DnsNameResolver} as an {@link AddressResolver} of socket addresses. */
    private static final class Adapter implements AddressResolver<InetSocketAddress> {
        private final DnsNameResolver resolver;

        Adapter(DnsNameResolver resolver) {
            this.resolver = resolver;
        }

        @Override
        public boolean isSupported(SocketAddress address) {
            return address instanceof InetSocketAddress;
        }

        @Override
        public boolean isResolved(SocketAddress address) {
            return !(address instanceof InetSocketAddress inet) || !inet.isUnresolved();
        }

        @Override
        public Future<InetSocketAddress> resolve(SocketAddress address) {
            if (!(address instanceof InetSocketAddress inet)) {
                return resolver.eventLoop().newFailedFuture(new IllegalArgumentException(
                        "not an InetSocketAddress: " + address));
            }
            if (!inet.isUnresolved()) {
                return resolver.eventLoop().newSucceededFuture(inet);
            }
            Promise<InetSocketAddress> promise = resolver.eventLoop().newPromise();
            Future<InetAddress> found = resolver.resolve(inet.getHostString());
            found.addListener(f -> {
                if (f.isSuccess()) {
                    promise.trySuccess(new InetSocketAddress(found.getNow(), inet.getPort()));
                } else {
                    promise.tryFailure(f.cause());
                }
            });
            return promise;
        }

        @Override
        public Future<List<InetSocketAddress>> resolveAll(SocketAddress address) {
            Promise<List<InetSocketAddress>> promise = resolver.eventLoop().newPromise();
            if (!(address instanceof InetSocketAddress inet)) {
                return promise.setFailure(new IllegalArgumentException("not an InetSocketAddress: " + address));
            }
            if (!inet.isUnresolved()) {
                return promise.setSuccess(List.of(inet));
            }
            int port = inet.getPort();
            resolver.resolveAll(inet.getHostString()).addListener(f -> {
                if (f.isSuccess()) {
                    @SuppressWarnings("unchecked")
                    List<InetAddress> found = (List<InetAddress>) f.getNow();
                    List<InetSocketAddress> all = new ArrayList<>(found.size());
                    for (InetAddress a : found) {
                        all.add(new InetSocketAddress(a, port));
                    }
                    promise.trySuccess(List.copyOf(all));
                } else {
                    promise.tryFailure(f.cause());
                }
            });
            return promise;
        }

        @Override
        public void close() {
            resolver.close();
        }
    }
}
