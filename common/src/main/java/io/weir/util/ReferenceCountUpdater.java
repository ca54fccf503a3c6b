package io.weir.util;

import io.weir.util.platform.PlatformInfo;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.jctools.util.UnsafeAccess;

/**
 * The reference-counting algorithm for a {@code volatile int} field of a {@link ReferenceCounted} class, so
 * that each counted object carries four bytes and no extra object.
 *
 * <p>Make one {@code static final} subclass instance per counted class, handing it the class, the field's
 * name and the field's updater (which only the counted class itself may create):
 * <pre>{@code
 * private static final ReferenceCountUpdater<MyBuf> UPDATER = new ReferenceCountUpdater<>(MyBuf.class,
 *         "refCnt", AtomicIntegerFieldUpdater.newUpdater(MyBuf.class, "refCnt")) { };
 * private volatile int refCnt = UPDATER.initialValue();
 * }</pre>
 * The class is abstract so that each counted class owns its own instance; subclasses add nothing. When
 * {@link PlatformInfo#hasUnsafe()} every access (reads, stores and atomic updates alike) reaches the field through
 * Unsafe at the offset computed here, so no path pays the updater's per-call class check; otherwise, and for
 * fields Unsafe cannot locate, through the updater.
 *
 * <h2>Encoding</h2>
 * <pre>
 * raw field:  even, &gt;= 2  live, refCnt = raw / 2   (a new object holds 2)
 *             odd          freed, refCnt = 0         (the final release stores 1)
 * </pre>
 * Every retain and non-final release adds an even number, so it never changes the parity: once the final
 * release has made the field odd, it stays odd whatever misuse follows, and a second deallocation is
 * impossible.
 *
 * <ul>
 * <li>{@code retain} is one {@code getAndAdd}. If the old value was odd (freed), not positive, or the add
 *     overflowed, it adds the opposite amount back and throws. Between the two adds the field holds a wrong
 *     count, but only in states that no correct program can observe: a correct retainer holds a reference,
 *     so the object cannot be freed or at its count limit under it.</li>
 * <li>{@code release} of what looks like the last reference is a compare-and-set of exactly that value to
 *     {@code 1}; of two racing final releases only one CAS can succeed, so exactly one caller deallocates.</li>
 * <li>{@code release} of what looks like a non-final reference is one {@code getAndAdd}. If the old value
 *     shows it was in fact final (a concurrent release got there first), or invalid, the add is undone and
 *     the release retried through the compare-and-set loop, which decides exactly.</li>
 * </ul>
 *
 * <p>All methods are thread-safe.
 *
 * @param <T> the counted class
 */
public abstract class ReferenceCountUpdater<T extends ReferenceCounted> {
    /** The largest reference count: the raw field must stay a positive {@code int}. */
    public static final int MAX_REF_CNT = Integer.MAX_VALUE >>> 1;

    private static final int RAW_INITIAL = 2;
    private static final int RAW_FREED = 1;

    private final AtomicIntegerFieldUpdater<T> updater;
    // -1 when Unsafe is off: then every access goes through the updater.
    private final long offset;

