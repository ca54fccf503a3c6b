package io.weir.channel.local;

import io.weir.channel.EventLoop;
import java.net.BindException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The JVM-wide state of the local transport: which server is bound to which name, and which local channels
 * live on which event loop. Local channels have no I/O handle for an I/O handler to close; their loop closes
 * those registered before it began to shut down, and the registry closes the rest (registered later, or never)
 * once the loop has terminated. Thread-safe.
 */
final class LocalChannelRegistry {
    private static final ConcurrentMap<LocalAddress, LocalServerChannel> BOUND = new ConcurrentHashMap<>();
    private static final ConcurrentMap<EventLoop, Set<LoopBound>> LIVE = new ConcurrentHashMap<>();

    private LocalChannelRegistry() {
    }

    /** What the registry closes when a loop terminates. */
    interface LoopBound {
        /** The loop has terminated: close without it (no events can fire on it any more). */
        void loopTerminated();
    }

    /**
     * Binds {@code server} to {@code address} ({@link LocalAddress#ANY}: a fresh name).
     *
     * @return the address bound
     * @throws BindException if another server is bound to the address
     */
    static LocalAddress bind(LocalServerChannel server, LocalAddress address) throws BindException {
        if (address == LocalAddress.ANY) {
            for (;;) {
                LocalAddress unique = LocalAddress.newUnique();
                if (BOUND.putIfAbsent(unique, server) == null) {
                    return unique;
                }
            }
        }
        LocalServerChannel existing = BOUND.putIfAbsent(address, server);
        if (existing != null) {
            throw new BindException("address already in use: " + address + " (bound by " + existing + ')');
        }
        return address;
    }

    static void unbind(LocalAddress address, LocalServerChannel server) {
        BOUND.remove(address, server);
    }

    static LocalServerChannel get(LocalAddress address) {
        return BOUND.get(address);
    }

    /** Remembers {@code channel} as living on {@code loop} until {@link #untrack}. */
    static void track(EventLoop loop, LoopBound channel) {
        Set<LoopBound> channels = LIVE.get(loop);
        if (channels == null) {
            Set<LoopBound> created = ConcurrentHashMap.newKeySet();
            channels = LIVE.putIfAbsent(loop, created);
            if (channels == null) {
                channels = created;
                loop.terminationFuture().addListener(f -> terminated(loop));
            }
        }
        channels.add(channel);
        if (loop.isTerminated()) {
            // Terminated between the lookup and the add: the listener may have run already.
            terminated(loop);
        }
    }

    static void untrack(EventLoop loop, LoopBound channel) {
        Set<LoopBound> channels = LIVE.get(loop);
        if (channels != null) {
            channels.remove(channel);
        }
    }

    private static void terminated(EventLoop loop) {
        Set<LoopBound> channels = LIVE.remove(loop);
        if (channels != null) {
            for (LoopBound channel : channels) {
                channel.loopTerminated();
            }
        }
    }
}
