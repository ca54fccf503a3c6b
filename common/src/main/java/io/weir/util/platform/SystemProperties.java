package io.weir.util.platform;

import java.lang.System.Logger.Level;

/**
 * The one place that reads Weir's {@code io.weir.*} system properties.
 *
 * <p>Every property Weir reads is documented next to the constant that holds its default. A value that
 * does not parse is logged once and replaced by the default, so a typo never stops an application.
 * Safe to call from any thread.
 */
public final class SystemProperties {
    /** The prefix every Weir property carries. */
    public static final String PREFIX = "io.weir.";

    private static final LoopLogger LOGGER = LoopLogger.of(SystemProperties.class);

    private SystemProperties() {
    }

    /**
     * Returns the value of {@code key}, or {@code null} when unset or unreadable.
     *
     * @throws IllegalArgumentException if {@code key} lacks the {@code io.weir.} prefix
     */
    public static String get(String key) {
        checkKey(key);
        try {
            return System.getProperty(key);
        } catch (SecurityException e) {
            LOGGER.log(Level.DEBUG, "cannot read system property " + key, e);
            return null;
        }
    }

    /** Returns the value of {@code key}, or {@code defaultValue} when unset or blank. */
    public static String get(String key, String defaultValue) {
        String value = get(key);
        return value == null || value.isBlank() ? defaultValue : value.trim();
    }

    /** Returns {@code key} as a boolean ({@code true}/{@code false}/empty meaning true), or the default. */
    public static boolean getBoolean(String key, boolean defaultValue) {
        String value = get(key);
        if (value == null) {
            return defaultValue;
        }
        value = value.trim();
        if (value.isEmpty() || "true".equalsIgnoreCase(value)) {
            return true;
        }
        if ("false".equalsIgnoreCase(value)) {
            return false;
        }
        warnUnparsable(key, value, defaultValue);
        return defaultValue;
    }

    /** Returns {@code key} as an int, or the default when unset or not a number. */
    public static int getInt(String key, int defaultValue) {
        String value = get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            warnUnparsable(key, value, defaultValue);
            return defaultValue;
        }
    }

    /** Returns {@code key} as a long, or the default when unset or not a number. */
    public static long getLong(String key, long defaultValue) {
        String value = get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            warnUnparsable(key, value, defaultValue);
            return defaultValue;
        }
    }

    private static void checkKey(String key) {
        if (!key.startsWith(PREFIX)) {
            throw new IllegalArgumentException("Weir system properties start with " + PREFIX + ": " + key);
        }
    }

    private static void warnUnparsable(String key, String value, Object defaultValue) {
        LOGGER.log(Level.WARNING, "ignoring -D" + key + "=" + value + " (cannot parse it); using " + defaultValue);
    }
}
