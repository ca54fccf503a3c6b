package io.weir.channel.local;

import io.weir.channel.Channel;
import java.net.SocketAddress;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The address of a {@link LocalServerChannel}: a name, unique within the JVM while a server is bound to it.
 * Binding to {@link #ANY} binds to a fresh unique name instead. Immutable; names compare case-sensitively.
 */
public final class LocalAddress extends SocketAddress implements Comparable<LocalAddress> {
    private static final long serialVersionUID = 1L;

    /** Bind to this to get a new, unique name. */
    public static final LocalAddress ANY = new LocalAddress("ANY");

    private final String id;
    private final String strVal;

    /**
     * The address named {@code id} (surrounding white space removed).
     *
     * @throws IllegalArgumentException if {@code id} is blank
     */
    public LocalAddress(String id) {
        Objects.requireNonNull(id, "id");
        String trimmed = id.trim();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("id: '" + id + "' (expected: not blank)");
        }
        this.id = trimmed;
        this.strVal = "local:" + trimmed;
    }

    /** A unique address for {@code channel}, for channels that were not given one. */
    LocalAddress(Channel channel) {
        this("E" + channel.id().asShortText() + Long.toHexString(ThreadLocalRandom.current().nextLong())
                .toUpperCase(Locale.ROOT));
    }

    /** A fresh unique address, for servers bound to {@link #ANY}. */
    static LocalAddress newUnique() {
        return new LocalAddress("E" + Long.toHexString(ThreadLocalRandom.current().nextLong()).toUpperCase(Locale.ROOT)
                + Long.toHexString(System.nanoTime()).toUpperCase(Locale.ROOT));
    }

    /** The name. */
    public String id() {
        return id;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LocalAddress other && id.equals(other.id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public int compareTo(LocalAddress o) {
        return id.compareTo(o.id);
    }

    @Override
    public String toString() {
        return strVal;
    }
}
