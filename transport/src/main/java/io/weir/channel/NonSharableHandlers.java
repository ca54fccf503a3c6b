package io.weir.channel;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The non-{@linkplain ChannelHandler.Sharable sharable} handler instances currently in some pipeline, so a
 * second add of the same instance anywhere fails. Handlers are held weakly and by identity: a handler in a
 * channel that is dropped without being closed does not stay reachable from here. Thread-safe.
 */
final class NonSharableHandlers {
    private static final ConcurrentHashMap<IdentityKey, Boolean> IN_USE = new ConcurrentHashMap<>();
    private static final ReferenceQueue<ChannelHandler> COLLECTED = new ReferenceQueue<>();
    private static final ClassValue<Boolean> SHARABLE = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return type.isAnnotationPresent(ChannelHandler.Sharable.class);
        }
    };

    private NonSharableHandlers() {
    }

    static boolean isSharable(ChannelHandler handler) {
        return SHARABLE.get(handler.getClass());
    }

    /**
     * Records that {@code handler} is being added to a pipeline.
     *
     * @throws ChannelPipelineException if it is not sharable and already in a pipeline
     */
    static void claim(ChannelHandler handler) {
        if (isSharable(handler)) {
            return;
        }
        expungeCollected();
        if (IN_USE.putIfAbsent(new IdentityKey(handler, COLLECTED), Boolean.TRUE) != null) {
            throw new ChannelPipelineException(handler.getClass().getName()
                    + " is not a @Sharable handler, so it cannot be added to a pipeline while it is in one");
        }
    }

    /** Records that {@code handler} left its pipeline. */
    static void release(ChannelHandler handler) {
        if (!isSharable(handler)) {
            IN_USE.remove(new IdentityKey(handler, null));
        }
    }

    private static void expungeCollected() {
        Object ref;
        while ((ref = COLLECTED.poll()) != null) {
            IN_USE.remove(ref);
        }
    }

    private static final class IdentityKey extends WeakReference<ChannelHandler> {
        private final int hash;

        IdentityKey(ChannelHandler handler, ReferenceQueue<ChannelHandler> queue) {
            super(handler, queue);
            hash = System.identityHashCode(handler);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof IdentityKey other) || other.hash != hash) {
                return false;
            }
            ChannelHandler mine = get();
            return mine != null && mine == other.get();
        }
    }
}
