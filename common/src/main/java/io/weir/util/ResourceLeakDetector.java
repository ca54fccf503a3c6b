package io.weir.util;

import io.weir.util.internal.LeakRecord;
import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.SystemProperties;
import java.lang.System.Logger;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * Finds objects that became unreachable without being released, by sampling: {@link #track} hands out a
 * {@link ResourceLeakTracker} for some of the objects it is given, and a tracker that is garbage-collected
 * while still open is reported as a leak.
 *
 * <h2>Levels</h2>
 * Set with {@code -Dio.weir.leakDetection.level} ({@value #LEVEL_PROPERTY}) or {@link #setLevel} at run
 * time; a detector built with {@link Builder#level} keeps its own.
 * <ul>
 * <li>{@link Level#DISABLED}: {@link #track} returns {@code null}.</li>
 * <li>{@link Level#SIMPLE} (the default): one object in {@code samplingInterval} is tracked; a report says
 *     which type leaked, without records.</li>
 * <li>{@link Level#ADVANCED}: as SIMPLE, and each tracker keeps its creation stack and the most recent
 *     access records ({@link ResourceLeakTracker#record}).</li>
 * <li>{@link Level#PARANOID}: as ADVANCED for every object. For tests; costly.</li>
 * </ul>
 *
 * <h2>Records</h2>
 * A tracker keeps its creation record and at most {@code targetRecords} access records
 * ({@value #TARGET_RECORDS_PROPERTY}, default {@value #DEFAULT_TARGET_RECORDS}). The newest access is
 * always kept; when the tracker is full, making room usually drops the previous newest, and, with a
 * probability that halves each time it happens, keeps it and drops the oldest instead. So a report shows
 * where the object was created, where it was last used, and a sample of its earlier life that thins out
 * going back. Records are pushed on a lock-free stack and capture the stack cheaply (a native back-trace);
 * frames are formatted only when a leak is reported.
 *
 * <h2>Reporting</h2>
 * All detectors share one reference queue. It is polled, and every collected open tracker reported, each
 * time any detector creates a tracker and whenever {@link #reportCollectedLeaks()} is called. Identical
 * reports from one detector are made once. Each detector hands its reports to its {@link LeakReporter};
 * the default reporter logs at ERROR through {@link System.Logger} and passes the text to every listener
 * registered with {@link #addLeakListener}.
 *
 * <p>Detectors are created with {@link #newDetector(Class)}, {@link #newDetector(Class, LeakReporter)} or
 * {@link #builder(Class)}, once per resource type, and kept in a {@code static final} field: the trackers of
 * a detector that is itself collected are never reported. All methods are thread-safe.
 *
 * @param <T> the type of the tracked objects
 */
public final class ResourceLeakDetector<T> {
    /** {@code io.weir.leakDetection.level}: DISABLED, SIMPLE, ADVANCED or PARANOID (any case). */
    public static final String LEVEL_PROPERTY = "io.weir.leakDetection.level";
    /** The level when {@value #LEVEL_PROPERTY} is unset or unparsable. */
    public static final Level DEFAULT_LEVEL = Level.SIMPLE;
    /** {@code io.weir.leakDetection.samplingInterval}: below PARANOID, track one object in this many. */
    public static final String SAMPLING_INTERVAL_PROPERTY = "io.weir.leakDetection.samplingInterval";
    /** One object in 128 is tracked by default. */
    public static final int DEFAULT_SAMPLING_INTERVAL = 128;
    /** {@code io.weir.leakDetection.targetRecords}: access records kept per tracker at ADVANCED and above. */
    public static final String TARGET_RECORDS_PROPERTY = "io.weir.leakDetection.targetRecords";
    /** Four access records per tracker by default (plus the creation record). */
    public static final int DEFAULT_TARGET_RECORDS = 4;
    /** Distinct reports a detector remembers to suppress duplicates; beyond it, new reports are not remembered. */
    public static final int MAX_REMEMBERED_REPORTS = 4096;

    private static final LoopLogger LOGGER = LoopLogger.of(ResourceLeakDetector.class);
    private static final String OWN_CLASS = ResourceLeakDetector.class.getName();
    private static final int MAX_PROMOTION_SHIFT = 30;

    /** The one queue the collector puts every detector's dead trackers on. */
    private static final ReferenceQueue<Object> COLLECTED = new ReferenceQueue<>();
    private static final List<Consumer<String>> LISTENERS = new CopyOnWriteArrayList<>();
    private static final int PROPERTY_SAMPLING_INTERVAL = positiveOr(
            SystemProperties.getInt(SAMPLING_INTERVAL_PROPERTY, DEFAULT_SAMPLING_INTERVAL),
            SAMPLING_INTERVAL_PROPERTY, DEFAULT_SAMPLING_INTERVAL);
    private static final int PROPERTY_TARGET_RECORDS = positiveOr(
            SystemProperties.getInt(TARGET_RECORDS_PROPERTY, DEFAULT_TARGET_RECORDS),
            TARGET_RECORDS_PROPERTY, DEFAULT_TARGET_RECORDS);
    private static final LeakReporter DEFAULT_REPORTER = ResourceLeakDetector::logAndNotify;

    private static volatile Level level = Level.parse(SystemProperties.get(LEVEL_PROPERTY), DEFAULT_LEVEL);

    private final String resourceType;
    private final int samplingInterval;
    private final int targetRecords;
    private final Level fixedLevel;
    private final LeakReporter reporter;
    // Keeps open trackers strongly reachable: a PhantomReference that is itself garbage is never enqueued.
    /**
     * Every open tracker of every detector. Global on purpose: a tracker only reaches the reference queue if
     * it is itself still reachable when its object dies, and a per-detector set would die with a detector
     * that its creator dropped, silently losing the leaks of every object it tracked. A tracker refers to
     * its detector, so a detector lives exactly as long as it has open trackers.
     */
    private static final Set<Tracker<?>> OPEN_TRACKERS = ConcurrentHashMap.newKeySet();
    private final Set<String> reportedLeaks = ConcurrentHashMap.newKeySet();

    /** How much a detector watches; see the class comment. */
    public enum Level {
        /** Nothing is tracked. */
        DISABLED,
        /** Sampled objects are tracked, without access records. */
        SIMPLE,
        /** Sampled objects are tracked with their creation and recent access records. */
        ADVANCED,
        /** Every object is tracked with its creation and recent access records. */
        PARANOID;

        /**
         * The level named {@code value} (any case, surrounding blanks ignored), or {@code defaultLevel} when
         * {@code value} is {@code null}, blank or unknown (logged).
         */
        public static Level parse(String value, Level defaultLevel) {
            if (value == null || value.isBlank()) {
                return defaultLevel;
            }
            String name = value.trim().toUpperCase(Locale.ROOT);
            for (Level l : values()) {
                if (l.name().equals(name)) {
                    return l;
                }
            }
            LOGGER.log(Logger.Level.WARNING, "unknown leak detection level '" + value + "'; using " + defaultLevel);
            return defaultLevel;
        }
    }

    /**
     * Receives a detector's leak reports. Called on whichever thread polled the reference queue (one that
     * created a tracker, or called {@link #reportCollectedLeaks()}), so it must be thread-safe and quick; what
     * it throws is logged and otherwise ignored.
     */
    @FunctionalInterface
    public interface LeakReporter {
        /**
         * @param resourceType the name of the detector's resource type
         * @param report the full report, records formatted
         */
        void reportLeak(String resourceType, String report);
    }

    private ResourceLeakDetector(Builder builder) {
        this.resourceType = builder.resourceType.getName();
        this.samplingInterval = builder.samplingInterval;
        this.targetRecords = builder.targetRecords;
        this.fixedLevel = builder.level;
        this.reporter = builder.reporter;
    }

    /**
     * A detector for {@code resourceType} with the sampling interval and record count of the system
     * properties, following the global level, reporting through the default reporter (log and listeners).
     *
     * @throws NullPointerException if {@code resourceType} is {@code null}
     */
    public static <T> ResourceLeakDetector<T> newDetector(Class<?> resourceType) {
        return builder(resourceType).build();
    }

    /**
     * As {@link #newDetector(Class)}, but handing reports to {@code reporter} instead of the default reporter
     * (so global listeners do not hear of them).
     *
     * @throws NullPointerException if an argument is {@code null}
     */
    public static <T> ResourceLeakDetector<T> newDetector(Class<?> resourceType, LeakReporter reporter) {
        return builder(resourceType).reporter(reporter).build();
    }

    /**
     * A builder for a detector of {@code resourceType}, starting from the defaults of {@link #newDetector(Class)}.
     *
     * @throws NullPointerException if {@code resourceType} is {@code null}
     */
    public static Builder builder(Class<?> resourceType) {
        return new Builder(resourceType);
    }

    /** The level detectors follow unless built with their own. */
    public static Level level() {
        return level;
    }

    /**
     * Changes the level of every detector not built with its own; trackers already handed out keep the
     * behaviour they were created with.
     *
     * @throws NullPointerException if {@code newLevel} is {@code null}
     */
    public static void setLevel(Level newLevel) {
        level = Objects.requireNonNull(newLevel, "newLevel");
    }

    /**
     * Adds a listener that receives the text of every leak reported through the default reporter. Listeners
     * run on the reporting thread and must be thread-safe; what they throw is logged.
     *
     * @throws NullPointerException if {@code listener} is {@code null}
     */
    public static void addLeakListener(Consumer<String> listener) {
        LISTENERS.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Removes a listener added with {@link #addLeakListener}.
     *
     * @return whether it was registered
     */
    public static boolean removeLeakListener(Consumer<String> listener) {
        return LISTENERS.remove(listener);
    }

    /**
     * Polls the shared reference queue now and reports every collected tracker that was still open, each
     * through its own detector's reporter. Call it after a garbage collection to hear of leaks without waiting
     * for the next {@link #track}.
     *
     * @return the number of leaks reported (duplicates a detector suppressed are not counted)
     */
    public static int reportCollectedLeaks() {
        int reported = 0;
        for (Reference<?> ref; (ref = COLLECTED.poll()) != null; ) {
            if (ref instanceof Tracker<?> tracker && tracker.reportIfOpen()) {
                reported++;
            }
        }
        return reported;
    }

    /** The name of the resource type this detector reports. */
    public String resourceType() {
        return resourceType;
    }

    /** Below PARANOID, one object in this many is tracked. */
    public int samplingInterval() {
        return samplingInterval;
    }

    /** The most access records a tracker keeps at ADVANCED and above. */
    public int targetRecords() {
        return targetRecords;
    }

    /**
     * Maybe starts tracking {@code obj}, depending on the level and sampling, and reports any leaks collected
     * since the last poll.
     *
     * @return a tracker to {@link ResourceLeakTracker#close close} when {@code obj} is released, or
     *         {@code null} when {@code obj} is not tracked
     * @throws NullPointerException if {@code obj} is {@code null}
     */
    public ResourceLeakTracker<T> track(T obj) {
        Objects.requireNonNull(obj, "obj");
        Level lvl = fixedLevel != null ? fixedLevel : level;
        if (lvl == Level.DISABLED) {
            return null;
        }
        if (lvl != Level.PARANOID && samplingInterval > 1
                && ThreadLocalRandom.current().nextInt(samplingInterval) != 0) {
            return null;
        }
        reportCollectedLeaks();
        Tracker<T> tracker = new Tracker<>(obj, this, lvl == Level.SIMPLE ? 0 : targetRecords);
        OPEN_TRACKERS.add(tracker);
        return tracker;
    }

    /** Trackers handed out and neither closed nor reported yet (for tests). */
    int openTrackerCount() {
        int count = 0;
        for (Tracker<?> t : OPEN_TRACKERS) {
            if (t.detector == this) {
                count++;
            }
        }
        return count;
    }

    private boolean report(LeakRecord top, int droppedRecords) {
        String report = formatReport(top, droppedRecords);
        if (reportedLeaks.contains(report)) {
            return false;
        }
        if (reportedLeaks.size() < MAX_REMEMBERED_REPORTS && !reportedLeaks.add(report)) {
            return false;
        }
        try {
            reporter.reportLeak(resourceType, report);
        } catch (RuntimeException e) {
            LOGGER.log(Logger.Level.WARNING, "a leak reporter threw", e);
        }
        return true;
    }

    private String formatReport(LeakRecord top, int droppedRecords) {
        StringBuilder out = new StringBuilder(512);
        out.append("LEAK: a ").append(resourceType)
                .append(" was garbage-collected without being released; what it held is lost.\n");
        if (!top.hasStack()) {
            out.append("No access records were kept. To see where it was created and used, run with -D")
                    .append(LEVEL_PROPERTY).append("=ADVANCED (sampled) or =PARANOID (every object).\n");
            return out.toString();
        }
        int accesses = top.position();
        if (accesses == 0) {
            out.append("It was never accessed after creation (no record() or touch() calls).\n");
        } else {
            out.append("Recent access records (newest first):\n");
        }
        for (LeakRecord r = top; r != null; r = r.next()) {
            if (r.position() == 0) {
                out.append("Created at:\n");
            } else {
                out.append('#').append(accesses - r.position() + 1).append(":\n");
            }
            if (r.hint() != null) {
                out.append("\tHint: ").append(r.hint()).append('\n');
            }
            r.appendStack(out, OWN_CLASS);
        }
        if (droppedRecords > 0) {
            out.append(droppedRecords).append(" older access record(s) were dropped to keep ").append(targetRecords)
                    .append("; to keep more, raise -D").append(TARGET_RECORDS_PROPERTY).append(".\n");
        }
        return out.toString();
    }

    private static void logAndNotify(String resourceType, String report) {
        LOGGER.log(Logger.Level.ERROR, report);
        for (Consumer<String> listener : LISTENERS) {
            try {
                listener.accept(report);
            } catch (RuntimeException e) {
                LOGGER.log(Logger.Level.WARNING, "a leak listener threw", e);
            }
        }
    }

    private static int positiveOr(int value, String property, int defaultValue) {
        if (value > 0) {
            return value;
        }
        LOGGER.log(Logger.Level.WARNING, "-D" + property + "=" + value + " is not positive; using " + defaultValue);
        return defaultValue;
    }

    /** Options for one detector; not thread-safe, use it on one thread and throw it away. */
    public static final class Builder {
        private final Class<?> resourceType;
        private int samplingInterval = PROPERTY_SAMPLING_INTERVAL;
        private int targetRecords = PROPERTY_TARGET_RECORDS;
        private Level level;
        private LeakReporter reporter = DEFAULT_REPORTER;

        private Builder(Class<?> resourceType) {
            this.resourceType = Objects.requireNonNull(resourceType, "resourceType");
        }

        /**
         * Below PARANOID, track one object in {@code interval} (1: all).
         *
         * @throws IllegalArgumentException if {@code interval} is not positive
         */
        public Builder samplingInterval(int interval) {
            if (interval <= 0) {
                throw new IllegalArgumentException("samplingInterval: " + interval + " (expected: > 0)");
            }
            this.samplingInterval = interval;
            return this;
        }

        /**
         * Keep at most {@code records} access records per tracker at ADVANCED and above.
         *
         * @throws IllegalArgumentException if {@code records} is not positive
         */
        public Builder targetRecords(int records) {
            if (records <= 0) {
                throw new IllegalArgumentException("targetRecords: " + records + " (expected: > 0)");
            }
            this.targetRecords = records;
            return this;
        }

        /** Use {@code fixedLevel} whatever the global level; {@code null} follows the global level again. */
        public Builder level(Level fixedLevel) {
            this.level = fixedLevel;
            return this;
        }

        /**
         * Hand reports to {@code leakReporter} instead of logging them and notifying the global listeners.
         *
         * @throws NullPointerException if {@code leakReporter} is {@code null}
         */
        public Builder reporter(LeakReporter leakReporter) {
            this.reporter = Objects.requireNonNull(leakReporter, "leakReporter");
            return this;
        }

        /** The detector. */
        public <T> ResourceLeakDetector<T> build() {
            return new ResourceLeakDetector<>(this);
        }
    }

    /**
     * Open while {@code head} is non-null; closing or reporting swaps it to {@code null}, so exactly one of
     * them wins. The phantom referent is the tracked object.
     */
    private static final class Tracker<T> extends PhantomReference<Object> implements ResourceLeakTracker<T> {
        private static final VarHandle HEAD;

        static {
            try {
                HEAD = MethodHandles.lookup().findVarHandle(Tracker.class, "head", LeakRecord.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final ResourceLeakDetector<?> detector;
        private final int targetRecords;
        private final int trackedHash;
        // Spares the identity hash (and its header write) that ConcurrentHashMap would otherwise ask for.
        private final int hash;
        @SuppressWarnings("unused")
        private volatile LeakRecord head;
        // Both counters are approximate: threads that win consecutive CASes may race on them. That only
        // shifts a probability and a number in the report.
        private volatile int droppedRecords;
        private volatile int promotions;

        Tracker(Object referent, ResourceLeakDetector<?> detector, int targetRecords) {
            super(referent, COLLECTED);
            this.detector = detector;
            this.targetRecords = targetRecords;
            this.trackedHash = System.identityHashCode(referent);
            this.hash = ThreadLocalRandom.current().nextInt();
            this.head = targetRecords == 0 ? LeakRecord.NO_RECORDS : new LeakRecord(null);
        }

        @Override
        public void record() {
            if (targetRecords != 0) {
                push(null);
            }
        }

        @Override
        public void record(Object hint) {
            if (targetRecords != 0) {
                push(hint instanceof ResourceLeakHint h ? h.toHintString() : hint == null ? null : String.valueOf(hint));
            }
        }

        private void push(String hint) {
            LeakRecord record = new LeakRecord(hint);
            for (;;) {
                LeakRecord top = (LeakRecord) HEAD.getVolatile(this);
                if (top == null) {
                    return;
                }
                int count = top.position();
                boolean dropped = false;
                boolean promoted = false;
                if (count < targetRecords) {
                    record.link(top, count + 1);
                } else {
                    dropped = true;
                    int shift = Math.min(promotions, MAX_PROMOTION_SHIFT);
                    promoted = (ThreadLocalRandom.current().nextInt() & ((1 << shift) - 1)) == 0;
                    // Promoting keeps the previous newest and drops the oldest access record instead.
                    record.link(promoted ? withoutOldest(top) : top.next(), count);
                }
                if (HEAD.compareAndSet(this, top, record)) {
                    if (dropped) {
                        droppedRecords++;
                    }
                    if (promoted) {
                        promotions++;
                    }
                    return;
                }
            }
        }

        /** Copies of the records above the oldest access record, re-linked onto the creation record. */
        private static LeakRecord withoutOldest(LeakRecord top) {
            int keep = top.position() - 1;
            LeakRecord[] kept = new LeakRecord[keep];
            LeakRecord r = top;
            for (int i = 0; i < keep; i++) {
                kept[i] = r;
                r = r.next();
            }
            LeakRecord below = r.next();
            for (int i = keep - 1; i >= 0; i--) {
                below = kept[i].copyOnto(below, kept[i].position() - 1);
            }
            return below;
        }

        @Override
        public boolean close(T trackedObject) {
            Objects.requireNonNull(trackedObject, "trackedObject");
            if (System.identityHashCode(trackedObject) != trackedHash) {
                throw new IllegalArgumentException("closing the tracker of another object: "
                        + trackedObject.getClass().getName() + " is not the tracked " + detector.resourceType);
            }
            try {
                return closeNow();
            } finally {
                // Until here the object must count as reachable, or the collector could enqueue this tracker
                // while it is being closed and the leak would be reported falsely.
                Reference.reachabilityFence(trackedObject);
            }
        }

        private boolean closeNow() {
            if (HEAD.getAndSet(this, (LeakRecord) null) == null) {
                return false;
            }
            OPEN_TRACKERS.remove(this);
            clear();
            return true;
        }

        boolean reportIfOpen() {
            LeakRecord top = (LeakRecord) HEAD.getAndSet(this, (LeakRecord) null);
            if (top == null) {
                return false;
            }
            OPEN_TRACKERS.remove(this);
            return detector.report(top, droppedRecords);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return this == o;
        }
    }
}
