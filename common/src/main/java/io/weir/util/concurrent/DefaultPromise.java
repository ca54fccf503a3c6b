package io.weir.util.concurrent;

import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.SystemProperties;
import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * The standard {@link Promise}: the result is published with one compare-and-set, listeners are notified on
 * the promise's {@link EventExecutor}, and threads blocked in {@code await}/{@code sync}/{@code get} are woken.
 *
 * <p>Listeners run on the executor: directly when the promise completes (or a listener is added to a
 * completed promise) on the executor's own thread, otherwise through {@link EventExecutor#execute}. Direct
 * notification nests at most {@value #DEFAULT_MAX_LISTENER_STACK_DEPTH} levels deep per thread (property
 * {@code io.weir.defaultPromise.maxListenerStackDepth}), after which notification is handed to the executor
 * so that chains of listeners completing further promises cannot overflow the stack. If the executor
 * refuses the notification (it has terminated), listeners run on the completing thread rather than never.
 *
 * <p>Waiting on the executor's own thread for a promise that is not done throws
 * {@link BlockingOperationException}. All methods are thread-safe.
 *
 * @param <V> the result type
 */
public class DefaultPromise<V> implements Promise<V> {
    /** Default for {@code io.weir.defaultPromise.maxListenerStackDepth}: nested direct notifications per thread. */
    public static final int DEFAULT_MAX_LISTENER_STACK_DEPTH = 8;
    private static final int MAX_LISTENER_STACK_DEPTH = Math.max(0, SystemProperties.getInt(
            "io.weir.defaultPromise.maxListenerStackDepth", DEFAULT_MAX_LISTENER_STACK_DEPTH));

    private static final LoopLogger LOGGER = LoopLogger.of(DefaultPromise.class);

    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<DefaultPromise, Object> RESULT =
            AtomicReferenceFieldUpdater.newUpdater(DefaultPromise.class, Object.class, "result");
    /** Stands for a successful {@code null} result, so {@code null} can mean "not done". */
    private static final Object SUCCESS = new Object();
    private static final Object UNCANCELLABLE = new Object();
    /**
     * The result of every cancelled promise: cancelling is routine (every cancelled timeout), so it allocates
     * nothing. Its exception never escapes; {@link #cause()} and {@link #get()} hand out a fresh one.
     */
    private static final CauseHolder CANCELLED = new CauseHolder(new LeanCancellationException());

    /** Nesting depth of direct listener notification on the current thread (one-element array, mutated in place). */
    private static final FastThreadLocal<int[]> LISTENER_DEPTH = new FastThreadLocal<>() {
        @Override
        protected int[] initialValue() {
            return new int[1];
        }
    };

    private final EventExecutor executor;
    // null: pending; UNCANCELLABLE; SUCCESS; a CauseHolder; or the value itself.
    private volatile Object result;

    // The fields below are guarded by "this".
    // null, a single FutureListener, or a ListenerArray (kept in registration order).
    private Object listeners;
    private int waiters;
    private boolean notifyingListeners;

