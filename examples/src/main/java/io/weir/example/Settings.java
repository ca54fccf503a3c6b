package io.weir.example;

import java.util.Objects;

/**
 * Reads an example's settings: a command-line argument at a given position wins over a system property
 * ({@code -Dio.weir.example.port=9000}), which wins over the default. Used once at start-up by a {@code main}
 * method, on the main thread.
 */
public final class Settings {
    /** Prefix of every property the examples read, following Weir's rule that its properties start with {@code io.weir.}. */
    public static final String PROPERTY_PREFIX = "io.weir.example.";

    private Settings() {
    }

    /**
     * The text of a setting, or {@code defaultValue} if neither argument nor property gives it.
     *
     * @param args the arguments given to {@code main}
     * @param index the position of this setting among the arguments
     * @param name the setting's name; the property is {@link #PROPERTY_PREFIX} followed by it
     */
    public static String string(String[] args, int index, String name, String defaultValue) {
        Objects.requireNonNull(args, "args");
        Objects.requireNonNull(name, "name");
        if (index < args.length) {
            return args[index];
        }
        // Examples read their properties straight from the JDK: io.weir.util.platform is internal to Weir.
        String property = System.getProperty(PROPERTY_PREFIX + name);
        return property != null ? property : defaultValue;
    }

    /**
     * A whole-number setting of at least {@code min}.
     *
     * @throws IllegalArgumentException if the value given is not a number or is below {@code min}
     */
    public static long number(String[] args, int index, String name, long defaultValue, long min) {
        String text = string(args, index, name, Long.toString(defaultValue));
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": " + text + " (expected: a whole number)", e);
        }
        if (value < min) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= " + min + ")");
        }
        return value;
    }

    /**
     * A TCP port setting, {@code 0} meaning any free port.
     *
     * @throws IllegalArgumentException if the value given is not a number from 0 to 65535
     */
    public static int port(String[] args, int index, int defaultValue) {
        long port = number(args, index, "port", defaultValue, 0);
        if (port > 65_535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 0-65535)");
        }
        return (int) port;
    }

    /** Formats a byte rate for a person: {@code bytes} over {@code nanos} as MiB/s with two decimals. */
    public static String throughput(long bytes, long nanos) {
        double seconds = Math.max(nanos, 1) / 1e9;
        double mibPerSecond = bytes / seconds / (1024 * 1024);
        return Math.round(mibPerSecond * 100) / 100.0 + " MiB/s (" + bytes + " bytes in "
                + Math.round(seconds * 1000) / 1000.0 + " s)";
    }
}
