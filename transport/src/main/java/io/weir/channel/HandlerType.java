package io.weir.channel;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a pipeline needs to know of a handler class, worked out once per class and found with one lookup each
 * time a handler is added: its event mask ({@link ChannelHandlerMask}), whether it is
 * {@linkplain ChannelHandler.Sharable sharable}, the names generated for its instances, and, for a class that is
 * not sharable, the context of its last added instance ({@link NonSharableHandlers}). An HTTP/2 stream's channel
 * adds a handler per request; each of these used to be a lookup of its own.
 */
final class HandlerType {
    /** Generated names shared by every pipeline: "SimpleName#0" to "#3" per handler class. */
    static final int CACHED_NAMES = 4;

    private static final ClassValue<HandlerType> TYPES = new ClassValue<>() {
        @Override
        protected HandlerType computeValue(Class<?> type) {
            return new HandlerType(type);
        }
    };

    /** The events the class handles ({@link ChannelHandlerMask}). */
    final int mask;
    final boolean sharable;
    /** The first {@link #CACHED_NAMES} generated names of the class's instances. */
    private final String[] names;
    /** The context of the last added instance, for a class that is not sharable; null for a sharable one. */
    final AtomicReference<WeakReference<DefaultChannelHandlerContext>> lastAdded;

    private HandlerType(Class<?> type) {
        mask = ChannelHandlerMask.compute(type);
        sharable = type.isAnnotationPresent(ChannelHandler.Sharable.class);
        String simple = type.getSimpleName();
        String base = (simple.isEmpty() ? type.getName() : simple) + '#';
        names = new String[CACHED_NAMES];
        for (int i = 0; i < CACHED_NAMES; i++) {
            names[i] = base + i;
        }
        lastAdded = sharable ? null : new AtomicReference<>();
    }

    static HandlerType of(Class<?> type) {
        return TYPES.get(type);
    }

    /** The {@code i}th generated name of the class's instances. */
    String name(int i) {
        return i < CACHED_NAMES ? names[i] : names[0].substring(0, names[0].length() - 1) + i;
    }
}
