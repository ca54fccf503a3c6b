package io.weir.util;

/**
 * An object that describes itself for leak reports more usefully than its {@code toString()}: passed to
 * {@link ReferenceCounted#touch(Object)} or {@link ResourceLeakTracker#record(Object)}, its
 * {@link #toHintString()} is stored in the access record. A channel handler context, for example, names its
 * handler.
 */
@FunctionalInterface
public interface ResourceLeakHint {
    /**
     * A short description, called once on the thread that records the access (and only when access records
     * are kept), so it should be cheap and must not retain the tracked object.
     */
    String toHintString();
}
