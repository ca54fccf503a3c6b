package io.weir.util;

/**
 * An object that holds a resource (memory, a file descriptor, a pooled slot) and frees it explicitly when
 * its reference count drops to zero.
 *
 * <p>A new object starts with a count of 1, owned by whoever created it. {@link #retain()} adds an owner;
 * {@link #release()} removes one, and the call that removes the last owner frees the resource. Every owner
 * must release exactly once: releasing too often throws {@link IllegalReferenceCountException}, releasing too
 * rarely leaks (and is reported by {@link ResourceLeakDetector}). Once freed an object cannot be revived:
 * {@link #retain()} on it throws.
 *
 * <p>All methods may be called from any thread; implementations make the count atomic. Whether the object's
 * other methods are thread-safe is up to the implementation.
 */
public interface ReferenceCounted {
    /** The current reference count; {@code 0} means the object has been freed. May be stale when read. */
    int refCnt();

    /**
     * Adds one owner.
     *
     * @return this object
     * @throws IllegalReferenceCountException if the object was already freed, or the count would overflow
     */
    ReferenceCounted retain();

    /**
     * Adds {@code increment} owners.
     *
     * @return this object
     * @throws IllegalArgumentException if {@code increment} is not positive
     * @throws IllegalReferenceCountException if the object was already freed, or the count would overflow
     */
    ReferenceCounted retain(int increment);

    /**
     * Records the caller's location for leak reports (only when leak detection records accesses); does
     * nothing else.
     *
     * @return this object
     */
    ReferenceCounted touch();

    /**
     * Records the caller's location and {@code hint} for leak reports (only when leak detection records
     * accesses); a {@link ResourceLeakHint} contributes its {@link ResourceLeakHint#toHintString()}.
     *
     * @param hint extra information shown in a leak report; may be {@code null}
     * @return this object
     */
    ReferenceCounted touch(Object hint);

    /**
     * Removes one owner, freeing the resource if it was the last.
     *
     * @return {@code true} if this call freed the resource
     * @throws IllegalReferenceCountException if the object was already freed
     */
    boolean release();

    /**
     * Removes {@code decrement} owners, freeing the resource if they were the last.
     *
     * @return {@code true} if this call freed the resource
     * @throws IllegalArgumentException if {@code decrement} is not positive
     * @throws IllegalReferenceCountException if the object was already freed or holds fewer than
     *         {@code decrement} references; the count is then left as it was
     */
    boolean release(int decrement);
}
