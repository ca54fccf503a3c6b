package io.weir.util;

import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;

/**
 * Reference-counting operations on objects that may or may not be {@link ReferenceCounted}, such as the
 * messages flowing through a pipeline: on a counted object they act, on anything else they do nothing.
 * Thread-safe to the same degree as the objects' own methods.
 */
public final class ReferenceCountUtil {
    private static final LoopLogger LOGGER = LoopLogger.of(ReferenceCountUtil.class);

    private ReferenceCountUtil() {
    }

    /**
     * Retains {@code msg} if it is reference counted.
     *
     * @return {@code msg}
     * @throws IllegalReferenceCountException if it was already freed
     */
    @SuppressWarnings("unchecked")
    public static <T> T retain(T msg) {
        if (msg instanceof ReferenceCounted counted) {
            return (T) counted.retain();
        }
        return msg;
    }

    /**
     * Retains {@code msg} {@code increment} times if it is reference counted.
     *
     * @return {@code msg}
     * @throws IllegalArgumentException if {@code increment} is not positive
     * @throws IllegalReferenceCountException if it was already freed or the count would overflow
     */
    @SuppressWarnings("unchecked")
    public static <T> T retain(T msg, int increment) {
        if (increment <= 0) {
            throw new IllegalArgumentException("increment: " + increment + " (expected: > 0)");
        }
        if (msg instanceof ReferenceCounted counted) {
            return (T) counted.retain(increment);
        }
        return msg;
    }

    /**
     * Records an access to {@code msg} for leak reports if it is reference counted.
     *
     * @return {@code msg}
     */
    @SuppressWarnings("unchecked")
    public static <T> T touch(T msg) {
        if (msg instanceof ReferenceCounted counted) {
            return (T) counted.touch();
        }
        return msg;
    }

    /**
     * Records an access to {@code msg}, with {@code hint}, for leak reports if it is reference counted.
     *
     * @return {@code msg}
     */
    @SuppressWarnings("unchecked")
    public static <T> T touch(T msg, Object hint) {
        if (msg instanceof ReferenceCounted counted) {
            return (T) counted.touch(hint);
        }
        return msg;
    }

    /**
     * Releases {@code msg} if it is reference counted.
     *
     * @return {@code true} if this call freed it; {@code false} if it still has owners or is not counted
     * @throws IllegalReferenceCountException if it was already freed
     */
    public static boolean release(Object msg) {
        return msg instanceof ReferenceCounted counted && counted.release();
    }

    /**
     * Releases {@code msg} {@code decrement} times if it is reference counted.
     *
     * @return {@code true} if this call freed it
     * @throws IllegalArgumentException if {@code decrement} is not positive
     * @throws IllegalReferenceCountException if it was already freed or holds fewer references
     */
    public static boolean release(Object msg, int decrement) {
        if (decrement <= 0) {
            throw new IllegalArgumentException("decrement: " + decrement + " (expected: > 0)");
        }
        return msg instanceof ReferenceCounted counted && counted.release(decrement);
    }

    /**
     * Releases {@code msg} if it is reference counted, logging a warning instead of throwing when that
     * fails: for clean-up paths that must go on (closing a channel with messages still queued).
     *
     * @return {@code true} if this call freed it
     */
    public static boolean safeRelease(Object msg) {
        if (!(msg instanceof ReferenceCounted counted)) {
            return false;
        }
        try {
            return counted.release();
        } catch (Throwable e) {
            LOGGER.log(Level.WARNING, "failed to release a message: ", typeName(msg), e);
            return false;
        }
    }

    /**
     * Releases {@code msg} {@code decrement} times if it is reference counted, logging a warning instead of
     * throwing when that fails.
     *
     * @return {@code true} if this call freed it
     * @throws IllegalArgumentException if {@code decrement} is not positive (a bug in the caller, not in
     *         the message)
     */
    public static boolean safeRelease(Object msg, int decrement) {
        if (decrement <= 0) {
            throw new IllegalArgumentException("decrement: " + decrement + " (expected: > 0)");
        }
        if (!(msg instanceof ReferenceCounted counted)) {
            return false;
        }
        try {
            return counted.release(decrement);
        } catch (Throwable e) {
            LOGGER.log(Level.WARNING, "failed to release a message: ", typeName(msg), e);
            return false;
        }
    }

    /** The reference count of {@code msg}, or {@code -1} if it is not reference counted. */
    public static int refCnt(Object msg) {
        return msg instanceof ReferenceCounted counted ? counted.refCnt() : -1;
    }

    // The type only: toString() of a freed object may touch freed memory.
    private static String typeName(Object msg) {
        return msg.getClass().getName();
    }
}
