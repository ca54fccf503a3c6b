package io.weir.util;

/**
 * Thrown when a {@link ReferenceCounted} object is retained after it was freed, released more often than it
 * was retained, or retained past the largest count it can hold. Always a bug in the caller: an owner
 * released twice, or a non-owner used the object.
 */
public class IllegalReferenceCountException extends IllegalStateException {
    private static final long serialVersionUID = -2507492394288153468L;

    private final int refCnt;
    private final int delta;

    /**
     * @param refCnt the reference count seen when the change was refused ({@code 0} if freed)
     * @param delta the change tried: positive for a retain, negative for a release
     */
    public IllegalReferenceCountException(int refCnt, int delta) {
        super(message(refCnt, delta));
        this.refCnt = refCnt;
        this.delta = delta;
    }

    /** With a message of the caller's own; {@link #refCnt()} and {@link #delta()} are then {@code 0}. */
    public IllegalReferenceCountException(String message) {
        super(message);
        this.refCnt = 0;
        this.delta = 0;
    }

    /** The reference count seen when the change was refused; {@code 0} means the object was already freed. */
    public int refCnt() {
        return refCnt;
    }

    /** The change that was refused: {@code +n} for {@code retain(n)}, {@code -n} for {@code release(n)}. */
    public int delta() {
        return delta;
    }

    private static String message(int refCnt, int delta) {
        if (delta > 0) {
            return refCnt == 0
                    ? "retain(" + delta + ") of an object already freed (refCnt: 0)"
                    : "retain(" + delta + ") would overflow refCnt " + refCnt;
        }
        if (delta < 0) {
            return refCnt == 0
                    ? "release(" + -(long) delta + ") of an object already freed (refCnt: 0)"
                    : "release(" + -(long) delta + ") of an object holding only refCnt " + refCnt;
        }
        return "illegal reference count " + refCnt;
    }
}
