package io.weir.channel.unix.internal;

import io.weir.channel.EventLoop;
import io.weir.channel.IoEvent;
import io.weir.channel.IoHandle;
import io.weir.channel.IoHandler;
import io.weir.channel.IoHandlerContext;
import io.weir.channel.IoOps;
import io.weir.channel.IoRegistration;
import io.weir.channel.internal.PollingWait;
import io.weir.channel.unix.FileDescriptor;
import io.weir.util.collection.IntObjectHashMap;
import io.weir.util.platform.LoopLogger;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The readiness core of a native {@link IoHandler} (epoll, kqueue): the table of registrations by descriptor
 * number, the event array a wait fills, the {@link PollingWait} that decides when to block, and the life of
 * registrations (adding, cancelling from any thread, closing what is left when the loop ends). A transport
 * supplies its kernel calls: the waits, the dispatch of the events a wait collected, adding a descriptor, changing
 * its interest, removing it, and its wake-up signal.
 *
 * <p><b>Descriptors closed before their registration is cancelled.</b> A kernel drops a closed descriptor from
 * its readiness set; the registration stays in the table until its number is registered again (then it is
 * cancelled, its handle closed, and whatever the transport must clean up removed) or the handler is destroyed. A
 * stale event may reach the new handle meanwhile, which readiness semantics allow.
 *
 * <p><b>Threads.</b> Every method but {@link #wakeup()} runs on the event loop; registrations may be cancelled
 * from any thread. {@link #prepareToDestroy()} and {@link #destroy()} close every handle still registered;
 * {@link #destroy()} then closes the transport's own descriptors. Not for applications.
 *
 * @param <H> the transport's kind of handle
 */
public abstract class UnixIoHandler<H extends IoHandle> implements IoHandler {
    private static final LoopLogger LOGGER = LoopLogger.of(UnixIoHandler.class);

    @SuppressWarnings("rawtypes")
    private static final AtomicIntegerFieldUpdater<UnixIoHandler> REGISTRATIONS =
            AtomicIntegerFieldUpdater.newUpdater(UnixIoHandler.class, "registrations");

    private final EventLoop loop;
    private final Class<H> handleType;
    private final Class<? extends IoOps> opsType;
    private final IoOps noOps;
    private final PollingWait pollingWait;
    /** The records the last wait collected. Loop thread only. */
    protected final NativeEventArray events;
    // Loop thread only: descriptor number -> its live registration.
    private final IntObjectHashMap<UnixRegistration> registrationsByFd = new IntObjectHashMap<>();

    private boolean destroyed;
    private volatile int registrations;

    /**
     * @param handleType the handles this handler takes
     * @param opsType the {@link IoOps} its registrations take
     * @param noOps the interest of a fresh registration: nothing
     * @param eventBytes the size of one kernel event record
     * @param eventArrayLength records one wait collects at first (the array doubles when a wait fills it)
     * @param maxEventArrayLength the most records one wait collects
     */
    protected UnixIoHandler(EventLoop loop, long maxIdlePollNanos, Class<H> handleType,
                            Class<? extends IoOps> opsType, IoOps noOps, int eventBytes, int eventArrayLength,
                            int maxEventArrayLength) {
        this.loop = Objects.requireNonNull(loop, "loop");
        this.handleType = handleType;
        this.opsType = opsType;
        this.noOps = noOps;
        this.pollingWait = new PollingWait(loop, maxIdlePollNanos, new Waits());
        this.events = new NativeEventArray(eventBytes, eventArrayLength, maxEventArrayLength);
    }

    // ---------------------------------------------------------------- the transport's kernel calls

    /** Collects what is ready without blocking; see {@link PollingWait.Waits#waitNow()}. */
    protected abstract int waitNow();

    /** Blocks until readiness, a wake-up or the deadline; see {@link PollingWait.Waits#waitBlocking}. */
    protected abstract int waitBlocking(long nowNanos, long delayNanos);

    /**
     * Dispatches the {@code ready} records of {@link #events}, each through {@link #registration(int)} and
     * {@link #dispatch}.
     *
     * @return how many handles heard an event
     */
    protected abstract int processReady(int ready);

    /** Ends the current or next blocking wait (an eventfd write, a user event). Any thread. */
    protected abstract void signalWakeup();

    /** The descriptor {@code handle} watches. */
    protected abstract FileDescriptor fdOf(H handle);

    /**
     * Makes the kernel watch descriptor {@code number} with no interest yet; an earlier owner of the number may
     * have closed it without cancelling.
     *
     * @throws IOException if the kernel refused
     */
    protected abstract void add(int number) throws IOException;

    /**
     * Makes the kernel watch {@code ops} instead of {@code old} for the registration's descriptor.
     *
     * @throws IllegalStateException if the descriptor was closed
     * @throws java.io.UncheckedIOException if the kernel refused otherwise
     */
    protected abstract void modify(UnixRegistration registration, IoOps old, IoOps ops);

    /** Removes a cancelled registration's descriptor from the kernel's set (it may be closed already). */
    protected abstract void remove(UnixRegistration registration);

    /** The bits of {@code ops}, for {@link IoRegistration#submit}'s answer. */
    protected abstract long bits(IoOps ops);

    /** Closes the transport's own descriptors; called once, by {@link #destroy()}. */
    protected abstract void closeDescriptors();

    // ---------------------------------------------------------------- run

    @Override
    public final int run(IoHandlerContext context) {
        return pollingWait.run(context);
    }

    /**
     * Ends the current or next blocking wait, at most once per wait however often it is called. Any thread; after
     * the handler is destroyed it does nothing (the loop no longer arms the flag).
     */
    @Override
    public final void wakeup() {
        pollingWait.wakeup();
    }

    /**
     * How long this handler, once idle, now polls for readiness before it blocks, in nanoseconds; 0 if it blocks at
     * once. Loop thread only.
     */
    protected final long idlePollNanos() {
        return pollingWait.idlePollNanos();
    }

    /** The current length of the event array. Loop thread; for tests. */
    protected final int eventArrayLength() {
        return events.length();
    }

    /** The live registration of descriptor {@code number}, or {@code null}: none, or cancelled meanwhile. */
    protected final UnixRegistration registration(int number) {
        UnixRegistration registration = registrationsByFd.get(number);
        return registration == null || registration.isCancelled() ? null : registration;
    }

    /** Hands {@code event} to the registration's handle; what it throws is logged, not propagated. */
    protected final void dispatch(UnixRegistration registration, IoEvent event) {
        try {
            registration.handle().handle(registration, event);
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "Unexpected exception from ", registration.handle(), " handling " + event, t);
        }
    }

    /** This handler's kernel calls, for its {@link PollingWait}. */
    private final class Waits implements PollingWait.Waits {
        @Override
        public int waitNow() {
            return UnixIoHandler.this.waitNow();
        }

        @Override
        public int waitBlocking(long nowNanos, long delayNanos) {
            return UnixIoHandler.this.waitBlocking(nowNanos, delayNanos);
        }

        @Override
        public int processReady(int ready) {
            return UnixIoHandler.this.processReady(ready);
        }

        @Override
        public void afterProcessing(int ready) {
            if (ready == events.length() && events.increase() && LOGGER.isLoggable(Level.DEBUG)) {
                LOGGER.log(Level.DEBUG, "event array of " + UnixIoHandler.this + " grew to " + events.length());
            }
        }

        @Override
        public void signalWakeup() {
            UnixIoHandler.this.signalWakeup();
        }
    }

    // ---------------------------------------------------------------- registrations

    /**
     * {@inheritDoc}
     *
     * <p>Adds the handle's descriptor watching nothing; {@link IoRegistration#submit} chooses the interest.
     *
     * @throws IllegalArgumentException if {@code handle} is not of this handler's kind
     * @throws IllegalStateException if the descriptor is already registered with this handler
     * @throws ClosedChannelException if the descriptor is closed
     * @throws io.weir.channel.unix.NativeIoException if the kernel refused it
     */
    @Override
    public final IoRegistration register(IoHandle handle) throws IOException {
        if (!handleType.isInstance(handle)) {
            throw new IllegalArgumentException("incompatible handle: "
                    + (handle == null ? "null" : handle.getClass().getName())
                    + " (expected: " + handleType.getName() + ')');
        }
        FileDescriptor fd = Objects.requireNonNull(fdOf(handleType.cast(handle)), "fd()");
        if (!fd.isOpen()) {
            throw new ClosedChannelException();
        }
        int number = fd.intValue();
        UnixRegistration existing = registrationsByFd.get(number);
        if (existing != null) {
            if (existing.isCancelled()) {
                // Cancelled from another thread; its deregistration task has not run yet.
                deregister0(existing);
            } else if (existing.fd().isOpen()) {
                throw new IllegalStateException("descriptor " + number + " already registered with this handler by "
                        + existing.handle());
            } else {
                // The old owner closed the number without cancelling: cancel, which cleans up what the kernel kept.
                existing.cancel();
                closeQuietly(existing.handle());
            }
        }
        add(number);
        UnixRegistration registration = new UnixRegistration(this, handle, fd, noOps);
        registrationsByFd.put(number, registration);
        REGISTRATIONS.incrementAndGet(this);
        return registration;
    }

    /** {@link UnixRegistration#submit}: loop thread. */
    final long submit(UnixRegistration registration, IoOps ops) {
        if (!opsType.isInstance(ops)) {
            throw new IllegalArgumentException("ops: " + (ops == null ? "null" : ops.getClass().getName())
                    + " (expected: " + opsType.getName() + ')');
        }
        if (registration.isCancelled()) {
            throw new IllegalStateException("registration cancelled: " + registration);
        }
        IoOps old = registration.ops();
        if (old != ops) {
            modify(registration, old, ops);
            registration.ops(ops);
        }
        return bits(old);
    }

    /** Removes a cancelled registration from the kernel and the table: now on the loop, through a task otherwise. */
    final void deregister(UnixRegistration registration) {
        if (loop.inEventLoop()) {
            deregister0(registration);
            return;
        }
        try {
            loop.execute(() -> deregister0(registration));
        } catch (RejectedExecutionException e) {
            // The loop is shutting down: destroy() drops the whole set.
            LOGGER.log(Level.DEBUG, "could not deregister ", registration, " from a stopping loop", e);
        }
    }

    private void deregister0(UnixRegistration registration) {
        if (destroyed) {
            return;
        }
        int number = registration.fd().intValue();
        if (registrationsByFd.get(number) == registration) {
            registrationsByFd.remove(number);
            remove(registration);
            registration.ops(noOps);
        }
    }

    final void registrationEnded() {
        REGISTRATIONS.decrementAndGet(this);
    }

    /** Closes every handle still registered, so their channels close while the loop still runs tasks. */
    @Override
    public final void prepareToDestroy() {
        closeAll();
    }

    /** Closes every handle still registered, then the transport's descriptors. */
    @Override
    public final void destroy() {
        if (destroyed) {
            return;
        }
        closeAll();
        destroyed = true;
        registrationsByFd.clear();
        closeDescriptors();
    }

    private void closeAll() {
        if (destroyed || registrationsByFd.isEmpty()) {
            return;
        }
        int[] numbers = registrationsByFd.keys();
        for (int i = 0; i < numbers.length; i++) {
            UnixRegistration registration = registrationsByFd.get(numbers[i]);
            if (registration == null) {
                continue;
            }
            // Out of the kernel's set first (libkqueue would keep the filters of a closed descriptor), then the
            // handle closes as a user would close it.
            registration.cancel();
            deregister0(registration);
            closeQuietly(registration.handle());
        }
    }

    /** Closes {@code closeable}, logging a failure. */
    protected static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "Failed to close ", closeable, t);
        }
    }

    @Override
    public final boolean isCompatible(Class<? extends IoHandle> type) {
        return handleType.isAssignableFrom(type);
    }

    /** {@inheritDoc} Cancelled registrations and handles the handler closed are not counted. */
    @Override
    public final int registrationCount() {
        return registrations;
    }
}
