package io.weir.handler.codec.string;

import java.util.Objects;

/**
 * The separator {@link LineEncoder} appends to each line. Immutable.
 *
 * @param value the separator's characters
 */
public record LineSeparator(String value) {
    /** {@code "\n"}. */
    public static final LineSeparator UNIX = new LineSeparator("\n");
    /** {@code "\r\n"}, as text protocols (SMTP, HTTP/1.1 headers) require. */
    public static final LineSeparator WINDOWS = new LineSeparator("\r\n");
    /** The platform's separator, {@link System#lineSeparator()}. */
    public static final LineSeparator DEFAULT = new LineSeparator(System.lineSeparator());

    /** @throws NullPointerException if {@code value} is null */
    public LineSeparator {
        Objects.requireNonNull(value, "value");
    }
}
