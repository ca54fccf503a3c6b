package io.weir.util.platform;

import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * A {@link System.Logger} front whose calls never throw, for code on an event loop's path (task running, I/O
 * handlers, read/write/accept paths, the pipeline's fallbacks, promise notification).
 *
 * <p><b>Why.</b> A log call can throw anything: a logging back end that needs a file descriptor while the
 * process has none left (the first record of a process loads time-zone data), a broken appender, an
 * {@link OutOfMemoryError} while formatting. A catch block that logs and lets such an error escape turns one
 * failure into a dead event loop. Here the message is built inside the guard too (the parts are joined only
 * once the level is enabled), so a throwing {@code toString()} is contained as well.
 *
 * <p><b>When logging fails.</b> The record is written to {@link System#err} as one line, best effort; if that
 * also throws, the record is dropped. Either way {@link #failedRecords()} counts it, so a failing back end is
 * visible to monitoring.
 *
 * <p><b>Cost.</b> Nothing extra on the path that does not log: the guards are try/catch blocks, which cost
 * nothing until they run. Thread-safe.
 */
public final class LoopLogger {
    private static final LongAdder FAILED_RECORDS = new LongAdder();

    private final System.Logger logger;
    private final String name;

    /** A front for {@code logger} ({@code null}: every record goes to System.err); for tests. */
    LoopLogger(String name, System.Logger logger) {
        this.name = name;
        this.logger = logger;
    }

    private static System.Logger systemLogger(String name) {
        try {
            return System.getLogger(name);
        } catch (Throwable t) {
            // The logging back end cannot even hand out a logger: every record goes the System.err way.
            return null;
        }
    }

    /**
     * The logger named after {@code type}.
     *
     * @throws NullPointerException if {@code type} is null
     */
    public static LoopLogger of(Class<?> type) {
        String name = Objects.requireNonNull(type, "type").getName();
        return new LoopLogger(name, systemLogger(name));
    }

    /** Records that a log back end threw since the JVM started (each fell back to System.err or was dropped). */
    public static long failedRecords() {
        return FAILED_RECORDS.sum();
    }

    /** Whether {@code level} is enabled; {@code false} if the back end throws (the failure is counted). */
    public boolean isLoggable(Level level) {
        System.Logger l = logger;
        if (l == null) {
            return level.getSeverity() >= Level.WARNING.getSeverity();
        }
        try {
            return l.isLoggable(level);
        } catch (Throwable t) {
            FAILED_RECORDS.increment();
            return false;
        }
    }

    /** Logs {@code message}; never throws. */
    public void log(Level level, String message) {
        log(level, message, null, null, null);
    }

    /** Logs {@code message} with {@code thrown} (may be null); never throws. */
    public void log(Level level, String message, Throwable thrown) {
        log(level, message, null, null, thrown);
    }

    /** Logs {@code prefix + subject} with {@code thrown} (may be null); the text is built only if logged. */
    public void log(Level level, String prefix, Object subject, Throwable thrown) {
        log(level, prefix, subject, null, thrown);
    }

    /**
     * Logs {@code prefix + subject + suffix} with {@code thrown} (each but {@code prefix} and {@code level} may
     * be null); the text is built only if the level is enabled, and never throws, whatever the back end or
     * {@code subject.toString()} do.
     */
    public void log(Level level, String prefix, Object subject, String suffix, Throwable thrown) {
        String message = null;
        try {
            if (!isLoggable(level)) {
                return;
            }
            message = suffix == null && subject == null ? prefix : join(prefix, subject, suffix);
            System.Logger l = logger;
            if (l == null) {
                FAILED_RECORDS.increment();
                fallback(level, message, thrown);
                return;
            }
            l.log(level, message, thrown);
        } catch (Throwable t) {
            FAILED_RECORDS.increment();
            fallback(level, message != null ? message : prefix, thrown);
        }
    }

    /** Logs the text {@code message} supplies, asked for only if the level is enabled; never throws. */
    public void log(Level level, Supplier<String> message) {
        try {
            if (!isLoggable(level)) {
                return;
            }
            System.Logger l = logger;
            if (l == null) {
                FAILED_RECORDS.increment();
                fallback(level, message.get(), null);
                return;
            }
            l.log(level, message.get());
        } catch (Throwable t) {
            FAILED_RECORDS.increment();
            fallback(level, "(the message could not be built)", null);
        }
    }

    private static String join(String prefix, Object subject, String suffix) {
        String s;
        try {
            s = String.valueOf(subject);
        } catch (Throwable t) {
            // A throwing toString() must not lose the record: name the type instead.
            s = subject.getClass().getName() + " (toString() threw " + t.getClass().getName() + ')';
        }
        return suffix == null ? prefix + s : prefix + s + suffix;
    }

    private void fallback(Level level, String message, Throwable thrown) {
        try {
            PrintStream err = System.err;
            String line = level.getName() + ' ' + name + ": " + message;
            if (thrown != null) {
                line = line + " (" + thrown + ')';
            }
            err.println(line);
        } catch (Throwable ignored) {
            // Nothing left to tell: the record is dropped, and counted by the caller.
        }
    }

    @Override
    public String toString() {
        return "LoopLogger(" + name + ')';
    }
}
