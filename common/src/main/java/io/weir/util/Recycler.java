package io.weir.util;

import io.weir.util.concurrent.FastThreadLocal;
import io.weir.util.concurrent.FastThreadLocalThread;
import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.Queues;
import io.weir.util.platform.SystemProperties;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.Queue;

/**
 * A per-thread pool of objects that are expensive to allocate or that allocation-heavy paths reuse, such as
 * buffer wrappers and write-queue entries.
 *
 * <p>{@link #get()} returns a pooled object of the calling thread, or a new one from {@link #newObject}.
 * When the user is done it calls the object's {@link Handle#recycle(Object)}: on the thread that got it the
 * object goes straight back to that thread's pool (an array stack, no atomic instruction); on another thread
 * it is handed back to the owning thread through a bounded multi-producer queue, which the owner drains when
 * its stack runs empty. Every bound drops objects rather than growing: the stack holds at most
 * {@code maxCapacityPerThread} objects and the hand-back queue about as many (at least the minimum of
 * {@link Queues#newMpscQueue(int)}), so a thread that only allocates while another only recycles uses bounded
 * memory.
 *
 * <p>Only one new object in {@code ratio} gets a pooled handle; the others are recycled into nothing. This
 * keeps a burst of allocations from filling the pool with objects the steady state never needs.
 *
 * <h2>Which threads pool</h2>
 * {@link FastThreadLocalThread}s (event loops) and other platform threads pool: a platform thread's pool
 * lives in its thread-local map and dies with it. Virtual threads never pool: they are many and short-lived,
 * so pools would mostly be filled and thrown away, and each would pin memory for a while; they get fresh
 * objects whose recycling does nothing but check for misuse. Setting {@value #FAST_THREADS_ONLY_PROPERTY}
 * to {@code true} restricts pooling to FastThreadLocalThreads, for applications whose own thread pools should
 * not hold Weir objects.
 *
 * <h2>Misuse</h2>
 * Recycling a handle twice throws {@link IllegalStateException} (on the owning thread, only when the two
 * recycles do not race each other; from other threads always); recycling an object through the handle of
 * another object, of this recycler or another, throws {@link IllegalArgumentException}. Objects recycled to a
 * thread that has died, or whose pool was removed, are dropped.
 *
 * <p>Create a recycler once per pooled type and keep it in a {@code static final} field: each instance
 * permanently takes one {@link FastThreadLocal} slot. {@link #get()} may be called from any thread.
 *
 * @param <T> the type of the pooled objects
 */
public abstract class Recycler<T> {
    /** {@code io.weir.recycler.maxCapacityPerThread}: objects kept per thread and recycler; 0 disables pooling. */
    public static final String MAX_CAPACITY_PER_THREAD_PROPERTY = "io.weir.recycler.maxCapacityPerThread";
    /** 4096 objects per thread and recycler by default. */
    public static final int DEFAULT_MAX_CAPACITY_PER_THREAD = 4096;
    /** {@code io.weir.recycler.ratio}: one new object in this many is pooled. */
    public static final String RATIO_PROPERTY = "io.weir.recycler.ratio";
    /** One new object in 8 is pooled by default. */
    public static final int DEFAULT_RATIO = 8;
    /** {@code io.weir.recycler.fastThreadLocalThreadsOnly}: pool only on FastThreadLocalThreads. Default false. */
    public static final String FAST_THREADS_ONLY_PROPERTY = "io.weir.recycler.fastThreadLocalThreadsOnly";

    private static final LoopLogger LOGGER = LoopLogger.of(Recycler.class);
    private static final int PROPERTY_MAX_CAPACITY_PER_THREAD = nonNegative(
            SystemProperties.getInt(MAX_CAPACITY_PER_THREAD_PROPERTY, DEFAULT_MAX_CAPACITY_PER_THREAD),
            MAX_CAPACITY_PER_THREAD_PROPERTY, DEFAULT_MAX_CAPACITY_PER_THREAD);
    private static final int PROPERTY_RATIO = Math.max(1, SystemProperties.getInt(RATIO_PROPERTY, DEFAULT_RATIO));
    private static final boolean FAST_THREADS_ONLY = SystemProperties.getBoolean(FAST_THREADS_ONLY_PROPERTY, false);
    private static final int INITIAL_STACK_CAPACITY = 16;
    /** Thread.isVirtual() on JDK 21+, or null on JDK 17-20 where every thread is a platform thread. */
    private static final MethodHandle IS_VIRTUAL = findIsVirtual();

    private final int maxCapacityPerThread;
    private final int ratio;
    private final FastThreadLocal<LocalPool<T>> pools = new FastThreadLocal<>() {
        @Override
        protected LocalPool<T> initialValue() {
            return new LocalPool<>(Thread.currentThread(), maxCapacityPerThread, ratio);
        }

        @Override
        protected void onRemoval(LocalPool<T> pool) {
            pool.retire();
        }
    };

