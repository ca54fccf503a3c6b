package io.weir.grpc;

import java.util.concurrent.TimeUnit;

/**
 * The {@code grpc-timeout} request header (gRPC over HTTP/2, "Requests"): {@code TimeoutValue TimeoutUnit}, where
 * the value is a positive integer of at most 8 ASCII digits and the unit one of {@code H} (hours), {@code M}
 * (minutes), {@code S} (seconds), {@code m} (milliseconds), {@code u} (microseconds), {@code n} (nanoseconds).
 */
public final class GrpcTimeout {
    /** The most digits a {@code TimeoutValue} may have. */
    public static final int MAX_DIGITS = 8;
    /** The largest {@code TimeoutValue}: eight nines. */
    public static final long MAX_VALUE = 99_999_999L;

    /** The units, finest first, and their names on the wire. */
    private static final TimeUnit[] UNITS = {TimeUnit.NANOSECONDS, TimeUnit.MICROSECONDS, TimeUnit.MILLISECONDS,
        TimeUnit.SECONDS, TimeUnit.MINUTES, TimeUnit.HOURS};
    private static final String[] UNIT_NAMES = {"n", "u", "m", "S", "M", "H"};

    private GrpcTimeout() {
    }

    /**
     * The timeout {@code value} names, in nanoseconds. Every unit is accepted; 99,999,999 hours fits in a long.
     *
     * @throws IllegalArgumentException if {@code value} is not 1 to 8 ASCII digits followed by one of
     *         {@code HMSmun} (the message quotes it)
     */
    public static long parseNanos(CharSequence value) {
        int length = value.length();
        if (length < 2 || length > MAX_DIGITS + 1) {
            throw invalid(value);
        }
        long amount = 0;
        for (int i = 0; i < length - 1; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                throw invalid(value);
            }
            amount = amount * 10 + (c - '0');
        }
        return switch (value.charAt(length - 1)) {
            case 'H' -> TimeUnit.HOURS.toNanos(amount);
            case 'M' -> TimeUnit.MINUTES.toNanos(amount);
            case 'S' -> TimeUnit.SECONDS.toNanos(amount);
            case 'm' -> TimeUnit.MILLISECONDS.toNanos(amount);
            case 'u' -> TimeUnit.MICROSECONDS.toNanos(amount);
            case 'n' -> amount;
            default -> throw invalid(value);
        };
    }

    /**
     * {@code nanos} as a header value: the finest unit whose value fits in 8 digits (a coarser unit rounds down,
     * as the protocol allows), at least {@code 0n}.
     */
    public static String format(long nanos) {
        long n = Math.max(0, nanos);
        for (int i = 0; i < UNITS.length; i++) {
            long amount = UNITS[i].convert(n, TimeUnit.NANOSECONDS);
            if (amount <= MAX_VALUE) {
                return amount + UNIT_NAMES[i];
            }
        }
        return MAX_VALUE + "H";
    }

    private static IllegalArgumentException invalid(CharSequence value) {
        return new IllegalArgumentException("grpc-timeout: '" + value
                + "' (expected 1 to 8 digits and a unit of H, M, S, m, u or n)");
    }
}
