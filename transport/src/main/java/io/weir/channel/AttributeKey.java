package io.weir.channel;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The typed name of an {@link Attribute} kept in an {@link AttributeMap}. Keys are interned by name: every
 * call to {@link #valueOf(String)} with the same name returns the same key, so libraries can agree on a key
 * without sharing a constant. Keys compare by identity. Thread-safe.
 *
 * @param <T> the type of the attribute's value
 */
public final class AttributeKey<T> implements Comparable<AttributeKey<?>> {
    private static final ConcurrentMap<String, AttributeKey<?>> KEYS = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT_ID = new AtomicInteger();

    private final String name;
    private final int id;

    private AttributeKey(String name) {
        this.name = name;
        this.id = NEXT_ID.getAndIncrement();
    }

    /**
     * The key named {@code name}, created on first use.
     *
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is empty
     */
    @SuppressWarnings("unchecked")
    public static <T> AttributeKey<T> valueOf(String name) {
        checkName(name);
        AttributeKey<?> key = KEYS.get(name);
        if (key == null) {
            AttributeKey<?> created = new AttributeKey<>(name);
            key = KEYS.putIfAbsent(name, created);
            if (key == null) {
                key = created;
            }
        }
        return (AttributeKey<T>) key;
    }

    /**
     * A new key named {@code name}; for code that wants to be sure nobody else already uses the name.
     *
     * @throws IllegalArgumentException if a key with this name exists, or {@code name} is empty
     */
    public static <T> AttributeKey<T> newInstance(String name) {
        checkName(name);
        AttributeKey<T> created = new AttributeKey<>(name);
        if (KEYS.putIfAbsent(name, created) != null) {
            throw new IllegalArgumentException("attribute key '" + name + "' is already in use");
        }
        return created;
    }

    /** Whether a key named {@code name} exists. */
    public static boolean exists(String name) {
        checkName(name);
        return KEYS.containsKey(name);
    }

    private static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("name is empty");
        }
    }

    /** The key's name. */
    public String name() {
        return name;
    }

    /** A process-unique number, in creation order. */
    public int id() {
        return id;
    }

    @Override
    public int compareTo(AttributeKey<?> o) {
        return Integer.compare(id, o.id);
    }

    @Override
    public String toString() {
        return name;
    }
}
