package io.weir.testing;

import java.util.ResourceBundle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A {@link System.LoggerFinder} whose loggers can be switched to throw an {@link Error} from every call, to
 * reproduce a logging back end that fails (as one does when the process has run out of file descriptors and
 * the first record needs one to load time-zone data). While not failing, records go to
 * {@link java.util.logging}, as with the JDK's default finder.
 *
 * <p>Not installed by this module: a test module that wants it lists this class in its own
 * {@code META-INF/services/java.lang.System$LoggerFinder} (test resources). A JVM started with
 * {@code -D}{@value #FAIL_PROPERTY}{@code =true} fails from its first log call. Thread-safe.
 */
public final class FailingLoggerFinder extends System.LoggerFinder {
    /** System property that makes logging fail from the start (for child JVMs). */
    public static final String FAIL_PROPERTY = "io.weir.testing.failingLogging";

    private static volatile boolean failing = Boolean.getBoolean(FAIL_PROPERTY);
    private static final AtomicLong FAILURES = new AtomicLong();

    /** Used by {@link java.util.ServiceLoader}. */
    public FailingLoggerFinder() {
    }

    /** Turns failing on or off for every logger of this finder. */
    public static void setFailing(boolean fail) {
        failing = fail;
    }

    /** How many log calls threw since the JVM started. */
    public static long failuresThrown() {
        return FAILURES.get();
    }

    @Override
    public System.Logger getLogger(String name, Module module) {
        return new FailingLogger(name);
    }

    /** The error every log call throws while failing. */
    public static final class LoggingFailure extends Error {
        private static final long serialVersionUID = 1L;

        LoggingFailure(String loggerName) {
            super("logging failed on purpose (FailingLoggerFinder), logger " + loggerName);
        }
    }

    private static final class FailingLogger implements System.Logger {
        private final String name;
        private final java.util.logging.Logger delegate;

        FailingLogger(String name) {
            this.name = name;
            this.delegate = java.util.logging.Logger.getLogger(name);
        }

        private void maybeFail() {
            if (failing) {
                FAILURES.incrementAndGet();
                throw new LoggingFailure(name);
            }
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public boolean isLoggable(Level level) {
            maybeFail();
            return delegate.isLoggable(julLevel(level));
        }

        @Override
        public void log(Level level, Supplier<String> msgSupplier) {
            maybeFail();
            if (delegate.isLoggable(julLevel(level))) {
                delegate.log(julLevel(level), msgSupplier.get());
            }
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            maybeFail();
            delegate.log(julLevel(level), msg, thrown);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            maybeFail();
            delegate.log(julLevel(level), format, params);
        }

        private static java.util.logging.Level julLevel(Level level) {
            return switch (level) {
                case ALL -> java.util.logging.Level.ALL;
                case TRACE -> java.util.logging.Level.FINER;
                case DEBUG -> java.util.logging.Level.FINE;
                case INFO -> java.util.logging.Level.INFO;
                case WARNING -> java.util.logging.Level.WARNING;
                case ERROR -> java.util.logging.Level.SEVERE;
                case OFF -> java.util.logging.Level.OFF;
            };
        }
    }
}
