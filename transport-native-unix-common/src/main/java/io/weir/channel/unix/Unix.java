package io.weir.channel.unix;

/**
 * Whether this package's natives are usable. They live in a native transport's library, not in a library of
 * their own: they become available when a transport loads its library (for example through
 * {@code io.weir.channel.epoll.Epoll.ensureAvailability()}). Until then every class of this package that needs
 * them throws the {@link UnsatisfiedLinkError} of {@link #ensureAvailability()} from its first use.
 *
 * <p>Thread-safe.
 */
public final class Unix {
    // Only ever flips to true: once registered, natives stay registered for the life of the class loader.
    private static volatile boolean available;

    private Unix() {
    }

    /** Whether a native transport has registered this package's natives. */
    public static boolean isAvailable() {
        if (available) {
            return true;
        }
        try {
            UnixNative.iovMax();
            available = true;
            return true;
        } catch (UnsatisfiedLinkError e) {
            return false;
        }
    }

    /**
     * Returns normally if {@link #isAvailable()}.
     *
     * @throws UnsatisfiedLinkError naming what to load first, with the JVM's own error as the cause
     */
    public static void ensureAvailability() {
        if (available) {
            return;
        }
        try {
            UnixNative.iovMax();
            available = true;
        } catch (UnsatisfiedLinkError e) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("io.weir.channel.unix natives are not registered:"
                    + " load a native transport first (e.g. io.weir.channel.epoll.Epoll.ensureAvailability())");
            error.initCause(e);
            throw error;
        }
    }
}
