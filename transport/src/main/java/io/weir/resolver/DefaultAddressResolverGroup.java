package io.weir.resolver;

import io.weir.util.concurrent.DefaultThreadFactory;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.Promise;
import io.weir.util.concurrent.ScheduledFuture;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The resolver {@link io.weir.bootstrap.Bootstrap} uses unless told otherwise: the JDK's name service
 * ({@link InetAddress#getAllByName}: {@code /etc/hosts}, then the system resolver), called on a small shared pool
 * of daemon threads so that no event loop ever waits for a name server. The answer is delivered on the asking
 * channel's event loop.
 *
 * <ul>
 * <li>At most {@value #MAX_LOOKUP_THREADS} lookups run at once and {@value #MAX_QUEUED_LOOKUPS} wait; beyond that a
 *     resolve fails at once ({@link UnknownHostException} naming the reason), so a flood of connects to slow names
 *     cannot queue without bound.</li>
 * <li>A lookup not answered within {@value #DEFAULT_TIMEOUT_MILLIS} ms fails the future (the JDK call itself
 *     cannot be interrupted; its thread is freed when the system resolver gives up).</li>
 * <li>Caching is the JDK's ({@code networkaddress.cache.ttl} and {@code networkaddress.cache.negative.ttl}).</li>
 * </ul>
 * Thread-safe.
 */
public final class DefaultAddressResolverGroup extends AddressResolverGroup<InetSocketAddress> {
    /** The shared group. */
    public static final DefaultAddressResolverGroup INSTANCE = new DefaultAddressResolverGroup();
    /** Longest wait for a lookup before its future fails. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 10_000;
    /** Lookups running at once. */
    public static final int MAX_LOOKUP_THREADS = 4;
    /** Lookups waiting for a thread. */
    public static final int MAX_QUEUED_LOOKUPS = 1024;

    /** A name lookup that may block: the JDK's by default, a stand-in in tests. */
    interface Lookup {
        InetAddress[] allByName(String host) throws UnknownHostException;
    }

    private static final ExecutorService LOOKUPS = new ThreadPoolExecutor(MAX_LOOKUP_THREADS, MAX_LOOKUP_THREADS,
            30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(MAX_QUEUED_LOOKUPS),
            new DefaultThreadFactory("weir-dns-lookup", true));

    static {
        ((ThreadPoolExecutor) LOOKUPS).allowCoreThreadTimeOut(true);
    }

    private final Lookup lookup;
    private final long timeoutMillis;

    private DefaultAddressResolverGroup() {
        this(InetAddress::getAllByName, DEFAULT_TIMEOUT_MILLIS);
    }

    /** A group with another lookup and timeout (tests). */
    DefaultAddressResolverGroup(Lookup lookup, long timeoutMillis) {
        this.lookup = lookup;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        return new Resolver(executor);
    }

    /** One executor's resolver: lookups on the shared pool, answers on the executor. */
    private final class Resolver implements AddressResolver<InetSocketAddress> {
        private final EventExecutor executor;

        Resolver(EventExecutor executor) {
            this.executor = executor;
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
            Promise<InetSocketAddress> promise = executor.newPromise();
            resolveAll(address).addListener(f -> {
                if (f.isSuccess()) {
                    @SuppressWarnings("unchecked")
                    List<InetSocketAddress> all = (List<InetSocketAddress>) f.getNow();
                    promise.trySuccess(all.get(0));
                } else {
                    promise.tryFailure(f.cause());
                }
            });
            return promise;
        }

        @Override
        public Future<List<InetSocketAddress>> resolveAll(SocketAddress address) {
            Promise<List<InetSocketAddress>> promise = executor.newPromise();
            if (!(address instanceof InetSocketAddress inet)) {
                promise.tryFailure(new IllegalArgumentException("not an InetSocketAddress: " + address));
                return promise;
            }
            if (!inet.isUnresolved()) {
                promise.trySuccess(List.of(inet));
                return promise;
            }
            String host = inet.getHostString();
            int port = inet.getPort();
            ScheduledFuture<?> timeout = executor.schedule(() -> promise.tryFailure(new UnknownHostException(
                    host + ": no answer from the name service within " + timeoutMillis + " ms")),
                    timeoutMillis, TimeUnit.MILLISECONDS);
            try {
                LOOKUPS.execute(() -> {
                    try {
                        InetAddress[] found = lookup.allByName(host);
                        List<InetSocketAddress> addresses = new ArrayList<>(found.length);
                        for (InetAddress a : found) {
                            addresses.add(new InetSocketAddress(a, port));
                        }
                        if (addresses.isEmpty()) {
                            throw new UnknownHostException(host + ": no address");
                        }
                        deliver(() -> {
                            timeout.cancel(false);
                            promise.trySuccess(List.copyOf(addresses));
                        });
                    } catch (UnknownHostException | SecurityException e) {
                        deliver(() -> {
                            timeout.cancel(false);
                            promise.tryFailure(e);
                        });
                    }
                });
            } catch (RejectedExecutionException full) {
                timeout.cancel(false);
                promise.tryFailure(new UnknownHostException(host + ": not looked up, " + MAX_QUEUED_LOOKUPS
                        + " lookups already wait for the name service"));
            }
            return promise;
        }

        /** Runs {@code answer} on the executor; one that has shut down has nobody left to tell. */
        private void deliver(Runnable answer) {
            try {
                executor.execute(answer);
            } catch (RejectedExecutionException shutDown) {
                // The channel that asked went away with its event loop.
            }
        }

        @Override
        public void close() {
            // Nothing of its own: the lookup pool is shared and its threads end when idle.
        }
    }
}
