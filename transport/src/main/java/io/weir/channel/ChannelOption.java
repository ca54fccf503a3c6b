package io.weir.channel;

import io.weir.buffer.ByteBufAllocator;
import java.net.NetworkInterface;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A typed option of a {@link ChannelConfig}. Options are interned by name, like {@link AttributeKey}s: the
 * constants below cover what Weir's transports understand, and {@link #valueOf(String)} makes custom ones
 * for transports of your own. Each option checks the values it is given ({@link #validate}); a
 * {@link ChannelConfig} calls that before applying a value. Thread-safe and immutable.
 *
 * @param <T> the type of the option's value
 */
public final class ChannelOption<T> {
    private static final ConcurrentMap<String, ChannelOption<?>> OPTIONS = new ConcurrentHashMap<>();

    /** Receive buffer allocator ({@link RecvByteBufAllocator}) deciding how much each read asks for. */
    public static final ChannelOption<RecvByteBufAllocator> RCVBUF_ALLOCATOR = define("RCVBUF_ALLOCATOR", null);
    /** The allocator of the buffers the channel reads into and writes from. */
    public static final ChannelOption<ByteBufAllocator> ALLOCATOR = define("ALLOCATOR", null);
    /** Estimates the size of queued outbound messages for the water marks. */
    public static final ChannelOption<MessageSizeEstimator> MESSAGE_SIZE_ESTIMATOR =
            define("MESSAGE_SIZE_ESTIMATOR", null);
    /** Milliseconds a connect may take before it fails; 0 disables the timeout. */
    public static final ChannelOption<Integer> CONNECT_TIMEOUT_MILLIS =
            define("CONNECT_TIMEOUT_MILLIS", v -> v < 0 ? "expected: >= 0" : null);
    /** Messages one read event may deliver before the loop turns to other channels. */
    public static final ChannelOption<Integer> MAX_MESSAGES_PER_READ =
            define("MAX_MESSAGES_PER_READ", v -> v <= 0 ? "expected: > 0" : null);
    /** Write attempts per flush before the loop turns to other channels. */
    public static final ChannelOption<Integer> WRITE_SPIN_COUNT =
            define("WRITE_SPIN_COUNT", v -> v <= 0 ? "expected: > 0" : null);
    /** The pending-bytes thresholds that flip {@link Channel#isWritable()}. */
    public static final ChannelOption<WriteBufferWaterMark> WRITE_BUFFER_WATER_MARK =
            define("WRITE_BUFFER_WATER_MARK", null);
    /** Whether the channel reads whenever it can ({@code true}) or only when {@link Channel#read()} asks. */
    public static final ChannelOption<Boolean> AUTO_READ = define("AUTO_READ", null);
    /** Whether a failed write closes the channel. */
    public static final ChannelOption<Boolean> AUTO_CLOSE = define("AUTO_CLOSE", null);
    /**
     * Whether the end of the peer's stream only shuts the input down (firing
     * {@link ChannelInputShutdownEvent}) instead of closing the channel.
     */
    public static final ChannelOption<Boolean> ALLOW_HALF_CLOSURE = define("ALLOW_HALF_CLOSURE", null);

    /** {@code SO_BROADCAST}. */
    public static final ChannelOption<Boolean> SO_BROADCAST = define("SO_BROADCAST", null);
    /** {@code SO_KEEPALIVE}. */
    public static final ChannelOption<Boolean> SO_KEEPALIVE = define("SO_KEEPALIVE", null);
    /** {@code SO_SNDBUF}, in bytes. */
    public static final ChannelOption<Integer> SO_SNDBUF = define("SO_SNDBUF", v -> v <= 0 ? "expected: > 0" : null);
    /** {@code SO_RCVBUF}, in bytes. */
    public static final ChannelOption<Integer> SO_RCVBUF = define("SO_RCVBUF", v -> v <= 0 ? "expected: > 0" : null);
    /** {@code SO_REUSEADDR}. */
    public static final ChannelOption<Boolean> SO_REUSEADDR = define("SO_REUSEADDR", null);
    /** {@code SO_LINGER}, in seconds; -1 turns it off. */
    public static final ChannelOption<Integer> SO_LINGER =
            define("SO_LINGER", v -> v < -1 ? "expected: >= -1" : null);
    /** The accept backlog of a server socket; 0 lets the system choose. */
    public static final ChannelOption<Integer> SO_BACKLOG =
            define("SO_BACKLOG", v -> v < 0 ? "expected: >= 0" : null);
    /** {@code SO_TIMEOUT}, in milliseconds, for blocking operations; 0 waits forever. */
    public static final ChannelOption<Integer> SO_TIMEOUT =
            define("SO_TIMEOUT", v -> v < 0 ? "expected: >= 0" : null);
    /** {@code IP_TOS}, 0 to 255. */
    public static final ChannelOption<Integer> IP_TOS =
            define("IP_TOS", v -> v < 0 || v > 255 ? "expected: 0..255" : null);
    /** {@code IP_MULTICAST_IF}. */
    public static final ChannelOption<NetworkInterface> IP_MULTICAST_IF = define("IP_MULTICAST_IF", null);
    /** {@code IP_MULTICAST_TTL}, 0 to 255. */
    public static final ChannelOption<Integer> IP_MULTICAST_TTL =
            define("IP_MULTICAST_TTL", v -> v < 0 || v > 255 ? "expected: 0..255" : null);
    /** Whether multicast loopback is disabled. */
    public static final ChannelOption<Boolean> IP_MULTICAST_LOOP_DISABLED = define("IP_MULTICAST_LOOP_DISABLED", null);
    /** {@code TCP_NODELAY}: send small segments at once instead of coalescing them (Nagle). */
    public static final ChannelOption<Boolean> TCP_NODELAY = define("TCP_NODELAY", null);

    private final String name;
    private final Check<T> check;

    private ChannelOption(String name, Check<T> check) {
        this.name = name;
        this.check = check;
    }

    private static <T> ChannelOption<T> define(String name, Check<T> check) {
        ChannelOption<T> option = new ChannelOption<>(name, check);
        if (OPTIONS.putIfAbsent(name, option) != null) {
            throw new IllegalStateException("duplicate option " + name);
        }
        return option;
    }

    /**
     * The option named {@code name}, created on first use (custom options accept any non-null value).
     *
     * @throws IllegalArgumentException if {@code name} is empty
     */
    @SuppressWarnings("unchecked")
    public static <T> ChannelOption<T> valueOf(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("name is empty");
        }
        return (ChannelOption<T>) OPTIONS.computeIfAbsent(name, n -> new ChannelOption<>(n, null));
    }

    /** Whether an option named {@code name} exists. */
    public static boolean exists(String name) {
        return OPTIONS.containsKey(Objects.requireNonNull(name, "name"));
    }

    /** The option's name. */
    public String name() {
        return name;
    }

    /**
     * Checks {@code value} for this option.
     *
     * @throws NullPointerException if {@code value} is null
     * @throws IllegalArgumentException if the value is out of range, naming the option and the value
     * @throws ClassCastException if the value has the wrong type (possible only through raw maps)
     */
    public void validate(T value) {
        Objects.requireNonNull(value, name);
        if (check != null) {
            String problem = check.problem(value);
            if (problem != null) {
                throw new IllegalArgumentException(name + ": " + value + " (" + problem + ')');
            }
        }
    }

    @Override
    public String toString() {
        return name;
    }

    @FunctionalInterface
    private interface Check<T> {
        /** What is wrong with {@code value}, or {@code null} if it is fine. */
        String problem(T value);
    }
}
