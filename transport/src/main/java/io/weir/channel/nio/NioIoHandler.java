package io.weir.channel.nio;

import io.weir.channel.EventLoop;
import io.weir.channel.internal.IdlePoll;
import io.weir.channel.IoHandle;
import io.weir.channel.IoHandler;
import io.weir.channel.IoHandlerContext;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.IoRegistration;
import io.weir.util.Ticker;
import io.weir.util.concurrent.AbstractScheduledEventExecutor;
import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.PlatformInfo;
import io.weir.util.platform.SystemProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.lang.reflect.Field;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.SelectorProvider;
import java.util.Iterator;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The NIO {@link IoHandler}: one {@link Selector} per event loop, watching {@link NioIoHandle}s.
 *
 * <pre>{@code
 * EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, NioIoHandler.newFactory());
 * IoRegistration registration = group.next().register(handle).get();
 * registration.submit(NioIoOps.READ);   // on the loop: the handle now hears NioIoEvents when readable
 * }</pre>
 *
 * <p><b>Selecting.</b> A run selects without waiting when the loop has tasks queued, and otherwise waits until
 * readiness, a {@link #wakeup()} or the next scheduled task's deadline (rounded up to the millisecond, so a
 * scheduled task never runs early). Then every selected key's handle receives one {@link NioIoEvent} with the
 * key's ready operations, through the {@link IoRegistration} that {@link #register} returned.
 *
 * <p><b>Idle polling (off unless asked for).</b> A handler created with a positive {@code maxIdlePollNanos}
 * ({@link #newFactory(SelectorProvider, long)}, or {@code io.weir.nio.maxIdlePollNanos} for every factory that
 * does not say) polls with {@code selectNow()} for a while before it blocks, once its recent sleeps I/O ended
 * within a millisecond (a loop in a conversation with a peer that answers quickly), so that the answer finds the
 * thread awake; see {@link IdlePoll} for the rule. It costs a server whose requests arrive a little closer
 * together than the poll the whole gap between them in CPU, so the default is 0 (block at once, as Netty does);
 * {@value #CONVERSATION_IDLE_POLL_NANOS} ns suits a loop that talks to nearby peers and has a core to spare. The
 * poll ends when readiness turns up, when the next scheduled task is due, or when a {@link #wakeup()} takes the
 * armed flag: {@code selectNow()} clears a pending {@link Selector#wakeup()}, so the flag, not the selector,
 * tells the poll that a task came.
 *
 * <p><b>Selected keys.</b> Where the JDK allows it, the selector's selected-key {@code HashSet} is replaced by
 * an array the handler walks by index, which saves hashing and an iterator on every select. The fields are set
 * by reflection where {@code --add-opens java.base/sun.nio.ch=io.weir.transport} (or {@code =ALL-UNNAMED} on
 * the class path) allows it, and otherwise through {@code sun.misc.Unsafe} where Weir may use it
 * ({@link PlatformInfo#hasUnsafe()}); without either, and on JDK 26+ (where changing a final field prints a
 * warning), the plain set is used. Which one is in use is logged once at {@code DEBUG}.
 *
 * <p><b>The JDK's spinning selector.</b> Some JDK/kernel combinations make {@code select(timeout)} return 0
 * at once, forever. After {@link #DEFAULT_SELECTOR_AUTO_REBUILD_THRESHOLD} (512 unless configured) such
 * returns in a row the handler opens a new selector, moves every key to it with its interest ops and
 * attachment, and closes the old one.
 *
 * <p><b>Threads.</b> Every method but {@link #wakeup()} is called on the event loop, as {@link IoHandler}
 * says. A handle whose selection key became invalid without its registration being cancelled (its channel was
 * closed underneath) is uncounted and closed. {@link #prepareToDestroy()} and {@link #destroy()} close every
 * handle still registered; {@link #destroy()} then closes the selector.
 */
public final class NioIoHandler implements IoHandler {
    /**
     * Default for {@code io.weir.selectorAutoRebuildThreshold}: how many times in a row a blocking select may
     * return nothing, early and without a wake-up, before the selector is rebuilt. 0 or less turns the
     * rebuild off.
     */
    public static final int DEFAULT_SELECTOR_AUTO_REBUILD_THRESHOLD =
            SystemProperties.getInt("io.weir.selectorAutoRebuildThreshold", 512);

    /**
     * Default for {@code io.weir.nio.maxIdlePollNanos}, the longest an idle handler polls for readiness before it
     * blocks (see the class comment), in nanoseconds: 0, polling off.
     */
    public static final long DEFAULT_MAX_IDLE_POLL_NANOS = 0;
    /**
     * A maximum idle poll for a loop in a conversation with nearby peers (the benchmarks' {@code _idlePoll} rows):
     * longer than a loopback round trip on a slow virtual machine, short enough that a loop whose peer has gone
     * quiet wastes little before it sleeps.
     */
    public static final long CONVERSATION_IDLE_POLL_NANOS = 50_000;
    static final long MAX_IDLE_POLL_NANOS =
            Math.max(0, SystemProperties.getLong("io.weir.nio.maxIdlePollNanos", DEFAULT_MAX_IDLE_POLL_NANOS));

    private static final LoopLogger LOGGER = LoopLogger.of(NioIoHandler.class);
    /** First JDK where setting a final field by reflection prints a warning (JEP 500). */
    private static final int FIRST_JDK_WARNING_ON_FINAL_FIELD_MUTATION = 26;
    private static final long NANOS_PER_MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    private static final AtomicIntegerFieldUpdater<NioIoHandler> WAKEUP_ARMED =
            AtomicIntegerFieldUpdater.newUpdater(NioIoHandler.class, "wakeupArmed");
    private static final AtomicIntegerFieldUpdater<NioIoHandler> REGISTRATIONS =
            AtomicIntegerFieldUpdater.newUpdater(NioIoHandler.class, "registrations");

    private static final Class<?> SELECTOR_IMPL;
    private static final Field SELECTED_KEYS_FIELD;
    private static final Field PUBLIC_SELECTED_KEYS_FIELD;
    // Offsets of the two fields when they are set through Unsafe (the fields are not accessible); else -1.
    private static final long SELECTED_KEYS_OFFSET;
    private static final long PUBLIC_SELECTED_KEYS_OFFSET;
    private static final Throwable ARRAY_KEYS_UNAVAILABILITY;
    private static final AtomicBoolean KEY_SET_CHOICE_LOGGED = new AtomicBoolean();

    static {
        Class<?> impl = null;
        Field selectedKeys = null;
        Field publicSelectedKeys = null;
        long selectedKeysOffset = -1;
        long publicSelectedKeysOffset = -1;
        Throwable cause = null;
        if (Runtime.version().feature() >= FIRST_JDK_WARNING_ON_FINAL_FIELD_MUTATION) {
            cause = new UnsupportedOperationException("JDK " + Runtime.version().feature()
                    + " would warn about setting the selector's final key-set fields");
        } else {
            try {
                impl = Class.forName("sun.nio.ch.SelectorImpl", false, null);
                selectedKeys = impl.getDeclaredField("selectedKeys");
                publicSelectedKeys = impl.getDeclaredField("publicSelectedKeys");
                if (!Set.class.isAssignableFrom(selectedKeys.getType())
                        || !Set.class.isAssignableFrom(publicSelectedKeys.getType())) {
                    throw new UnsupportedOperationException("the selector's key-set fields are no Sets");
                }
                try {
                    // Throws InaccessibleObjectException unless java.base opens sun.nio.ch to this module.
                    selectedKeys.setAccessible(true);
                    publicSelectedKeys.setAccessible(true);
                } catch (RuntimeException inaccessible) {
                    if (!PlatformInfo.hasUnsafe()) {
                        throw inaccessible;
                    }
                    // The offsets of SelectorImpl's own instance fields; installArrayKeys() writes them only
                    // into SelectorImpl instances.
                    selectedKeysOffset = org.jctools.util.UnsafeAccess.UNSAFE.objectFieldOffset(selectedKeys);
                    publicSelectedKeysOffset =
                            org.jctools.util.UnsafeAccess.UNSAFE.objectFieldOffset(publicSelectedKeys);
                }
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                cause = e;
                impl = null;
                selectedKeys = null;
                publicSelectedKeys = null;
                selectedKeysOffset = -1;
                publicSelectedKeysOffset = -1;
            }
        }
        SELECTOR_IMPL = impl;
        SELECTED_KEYS_FIELD = selectedKeys;
        PUBLIC_SELECTED_KEYS_FIELD = publicSelectedKeys;
        SELECTED_KEYS_OFFSET = selectedKeysOffset;
        PUBLIC_SELECTED_KEYS_OFFSET = publicSelectedKeysOffset;
        ARRAY_KEYS_UNAVAILABILITY = cause;
    }

    private final SelectorProvider provider;
    private final boolean arrayKeysWanted;
    private final int rebuildThreshold;
    private final Ticker ticker;

    // Replaced only on the loop (rebuild); read by wakeup() from other threads.
    private volatile Selector selector;
    // Loop thread only. Null when the selector keeps its own HashSet.
    private SelectedKeyArraySet selectedKeys;
    private boolean processing;
    private boolean selectedKeysDropped;
    private int prematureReturns;
    private final IdlePoll idlePoll;
    // This run: how long its select blocked (-1: it did not block), and whether its idle poll found readiness.
    private long blockedNanos;
    private boolean pollFound;
    // A waker took the armed flag while the handler polled: its Selector.wakeup() may still come and end the next
    // blocking select at once, which is then no sign of the JDK's spinning selector.
    private boolean wakeupMayBePending;

    // 1 from just before a select that may block until the first waker consumes it or the select returns.
    private volatile int wakeupArmed;
    private volatile int registrations;

    private NioIoHandler(EventLoop loop, SelectorProvider provider, boolean arrayKeysWanted, int rebuildThreshold,
            long maxIdlePollNanos) {
        this.provider = provider;
        this.idlePoll = new IdlePoll(maxIdlePollNanos);
        this.arrayKeysWanted = arrayKeysWanted;
        this.rebuildThreshold = rebuildThreshold;
        // Deadlines come in the loop's time; with a manual ticker they only move when a test advances it.
        this.ticker = loop instanceof AbstractScheduledEventExecutor
                ? ((AbstractScheduledEventExecutor) loop).ticker()
                : Ticker.system();
        try {
            openSelector();
        } catch (IOException e) {
            throw new UncheckedIOException("failed to open a selector", e);
        }
    }

    /**
     * A factory of handlers on the platform's default {@link SelectorProvider}.
     */
    public static IoHandlerFactory newFactory() {
        return newFactory(SelectorProvider.provider());
    }

    /**
     * A factory of handlers whose selectors come from {@code provider}, with the idle poll that
     * {@code io.weir.nio.maxIdlePollNanos} sets (off by default). Each handler opens its selector when it is
     * created; failing that, {@link IoHandlerFactory#newHandler} throws an {@link UncheckedIOException}.
     *
     * @throws NullPointerException if {@code provider} is null
     */
    public static IoHandlerFactory newFactory(SelectorProvider provider) {
        return newFactory(provider, MAX_IDLE_POLL_NANOS);
    }

    /**
     * A factory of handlers whose selectors come from {@code provider} and whose idle poll lasts up to
     * {@code maxIdlePollNanos} (0: off; see the class comment for what polling buys and costs, and
     * {@link #CONVERSATION_IDLE_POLL_NANOS} for a value that suits a loop talking to nearby peers).
     *
     * @throws NullPointerException if {@code provider} is null
     * @throws IllegalArgumentException if {@code maxIdlePollNanos} is negative
     */
    public static IoHandlerFactory newFactory(SelectorProvider provider, long maxIdlePollNanos) {
        Objects.requireNonNull(provider, "provider");
        IdlePoll.checkMaxNanos(maxIdlePollNanos);
        return loop -> new NioIoHandler(loop, provider, true, DEFAULT_SELECTOR_AUTO_REBUILD_THRESHOLD,
                maxIdlePollNanos);
    }

    /** For tests: choose the selected-key set, the rebuild threshold and the idle poll. */
    static IoHandlerFactory newFactory(boolean arrayKeysWanted, int rebuildThreshold, long maxIdlePollNanos) {
        SelectorProvider provider = SelectorProvider.provider();
        return loop -> new NioIoHandler(loop, provider, arrayKeysWanted, rebuildThreshold, maxIdlePollNanos);
    }

    // ---------------------------------------------------------------- selector

    /** Opens a selector, with the array-backed key set if possible, and makes it current. */
    private void openSelector() throws IOException {
        Selector opened = provider.openSelector();
        SelectedKeyArraySet keys = arrayKeysWanted ? installArrayKeys(opened) : null;
        selectedKeys = keys;
        selector = opened;
    }

    private static SelectedKeyArraySet installArrayKeys(Selector selector) {
        Throwable cause = ARRAY_KEYS_UNAVAILABILITY;
        if (cause == null && !SELECTOR_IMPL.isInstance(selector)) {
            cause = new UnsupportedOperationException("not a sun.nio.ch.SelectorImpl: " + selector.getClass().getName());
        }
        if (cause == null) {
            SelectedKeyArraySet keys = new SelectedKeyArraySet();
            try {
                if (SELECTED_KEYS_OFFSET >= 0) {
                    // Safe: selector is a SelectorImpl (checked above), both offsets are of its Set-typed fields,
                    // and keys is a Set; the selector is new, so no other thread sees it yet.
                    org.jctools.util.UnsafeAccess.UNSAFE.putObject(selector, SELECTED_KEYS_OFFSET, keys);
                    org.jctools.util.UnsafeAccess.UNSAFE.putObject(selector, PUBLIC_SELECTED_KEYS_OFFSET, keys);
                } else {
                    SELECTED_KEYS_FIELD.set(selector, keys);
                    PUBLIC_SELECTED_KEYS_FIELD.set(selector, keys);
                }
                logKeySetChoice(null);
                return keys;
            } catch (IllegalAccessException | RuntimeException e) {
                cause = e;
            }
        }
        logKeySetChoice(cause);
        return null;
    }

    private static void logKeySetChoice(Throwable cause) {
        if (KEY_SET_CHOICE_LOGGED.compareAndSet(false, true) && LOGGER.isLoggable(Level.DEBUG)) {
            if (cause == null) {
                LOGGER.log(Level.DEBUG, "NIO selectors use an array-backed selected-key set");
            } else {
                LOGGER.log(Level.DEBUG, "NIO selectors keep the JDK's selected-key set (to use an array, run with"
                        + " --add-opens java.base/sun.nio.ch=io.weir.transport): " + cause);
            }
        }
    }

    /** Whether the current selector has the array-backed selected-key set. Loop thread only; for tests. */
    boolean usesArraySelectedKeys() {
        return selectedKeys != null;
    }

    /**
     * Replaces the selector with a new one, moving every live key with its interest ops and attachment, and
     * closes the old one. A handle whose channel cannot be moved (closed meanwhile) is uncounted and closed.
     * Loop thread only.
     */
    void rebuildSelector() {
        Selector old = selector;
        try {
            openSelector();
        } catch (IOException e) {
            LOGGER.log(Level.WARNING, "Failed to open a new selector; keeping the old one", e);
            return;
        }
        Selector fresh = selector;
        int moved = 0;
        for (SelectionKey key : old.keys().toArray(new SelectionKey[0])) {
            NioRegistration registration = (NioRegistration) key.attachment();
            if (registration.isCancelled()) {
                continue;
            }
            try {
                int ops = key.interestOps();
                key.cancel();
                SelectionKey newKey = key.channel().register(fresh, ops, registration);
                registration.key = newKey;
                if (registration.isCancelled()) {
                    // cancel() from another thread raced with the move and cancelled the old key.
                    newKey.cancel();
                } else {
                    moved++;
                }
            } catch (CancelledKeyException | ClosedChannelException e) {
                keyInvalidated(registration);
            }
        }
        try {
            old.close();
        } catch (IOException e) {
            LOGGER.log(Level.DEBUG, "Failed to close the replaced selector", e);
        }
        if (LOGGER.isLoggable(Level.DEBUG)) {
            LOGGER.log(Level.DEBUG, "Rebuilt the selector of " + this + ", moving " + moved + " keys");
        }
    }

    // ---------------------------------------------------------------- IoHandler

    @Override
    public int run(IoHandlerContext context) {
        blockedNanos = -1;
        pollFound = false;
        select(context);
        SelectedKeyArraySet keys = selectedKeys;
        int pending = keys != null ? keys.size : selector.selectedKeys().size();
        if (pending == 0) {
            context.reportActiveIoTime(0);
            idlePoll.runEnded(blockedNanos, pollFound, 0);
            return 0;
        }
        long start = System.nanoTime();
        int handled = processSelectedKeys();
        context.reportActiveIoTime(System.nanoTime() - start);
        idlePoll.runEnded(blockedNanos, pollFound, handled);
        return handled;
    }

    /**
     * How long this handler, once idle, now polls for readiness before it blocks, in nanoseconds (see the class
     * comment); 0 if it blocks at once. Loop thread only.
     */
    long idlePollNanos() {
        return idlePoll.nanos();
    }

    private int select(IoHandlerContext context) {
        Selector sel = selector;
        try {
            // Armed before the loop looks at its queue (in canBlock()), so a task that check misses comes
            // with a wakeup() that finds the flag set.
            WAKEUP_ARMED.set(this, 1);
            if (!context.canBlock()) {
                WAKEUP_ARMED.lazySet(this, 0);
                return sel.selectNow();
            }
            long delayNanos = context.delayNanos(ticker.nanoTime());
            long poll = idlePoll.nanos();
            if (poll > 0 && delayNanos > 0) {
                // Still armed: a task queued meanwhile takes the flag, which ends the poll.
                int ready = idlePoll(sel, Math.min(poll, delayNanos));
                if (ready > 0 || wakeupArmed == 0) {
                    pollFound = ready > 0;
                    if (WAKEUP_ARMED.getAndSet(this, 0) == 0) {
                        wakeupMayBePending = true;
                    }
                    return ready;
                }
                delayNanos = context.delayNanos(ticker.nanoTime());
            }
            if (delayNanos <= 0) {
                WAKEUP_ARMED.lazySet(this, 0);
                return sel.selectNow();
            }
            // Rounded up: a scheduled task must not become due while the loop thinks it still has time.
            long timeoutMillis = delayNanos == Long.MAX_VALUE ? 0
                    : delayNanos / NANOS_PER_MILLI + (delayNanos % NANOS_PER_MILLI == 0 ? 0 : 1);
            long start = System.nanoTime();
            int selected = timeoutMillis == 0 ? sel.select() : sel.select(timeoutMillis);
            blockedNanos = System.nanoTime() - start;
            boolean wokenUp = WAKEUP_ARMED.getAndSet(this, 0) == 0 || wakeupMayBePending;
            wakeupMayBePending = false;
            if (selected != 0 || wokenUp) {
                prematureReturns = 0;
            } else {
                checkPrematureReturn(start, timeoutMillis);
            }
            return selected;
        } catch (IOException e) {
            WAKEUP_ARMED.lazySet(this, 0);
            LOGGER.log(Level.WARNING, "Selector failed; rebuilding it", e);
            rebuildSelector();
            return 0;
        }
    }

    /**
     * Polls for readiness for about {@code nanos} (positive): the number of keys selected, 0 if none turned up
     * or a waker took the armed flag.
     */
    private int idlePoll(Selector sel, long nanos) throws IOException {
        long start = System.nanoTime();
        do {
            int ready = sel.selectNow();
            if (ready > 0 || wakeupArmed == 0) {
                return ready;
            }
            Thread.onSpinWait();
        } while (System.nanoTime() - start < nanos);
        return 0;
    }

    /** A blocking select returned nothing, unwoken: count it if it came back early. */
    private void checkPrematureReturn(long startNanos, long timeoutMillis) {
        if (Thread.interrupted()) {
            // An interrupt ends a select at once; it is not the JDK bug, and it must not end the next one too.
            prematureReturns = 0;
            LOGGER.log(Level.DEBUG, "The event loop thread was interrupted; interrupts are ignored");
            return;
        }
        if (timeoutMillis != 0 && System.nanoTime() - startNanos >= timeoutMillis * NANOS_PER_MILLI) {
            prematureReturns = 0;
            return;
        }
        if (rebuildThreshold > 0 && ++prematureReturns >= rebuildThreshold) {
            LOGGER.log(Level.INFO, "Selector returned early " + prematureReturns
                    + " times in a row with nothing selected; rebuilding it");
            prematureReturns = 0;
            rebuildSelector();
        }
    }

    private int processSelectedKeys() {
        processing = true;
        try {
            SelectedKeyArraySet keys = selectedKeys;
            return keys != null ? processArrayKeys(keys) : processPlainKeys(selector.selectedKeys());
        } finally {
            processing = false;
            selectedKeysDropped = false;
        }
    }

    private int processArrayKeys(SelectedKeyArraySet keys) {
        int handled = 0;
        // keys.size is re-read: a register() that flushed cancelled keys empties the set under this loop.
        for (int i = 0; i < keys.size; i++) {
            SelectionKey key = keys.keys[i];
            keys.keys[i] = null;
            if (dispatch(key)) {
                handled++;
            }
        }
        keys.clear();
        return handled;
    }

    private int processPlainKeys(Set<SelectionKey> keys) {
        if (keys.isEmpty()) {
            return 0;
        }
        int handled = 0;
        Iterator<SelectionKey> it = keys.iterator();
        while (it.hasNext()) {
            SelectionKey key = it.next();
            it.remove();
            if (dispatch(key)) {
                handled++;
            }
            if (selectedKeysDropped) {
                // The set was cleared and refilled under the iterator; what is still ready shows up again.
                break;
            }
        }
        return handled;
    }

    /** Tells one key's handle what is ready; {@code false} if the key turned out to be invalid. */
    private boolean dispatch(SelectionKey key) {
        NioRegistration registration = (NioRegistration) key.attachment();
        int readyOps;
        try {
            readyOps = key.readyOps();
        } catch (CancelledKeyException e) {
            // Cancelled since the select, by an earlier handle of this pass or by its channel being closed.
            keyInvalidated(registration);
            return false;
        }
        try {
            registration.handle.handle(registration, NioIoEvent.ofReadyOps(readyOps));
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "Unexpected exception from ", registration.handle,
                    " handling " + NioIoOps.describe(readyOps), t);
        }
        return true;
    }

    /** The key died under a registration: uncount it and close the handle, unless it was cancelled on purpose. */
    private static void keyInvalidated(NioRegistration registration) {
        if (registration.markCancelled()) {
            closeQuietly(registration.handle);
        }
    }

    private static void closeQuietly(IoHandle handle) {
        try {
            handle.close();
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "Failed to close ", handle, t);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Registers the handle's channel with interest ops {@link NioIoOps#NONE}; {@link IoRegistration#submit}
     * sets them. A channel whose previous registration was cancelled can register again at once.
     *
     * @throws IllegalArgumentException if {@code handle} is not a {@link NioIoHandle}
     * @throws IllegalStateException if the channel is already registered with this handler
     * @throws java.nio.channels.IllegalBlockingModeException if the channel is in blocking mode
     * @throws ClosedChannelException if the channel is closed
     */
    @Override
    public IoRegistration register(IoHandle handle) throws IOException {
        if (!(handle instanceof NioIoHandle)) {
            throw new IllegalArgumentException("incompatible handle: "
                    + (handle == null ? "null" : handle.getClass().getName())
                    + " (expected: " + NioIoHandle.class.getName() + ')');
        }
        NioIoHandle nioHandle = (NioIoHandle) handle;
        SelectableChannel channel = Objects.requireNonNull(nioHandle.selectableChannel(), "selectableChannel()");
        Selector sel = selector;
        SelectionKey existing = channel.keyFor(sel);
        if (existing != null) {
            if (existing.isValid()) {
                throw new IllegalStateException("channel already registered with this handler: " + channel);
            }
            flushCancelledKeys(sel);
        }
        NioRegistration registration = new NioRegistration(this, nioHandle);
        registration.key = channel.register(sel, 0, registration);
        REGISTRATIONS.incrementAndGet(this);
        return registration;
    }

    /**
     * A cancelled key keeps its channel registered until the next select, and registering that channel again
     * before then throws {@link CancelledKeyException}: select now to deregister it. What that select finds
     * ready is dropped; NIO readiness is level-triggered, so the next select reports it again.
     */
    private void flushCancelledKeys(Selector sel) throws IOException {
        sel.selectNow();
        if (selectedKeys != null) {
            selectedKeys.clear();
        } else {
            sel.selectedKeys().clear();
        }
        if (processing) {
            selectedKeysDropped = true;
        }
    }

    void registrationEnded() {
        REGISTRATIONS.decrementAndGet(this);
    }

    /**
     * Interrupts the current or next blocking select, once per select however often it is called. Any
     * thread.
     */
    @Override
    public void wakeup() {
        if (wakeupArmed != 0 && WAKEUP_ARMED.getAndSet(this, 0) != 0) {
            selector.wakeup();
        }
    }

    /** Closes every handle still registered, so their channels close while the loop still runs tasks. */
    @Override
    public void prepareToDestroy() {
        closeAll();
    }

    /** Closes every handle still registered, then the selector. */
    @Override
    public void destroy() {
        closeAll();
        try {
            selector.close();
        } catch (IOException e) {
            LOGGER.log(Level.WARNING, "Failed to close a selector", e);
        }
    }

    private void closeAll() {
        Selector sel = selector;
        if (!sel.isOpen()) {
            return;
        }
        for (SelectionKey key : sel.keys().toArray(new SelectionKey[0])) {
            NioRegistration registration = (NioRegistration) key.attachment();
            if (!registration.isCancelled()) {
                closeQuietly(registration.handle);
                // The handle's close usually cancels its registration; make sure it is uncounted either way.
                registration.cancel();
            }
        }
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return NioIoHandle.class.isAssignableFrom(handleType);
    }

    /** {@inheritDoc} Cancelled registrations and handles the handler closed are not counted. */
    @Override
    public int registrationCount() {
        return registrations;
    }

    @Override
    public String toString() {
        return "NioIoHandler(" + registrations + " registrations)";
    }
}