    /** A recycler with the capacity and ratio of the system properties. */
    protected Recycler() {
        this(PROPERTY_MAX_CAPACITY_PER_THREAD, PROPERTY_RATIO);
    }

    /**
     * A recycler keeping at most {@code maxCapacityPerThread} objects per thread, with the ratio of the
     * system property.
     *
     * @throws IllegalArgumentException if {@code maxCapacityPerThread} is negative
     */
    protected Recycler(int maxCapacityPerThread) {
        this(maxCapacityPerThread, PROPERTY_RATIO);
    }

    /**
     * A recycler keeping at most {@code maxCapacityPerThread} objects per thread (0: no pooling) and pooling
     * one new object in {@code ratio} (1: all).
     *
     * @throws IllegalArgumentException if {@code maxCapacityPerThread} is negative or {@code ratio} is not
     *         positive
     */
    protected Recycler(int maxCapacityPerThread, int ratio) {
        if (maxCapacityPerThread < 0) {
            throw new IllegalArgumentException("maxCapacityPerThread: " + maxCapacityPerThread + " (expected: >= 0)");
        }
        if (ratio <= 0) {
            throw new IllegalArgumentException("ratio: " + ratio + " (expected: > 0)");
        }
        this.maxCapacityPerThread = maxCapacityPerThread;
        this.ratio = ratio;
    }

    /**
     * Returns a pooled object of the calling thread, or a new one made by {@link #newObject}. The caller owns
     * it until it calls its handle's {@link Handle#recycle}, after which it must not touch it again.
     */
    public final T get() {
        if (maxCapacityPerThread == 0 || !threadPools(Thread.currentThread())) {
            return newUnpooled();
        }
        LocalPool<T> pool = pools.get();
        DefaultHandle<T> handle = pool.pop();
        if (handle != null) {
            handle.state = DefaultHandle.CLAIMED;
            return handle.value;
        }
        if (!pool.poolNextNewObject()) {
            return newUnpooled();
        }
        handle = new DefaultHandle<>(pool);
        handle.value = checkNewObject(newObject(handle));
        return handle.value;
    }

    /**
     * Makes a new object bound to {@code handle}; the object keeps the handle and calls
     * {@link Handle#recycle(Object) handle.recycle(this)} when done. Called on the thread calling {@link #get()}.
     */
    protected abstract T newObject(Handle<T> handle);

    /** The most objects one thread's pool keeps. */
    public final int maxCapacityPerThread() {
        return maxCapacityPerThread;
    }

    /** One new object in this many is pooled. */
    public final int ratio() {
        return ratio;
    }

    private T newUnpooled() {
        DefaultHandle<T> handle = new DefaultHandle<>(null);
        handle.value = checkNewObject(newObject(handle));
        return handle.value;
    }

    private static <T> T checkNewObject(T object) {
        if (object == null) {
            throw new NullPointerException("newObject() returned null");
        }
        return object;
    }

    private static boolean threadPools(Thread thread) {
        if (thread instanceof FastThreadLocalThread) {
            return true;
        }
        return !FAST_THREADS_ONLY && !isVirtual(thread);
    }

