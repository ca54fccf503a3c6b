package io.weir.channel;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a pipeline needs to know of a handler class, worked out once per class and found with one lookup each
 * time a handler is added: its event mask ({@link ChannelHandlerMask}), whether it is
 * {@linkplain ChannelHandler.Sharable sharable}, the names generated for its instances, and a number by which
 * {@link NonSharableHandlers} finds the class's last added instance. An HTTP/2 stream's channel adds a handler
 * per request; each of these used to be a lookup of its own.
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

    /** Numbers the classes not sharable from 0, for {@link NonSharableHandlers}' per-thread slots. */
    private static final AtomicInteger NEXT_ID = new AtomicInteger();

    /** The events the class handles ({@link ChannelHandlerMask}). */
    final int mask;
    final boolean sharable;
    /** The first {@link #CACHED_NAMES} generated names of the class's instances. */
    private final String[] names;
    /** This class's slot in {@link NonSharableHandlers}' per-thread arrays; -1 for a sharable class. */
    final int id;

    private HandlerType(Class<?> type) {
        mask = ChannelHandlerMask.compute(type);
        sharable = type.isAnnotationPresent(ChannelHandler.Sharable.class);
        String simple = type.getSimpleName();
        String base = (simple.isEmpty() ? type.getName() : simple) + '#';
        names = new String[CACHED_NAMES];
        for (int i = 0; i < CACHED_NAMES; i++) {
            names[i] = base + i;
        }
        id = sharable ? -1 : NEXT_ID.getAndIncrement();
    }

    static HandlerType of(Class<?> type) {
        return TYPES.get(type);
    }

    /** The {@code i}th generated name of the class's instances. */
    String name(int i) {
        return i < CACHED_NAMES ? names[i] : names[0].substring(0, names[0].length() - 1) + i;
    }
}