    /**
     * A promise whose listeners are notified on {@code executor}.
     *
     * @throws NullPointerException if {@code executor} is null
     */
    public DefaultPromise(EventExecutor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /** The executor that notifies listeners and whose thread must not block on this promise. */
    protected EventExecutor executor() {
        return executor;
    }

    @Override
    public Promise<V> setSuccess(V result) {
        if (setValue(result == null ? SUCCESS : result)) {
            return this;
        }
        throw new IllegalStateException("complete already: " + this);
    }

    @Override
    public boolean trySuccess(V result) {
        return setValue(result == null ? SUCCESS : result);
    }

    @Override
    public Promise<V> setFailure(Throwable cause) {
        if (setValue(new CauseHolder(Objects.requireNonNull(cause, "cause")))) {
            return this;
        }
        throw new IllegalStateException("complete already: " + this, cause);
    }

    @Override
    public boolean tryFailure(Throwable cause) {
        return setValue(new CauseHolder(Objects.requireNonNull(cause, "cause")));
    }

    /** Completion for subclasses that refuse completion from outside (submitted tasks). */
    final boolean trySuccessInternal(V result) {
        return setValue(result == null ? SUCCESS : result);
    }

    final boolean tryFailureInternal(Throwable cause) {
        return setValue(new CauseHolder(Objects.requireNonNull(cause, "cause")));
    }

    final boolean setUncancellableInternal() {
        if (RESULT.compareAndSet(this, null, UNCANCELLABLE)) {
            return true;
        }
        Object r = result;
        return !isDone(r) || !isCancelled(r);
    }

    @Override
    public boolean setUncancellable() {
        if (RESULT.compareAndSet(this, null, UNCANCELLABLE)) {
            return true;
        }
        Object r = result;
        return !isDone(r) || !isCancelled(r);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (result == null && RESULT.compareAndSet(this, null, CANCELLED)) {
            if (checkNotifyWaiters()) {
                notifyListeners();
            }
            return true;
        }
        return false;
    }

    @Override
    public boolean isCancelled() {
        return isCancelled(result);
    }

    @Override
    public boolean isCancellable() {
        return result == null;
    }

    @Override
    public boolean isDone() {
        return isDone(result);
    }

    @Override
    public boolean isSuccess() {
        Object r = result;
        return r != null && r != UNCANCELLABLE && !(r instanceof CauseHolder);
    }

    @Override
    public Throwable cause() {
        Object r = result;
        if (r == CANCELLED) {
            return new LeanCancellationException();
        }
        return r instanceof CauseHolder ? ((CauseHolder) r).cause : null;
    }

    @SuppressWarnings("unchecked")
    @Override
    public V getNow() {
        Object r = result;
        if (r instanceof CauseHolder || r == SUCCESS || r == UNCANCELLABLE) {
            return null;
        }
        return (V) r;
    }

    @Override
    public V get() throws InterruptedException, ExecutionException {
        if (!isDone()) {
            await();
        }
        return report();
    }

    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (!isDone() && !await(timeout, unit)) {
            throw new TimeoutException("not done within " + timeout + ' ' + unit + ": " + this);
        }
        return report();
    }

    @SuppressWarnings("unchecked")
    private V report() throws ExecutionException {
        Object r = result;
        if (r == CANCELLED) {
            throw new LeanCancellationException();
        }
        if (r instanceof CauseHolder) {
            Throwable cause = ((CauseHolder) r).cause;
            if (cause instanceof CancellationException) {
                throw (CancellationException) cause;
            }
            throw new ExecutionException(cause);
        }
        return r == SUCCESS ? null : (V) r;
    }

    @Override
    public Promise<V> addListener(FutureListener<? super V> listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (this) {
            addListener0(listener);
        }
        if (isDone()) {
            notifyListeners();
        }
        return this;
    }

    @Override
    public Promise<V> addListeners(FutureListener<? super V> first, FutureListener<? super V> second) {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(second, "second");
        synchronized (this) {
            addListener0(first);
            addListener0(second);
        }
        if (isDone()) {
            notifyListeners();
        }
        return this;
    }

    @Override
    public Promise<V> removeListener(FutureListener<? super V> listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (this) {
            removeListener0(listener);
        }
        return this;
    }

    @Override
    public Promise<V> removeListeners(FutureListener<? super V> first, FutureListener<? super V> second) {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(second, "second");
        synchronized (this) {
            removeListener0(first);
            removeListener0(second);
        }
        return this;
    }

    private void addListener0(FutureListener<?> listener) {
        Object current = listeners;
        if (current == null) {
            listeners = listener;
        } else if (current instanceof ListenerArray) {
            ((ListenerArray) current).add(listener);
        } else {
            ListenerArray array = new ListenerArray((FutureListener<?>) current);
            array.add(listener);
            listeners = array;
        }
    }

    private void removeListener0(FutureListener<?> listener) {
        Object current = listeners;
        if (current instanceof ListenerArray) {
            ((ListenerArray) current).remove(listener);
        } else if (current == listener) {
            listeners = null;
        }
    }

    @Override
    public Promise<V> sync() throws InterruptedException {
        await();
        rethrowIfFailed();
        return this;
    }

    @Override
    public Promise<V> syncUninterruptibly() {
        awaitUninterruptibly();
        rethrowIfFailed();
        return this;
    }