    private static boolean isVirtual(Thread thread) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(thread);
        } catch (Throwable t) {
            throw new IllegalStateException("Thread.isVirtual() failed", t);
        }
    }

    private static MethodHandle findIsVirtual() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }

    private static int nonNegative(int value, String property, int defaultValue) {
        if (value >= 0) {
            return value;
        }
        LOGGER.log(System.Logger.Level.WARNING, "-D" + property + "=" + value + " is negative; using " + defaultValue);
        return defaultValue;
    }

    /**
     * The recycling side of a pooled object. {@link #recycle} may be called from any thread, once per
     * {@link Recycler#get()} that returned the object.
     *
     * @param <T> the type of the pooled object
     */
    public interface Handle<T> {
        /**
         * Gives {@code object} back to its pool; the caller must not use it afterwards.
         *
         * @throws IllegalArgumentException if {@code object} is not the object of this handle
         * @throws IllegalStateException if the object was already recycled since it was last handed out
         */
        void recycle(T object);
    }

    /**
     * A pooled object's handle. {@code state} is written plainly by the owning thread ({@link Recycler#get()}
     * and same-thread recycles, which are ordered by program order) and by compare-and-set from other threads
     * (whose view of CLAIMED comes through whatever published the object to them).
     */
    private static final class DefaultHandle<T> implements Handle<T> {
        static final int CLAIMED = 0;
        static final int AVAILABLE = 1;
        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(DefaultHandle.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        // null for an object that is not pooled: recycling only checks for misuse.
        private final LocalPool<T> pool;
        T value;
        int state;

        DefaultHandle(LocalPool<T> pool) {
            this.pool = pool;
        }

        @Override
        public void recycle(T object) {
            if (object != value) {
                throw new IllegalArgumentException("recycling an object through another object's handle: "
                        + (object == null ? "null" : object.getClass().getName()));
            }
            LocalPool<T> p = pool;
            if (p != null && p.isOwnerThread()) {
                if (state != CLAIMED) {
                    throw alreadyRecycled(object);
                }
                state = AVAILABLE;
                p.push(this);
                return;
            }
            if (!STATE.compareAndSet(this, CLAIMED, AVAILABLE)) {
                throw alreadyRecycled(object);
            }
            if (p != null) {
                p.handBack(this);
            }
        }

        private static IllegalStateException alreadyRecycled(Object object) {
            return new IllegalStateException("recycled twice: " + object.getClass().getName());
        }
    }

    /**
     * One thread's pool for one recycler. The stack, its size and the ratio counter are touched only by the
     * owning thread; other threads only offer to {@code handedBack} (created on their first offer) and read
     * the volatile {@code retired} flag.
     */
    private static final class LocalPool<T> {
        private static final VarHandle HANDED_BACK;

        static {
            try {
                HANDED_BACK = MethodHandles.lookup().findVarHandle(LocalPool.class, "handedBack", Queue.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        // Thread ids are never reused within a JVM, so comparing ids identifies the owner without holding it.
        private final long ownerId;
        // Weak: a pool reachable from an outstanding handle must not keep a dead thread (and its class loader).
        private final WeakReference<Thread> owner;
        private final int maxCapacity;
        private final int ratio;
        private DefaultHandle<T>[] stack;
        private int size;
        private int ratioCounter;
        private volatile Queue<DefaultHandle<T>> handedBack;
        private volatile boolean retired;

        @SuppressWarnings("unchecked")
        LocalPool(Thread ownerThread, int maxCapacity, int ratio) {
            this.ownerId = ownerThread.getId();
            this.owner = new WeakReference<>(ownerThread);
            this.maxCapacity = maxCapacity;
            this.ratio = ratio;
            this.stack = new DefaultHandle[Math.min(INITIAL_STACK_CAPACITY, maxCapacity)];
            // The first new object is pooled, then one in every `ratio`.
            this.ratioCounter = ratio - 1;
        }

        boolean isOwnerThread() {
            return Thread.currentThread().getId() == ownerId;
        }

        /** Owner thread only. */
        boolean poolNextNewObject() {
            if (++ratioCounter < ratio) {
                return false;
            }
            ratioCounter = 0;
            return true;
        }

        /** Owner thread only: the newest pooled handle, draining handed-back ones when the stack is empty. */
        DefaultHandle<T> pop() {
            int s = size;
            if (s == 0) {
                s = drainHandedBack();
                if (s == 0) {
                    return null;
                }
            }
            DefaultHandle<T>[] st = stack;
            DefaultHandle<T> handle = st[--s];
            st[s] = null;
            size = s;
            return handle;
        }

        /** Owner thread only. */
        void push(DefaultHandle<T> handle) {
            int s = size;
            if (retired) {
                return;
            }
            DefaultHandle<T>[] st = stack;
            if (s == st.length) {
                if (s >= maxCapacity) {
                    return;
                }
                st = stack = Arrays.copyOf(st, Math.min(s << 1, maxCapacity));
            }
            st[s] = handle;
            size = s + 1;
        }

        private int drainHandedBack() {
            Queue<DefaultHandle<T>> q = handedBack;
            if (q == null) {
                return 0;
            }
            for (DefaultHandle<T> h; size < maxCapacity && (h = q.poll()) != null; ) {
                push(h);
            }
            return size;
        }

        /** Any thread but the owner: queue {@code handle} for the owner, or drop it if it cannot take it. */
        void handBack(DefaultHandle<T> handle) {
            if (retired) {
                return;
            }
            Thread t = owner.get();
            if (t == null || !t.isAlive()) {
                retired = true;
                return;
            }
            Queue<DefaultHandle<T>> q = handedBack;
            if (q == null) {
                q = Queues.newMpscQueue(maxCapacity);
                if (!HANDED_BACK.compareAndSet(this, null, q)) {
                    q = handedBack;
                }
            }
            // A full queue drops the object: the owner is not keeping up, and the garbage collector will.
            q.offer(handle);
        }

        /** Owner thread only, when its FastThreadLocal value is removed: keep nothing from now on. */
        void retire() {
            retired = true;
            Arrays.fill(stack, 0, size, null);
            size = 0;
        }
    }
}