    /**
     * @param type the counted class that declares the field
     * @param fieldName the name of its {@code volatile int} reference-count field
     * @param updater that field's updater, created by {@code type} itself
     * @throws NullPointerException if an argument is {@code null}
     * @throws IllegalArgumentException if {@code type} declares no {@code volatile int} field {@code fieldName}
     */
    protected ReferenceCountUpdater(Class<T> type, String fieldName, AtomicIntegerFieldUpdater<T> updater) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(fieldName, "fieldName");
        this.updater = Objects.requireNonNull(updater, "updater");
        Field field;
        try {
            field = type.getDeclaredField(fieldName);
        } catch (NoSuchFieldException e) {
            throw new IllegalArgumentException(type.getName() + " declares no field " + fieldName, e);
        }
        if (field.getType() != int.class || !Modifier.isVolatile(field.getModifiers())
                || Modifier.isStatic(field.getModifiers())) {
            throw new IllegalArgumentException(type.getName() + "." + fieldName + " is not a volatile int instance field");
        }
        this.offset = unsafeOffsetOf(field);
    }

    private static long unsafeOffsetOf(Field field) {
        if (!PlatformInfo.hasUnsafe()) {
            return -1;
        }
        try {
            // Only computes a field offset; it refuses fields of records and hidden classes (then: the updater).
            return UnsafeAccess.UNSAFE.objectFieldOffset(field);
        } catch (Throwable t) {
            return -1;
        }
    }

    /** The raw value a new object's field starts with (a count of 1). */
    public final int initialValue() {
        return RAW_INITIAL;
    }

    /** The reference count of {@code instance}; {@code 0} once freed. */
    public final int refCnt(T instance) {
        int raw = volatileRaw(instance);
        return (raw & 1) != 0 || raw <= 0 ? 0 : raw >>> 1;
    }

    /**
     * Whether {@code instance} looks live, by a plain read: for best-effort checks where a stale answer is
     * harmless (the accessibility check before a buffer access, which races with a release anyway).
     */
    public final boolean isLive(T instance) {
        return (plainRaw(instance) & 1) == 0;
    }

    /**
     * Sets the count of {@code instance} outright, {@code refCnt <= 0} meaning freed. Only for an object no
     * other thread can see, such as a pooled object being handed out again.
     *
     * @throws IllegalArgumentException if {@code refCnt} exceeds {@link #MAX_REF_CNT}
     */
    public final void setRefCnt(T instance, int refCnt) {
        if (refCnt > MAX_REF_CNT) {
            throw new IllegalArgumentException("refCnt: " + refCnt + " (expected: <= " + MAX_REF_CNT + ")");
        }
        int raw = refCnt > 0 ? refCnt << 1 : RAW_FREED;
        if (offset >= 0) {
            // Volatile store to the field whose offset the constructor computed from the declaring class.
            UnsafeAccess.UNSAFE.putIntVolatile(instance, offset, raw);
        } else {
            updater.set(instance, raw);
        }
    }

    /**
     * Resets {@code instance} to a count of 1, under the same conditions as {@link #setRefCnt}: for an object
     * being reused by the thread that holds it exclusively (a pooled object taken from its pool). The store is
     * ordered but not fenced; whatever later hands the object to another thread publishes it.
     */
    public final void resetRefCnt(T instance) {
        if (offset >= 0) {
            // Ordered store to the field whose offset the constructor computed from the declaring class.
            UnsafeAccess.UNSAFE.putOrderedInt(instance, offset, RAW_INITIAL);
        } else {
            updater.lazySet(instance, RAW_INITIAL);
        }
    }

    /**
     * Adds one reference to {@code instance}.
     *
     * @return {@code instance}
     * @throws IllegalReferenceCountException if it was freed or is at {@link #MAX_REF_CNT}
     */
    public final T retain(T instance) {
        return retain0(instance, 1);
    }

    /**
     * Adds {@code increment} references to {@code instance}.
     *
     * @return {@code instance}
     * @throws IllegalArgumentException if {@code increment} is not positive
     * @throws IllegalReferenceCountException if it was freed or the count would exceed {@link #MAX_REF_CNT}
     */
    public final T retain(T instance, int increment) {
        if (increment <= 0) {
            throw new IllegalArgumentException("increment: " + increment + " (expected: > 0)");
        }
        if (increment > MAX_REF_CNT) {
            // The raw increment itself would overflow: no live count can take it.
            throw new IllegalReferenceCountException(refCnt(instance), increment);
        }
        return retain0(instance, increment);
    }

    private T retain0(T instance, int increment) {
        int rawIncrement = increment << 1;
        int old = getAndAdd(instance, rawIncrement);
        // old + rawIncrement < 0 catches overflow: both are positive and their sum fits in 32 unsigned bits.
        if ((old & 1) != 0 || old <= 0 || old + rawIncrement < 0) {
            getAndAdd(instance, -rawIncrement);
            throw new IllegalReferenceCountException((old & 1) != 0 || old <= 0 ? 0 : old >>> 1, increment);
        }
        return instance;
    }

    /**
     * Removes one reference from {@code instance}.
     *
     * @return {@code true} if that was the last one: the caller must now deallocate {@code instance}
     * @throws IllegalReferenceCountException if it was already freed
     */
    public final boolean release(T instance) {
        return release0(instance, 1);
    }

    /**
     * Removes {@code decrement} references from {@code instance}.
     *
     * @return {@code true} if they were the last: the caller must now deallocate {@code instance}
     * @throws IllegalArgumentException if {@code decrement} is not positive
     * @throws IllegalReferenceCountException if it was freed or holds fewer references (the count is then
     *         left unchanged)
     */
    public final boolean release(T instance, int decrement) {
        if (decrement <= 0) {
            throw new IllegalArgumentException("decrement: " + decrement + " (expected: > 0)");
        }
        if (decrement > MAX_REF_CNT) {
            throw new IllegalReferenceCountException(refCnt(instance), -decrement);
        }
        return release0(instance, decrement);
    }

    private boolean release0(T instance, int decrement) {
        int rawDecrement = decrement << 1;
        // A plain read only picks the path; the atomic operation that follows checks the real value, so a
        // stale read costs at most one retry.
        int raw = plainRaw(instance);
        if (raw == rawDecrement) {
            if (cas(instance, raw, RAW_FREED)) {
                return true;
            }
        } else if (raw > rawDecrement && (raw & 1) == 0) {
            int old = getAndAdd(instance, -rawDecrement);
            if (old > rawDecrement && (old & 1) == 0) {
                return false;
            }
            // Final after all, or invalid: undo and let the exact loop decide (it also throws if invalid).
            getAndAdd(instance, rawDecrement);
        }
        return releaseExactly(instance, decrement, rawDecrement);
    }

    private boolean releaseExactly(T instance, int decrement, int rawDecrement) {
        for (;;) {
            int raw = volatileRaw(instance);
            if ((raw & 1) != 0 || raw < rawDecrement) {
                throw new IllegalReferenceCountException((raw & 1) != 0 || raw <= 0 ? 0 : raw >>> 1, -decrement);
            }
            int next = raw == rawDecrement ? RAW_FREED : raw - rawDecrement;
            if (cas(instance, raw, next)) {
                return next == RAW_FREED;
            }
        }
    }

    private int plainRaw(T instance) {
        if (offset >= 0) {
            // A plain load of an int field of a live object at its own offset; the value is only a hint.
            return UnsafeAccess.UNSAFE.getInt(instance, offset);
        }
        return updater.get(instance);
    }

    private int volatileRaw(T instance) {
        if (offset >= 0) {
            // Volatile load of the field whose offset the constructor computed from the declaring class: the
            // updater's get would check the instance's class first, on every call.
            return UnsafeAccess.UNSAFE.getIntVolatile(instance, offset);
        }
        return updater.get(instance);
    }

    private int getAndAdd(T instance, int delta) {
        if (offset >= 0) {
            // Atomic add on the volatile int field whose offset the constructor computed from the declaring class.
            return UnsafeAccess.UNSAFE.getAndAddInt(instance, offset, delta);
        }
        return updater.getAndAdd(instance, delta);
    }

    private boolean cas(T instance, int expected, int next) {
        if (offset >= 0) {
            // CAS on the volatile int field whose offset the constructor computed from the declaring class.
            return UnsafeAccess.UNSAFE.compareAndSwapInt(instance, offset, expected, next);
        }
        return updater.compareAndSet(instance, expected, next);
    }
}