    private void rethrowIfFailed() {
        Throwable cause = cause();
        if (cause != null) {
            throwUnchecked(cause);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void throwUnchecked(Throwable t) throws T {
        throw (T) t;
    }

    @Override
    public Promise<V> await() throws InterruptedException {
        if (isDone()) {
            return this;
        }
        if (Thread.interrupted()) {
            throw new InterruptedException(toString());
        }
        checkDeadLock();
        synchronized (this) {
            while (!isDone()) {
                waiters++;
                try {
                    wait();
                } finally {
                    waiters--;
                }
            }
        }
        return this;
    }

    @Override
    public Promise<V> awaitUninterruptibly() {
        if (isDone()) {
            return this;
        }
        checkDeadLock();
        boolean interrupted = false;
        synchronized (this) {
            while (!isDone()) {
                waiters++;
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                } finally {
                    waiters--;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return this;
    }

    @Override
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        return await0(unit.toNanos(timeout), true);
    }

    @Override
    public boolean await(long timeoutMillis) throws InterruptedException {
        return await0(TimeUnit.MILLISECONDS.toNanos(timeoutMillis), true);
    }

    @Override
    public boolean awaitUninterruptibly(long timeout, TimeUnit unit) {
        try {
            return await0(unit.toNanos(timeout), false);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible wait was interrupted", e);
        }
    }

    @Override
    public boolean awaitUninterruptibly(long timeoutMillis) {
        return awaitUninterruptibly(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    private boolean await0(long timeoutNanos, boolean interruptible) throws InterruptedException {
        if (isDone()) {
            return true;
        }
        if (timeoutNanos <= 0) {
            return isDone();
        }
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException(toString());
        }
        checkDeadLock();
        // Wall-clock time on purpose: this bounds how long a caller blocks, whatever ticker the executor uses.
        long start = System.nanoTime();
        long remaining = timeoutNanos;
        boolean interrupted = false;
        try {
            synchronized (this) {
                while (!isDone() && remaining > 0) {
                    waiters++;
                    try {
                        TimeUnit.NANOSECONDS.timedWait(this, remaining);
                    } catch (InterruptedException e) {
                        if (interruptible) {
                            throw e;
                        }
                        interrupted = true;
                    } finally {
                        waiters--;
                    }
                    remaining = timeoutNanos - (System.nanoTime() - start);
                }
                return isDone();
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Refuses to block the executor's own thread on this promise.
     *
     * @throws BlockingOperationException if the calling thread is this promise's executor thread
     */
    protected void checkDeadLock() {
        if (executor.inEventLoop()) {
            throw new BlockingOperationException(waitCalled() + " called on the event loop thread '"
                    + Thread.currentThread().getName() + "' that must complete " + this
                    + ": it would wait for itself for ever; add a listener instead, or wait from another thread");
        }
    }

    /**
     * The waiting method the caller called ({@code "sync()"}, {@code "get()"}): the outermost frame of this
     * promise's class hierarchy on the stack. Walked only to word the refusal, never on a path that waits.
     */
    private static String waitCalled() {
        String name = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(frames -> {
            String outermost = null;
            for (var it = frames.iterator(); it.hasNext(); ) {
                StackWalker.StackFrame frame = it.next();
                if (!DefaultPromise.class.isAssignableFrom(frame.getDeclaringClass())) {
                    if (outermost != null) {
                        break;
                    }
                    continue;
                }
                outermost = frame.getMethodName();
            }
            return outermost;
        });
        return name == null || "checkDeadLock".equals(name) ? "a blocking wait" : name + "()";
    }

    private boolean setValue(Object objResult) {
        if (RESULT.compareAndSet(this, null, objResult) || RESULT.compareAndSet(this, UNCANCELLABLE, objResult)) {
            if (checkNotifyWaiters()) {
                notifyListeners();
            }
            return true;
        }
        return false;
    }

    /** Wakes waiters; returns whether there are listeners to notify. */
    private synchronized boolean checkNotifyWaiters() {
        if (waiters > 0) {
            notifyAll();
        }
        return listeners != null;
    }

    private void notifyListeners() {
        EventExecutor executor = this.executor;
        if (executor.inEventLoop()) {
            int[] depth = LISTENER_DEPTH.get();
            if (depth[0] < MAX_LISTENER_STACK_DEPTH) {
                depth[0]++;
                try {
                    notifyListenersNow();
                } finally {
                    depth[0]--;
                }
                return;
            }
        }
        try {
            executor.execute(this::notifyListenersNow);
        } catch (RejectedExecutionException e) {
            // A terminated executor will never run the task; listeners (often releasing resources) must still run.
            LOGGER.log(Level.DEBUG, "executor refused listener notification; notifying on the caller", e);
            notifyListenersNow();
        }
    }

    private void notifyListenersNow() {
        Object current;
        synchronized (this) {
            // A notification already in progress (maybe on another thread) picks up listeners added meanwhile,
            // which keeps listeners in registration order.
            if (notifyingListeners || listeners == null) {
                return;
            }
            notifyingListeners = true;
            current = listeners;
            listeners = null;
        }
        for (;;) {
            if (current instanceof ListenerArray) {
                ListenerArray array = (ListenerArray) current;
                FutureListener<?>[] a = array.listeners;
                int size = array.size;
                for (int i = 0; i < size; i++) {
                    notifyListener0(this, a[i]);
                }
            } else {
                notifyListener0(this, (FutureListener<?>) current);
            }
            synchronized (this) {
                if (listeners == null) {
                    notifyingListeners = false;
                    return;
                }
                current = listeners;
                listeners = null;
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void notifyListener0(Future<?> future, FutureListener listener) {
        try {
            listener.operationComplete(future);
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "An exception was thrown by ", listener.getClass().getName(),
                    ".operationComplete()", t);
        }
    }

    /**
     * Notifies one listener of an already completed {@code future} on {@code executor}, with the same stack
     * depth guard as promises.
     */
    static void notifyListener(EventExecutor executor, Future<?> future, FutureListener<?> listener) {
        if (executor.inEventLoop()) {
            int[] depth = LISTENER_DEPTH.get();
            if (depth[0] < MAX_LISTENER_STACK_DEPTH) {
                depth[0]++;
                try {
                    notifyListener0(future, listener);
                } finally {
                    depth[0]--;
                }
                return;
            }
        }
        try {
            executor.execute(() -> notifyListener0(future, listener));
        } catch (RejectedExecutionException e) {
            LOGGER.log(Level.DEBUG, "executor refused listener notification; notifying on the caller", e);
            notifyListener0(future, listener);
        }
    }

    private static boolean isDone(Object r) {
        return r != null && r != UNCANCELLABLE;
    }

    private static boolean isCancelled(Object r) {
        return r instanceof CauseHolder && ((CauseHolder) r).cause instanceof CancellationException;
    }

    @Override
    public String toString() {
        StringBuilder buf = new StringBuilder(64)
                .append(getClass().getSimpleName())
                .append('@')
                .append(Integer.toHexString(hashCode()));
        Object r = result;
        if (r == SUCCESS) {
            buf.append("(success)");
        } else if (r == UNCANCELLABLE) {
            buf.append("(uncancellable)");
        } else if (r instanceof CauseHolder) {
            buf.append("(failure: ").append(((CauseHolder) r).cause).append(')');
        } else if (r != null) {
            buf.append("(success: ").append(r).append(')');
        } else {
            buf.append("(incomplete)");
        }
        return buf.toString();
    }

    private static final class CauseHolder {
        final Throwable cause;

        CauseHolder(Throwable cause) {
            this.cause = cause;
        }
    }

    /** Listeners beyond the first, in registration order. */
    private static final class ListenerArray {
        FutureListener<?>[] listeners;
        int size;

        ListenerArray(FutureListener<?> first) {
            listeners = new FutureListener<?>[4];
            listeners[0] = first;
            size = 1;
        }

        void add(FutureListener<?> listener) {
            if (size == listeners.length) {
                listeners = Arrays.copyOf(listeners, size << 1);
            }
            listeners[size++] = listener;
        }

        void remove(FutureListener<?> listener) {
            for (int i = 0; i < size; i++) {
                if (listeners[i] == listener) {
                    int moved = size - i - 1;
                    if (moved > 0) {
                        System.arraycopy(listeners, i + 1, listeners, i, moved);
                    }
                    listeners[--size] = null;
                    return;
                }
            }
        }
    }

    /**
     * Cancellation is routine (every cancelled timer), so its exception skips the costly stack trace; the
     * cause says where a task was cancelled only in its message.
     */
    private static final class LeanCancellationException extends CancellationException {
        private static final long serialVersionUID = 1L;

        LeanCancellationException() {
            super("cancelled");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
