package io.weir.channel;

/**
 * Holds {@link Attribute}s: per-channel state that handlers and applications share without subclassing the
 * channel. Thread-safe.
 */
public interface AttributeMap {

    /**
     * The attribute for {@code key}, created empty on first use. The same attribute object is returned until
     * it is {@linkplain Attribute#remove() removed}.
     *
     * @throws NullPointerException if {@code key} is null
     */
    <T> Attribute<T> attr(AttributeKey<T> key);

    /** Whether an attribute for {@code key} exists (its value may still be {@code null}). */
    <T> boolean hasAttr(AttributeKey<T> key);
}
