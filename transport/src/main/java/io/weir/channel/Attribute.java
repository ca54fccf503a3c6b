package io.weir.channel;

/**
 * A value slot in an {@link AttributeMap}, keyed by an {@link AttributeKey}. All methods are atomic and
 * thread-safe.
 *
 * @param <T> the type of the value
 */
public interface Attribute<T> {

    /** The key of this attribute. */
    AttributeKey<T> key();

    /** The current value, or {@code null}. */
    T get();

    /** Sets the value; {@code null} clears it (the slot stays in the map; see {@link #getAndRemove()}). */
    void set(T value);

    /** Sets the value and returns the previous one. */
    T getAndSet(T value);

    /** Sets the value if none is set; returns the value that was there ({@code null} if this call set it). */
    T setIfAbsent(T value);

    /** Sets the value to {@code newValue} if it is {@code oldValue} (compared by identity). */
    boolean compareAndSet(T oldValue, T newValue);

    /**
     * Clears the value, takes the attribute out of its map and returns the value it had. A later
     * {@link AttributeMap#attr} with the same key creates a fresh attribute; this one must not be used again.
     */
    T getAndRemove();

    /** {@link #getAndRemove()} without the result. */
    void remove();
}
