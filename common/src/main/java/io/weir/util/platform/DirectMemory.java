package io.weir.util.platform;

import io.weir.util.OutOfDirectMemoryError;
import io.weir.util.internal.UnsafeDirectBuffers;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Allocates, reallocates and frees direct memory explicitly, counting it against a limit.
 *
 * <h2>How memory is obtained (decided once, at class initialisation)</h2>
 * <ol>
 *   <li>{@link PlatformInfo#hasUnsafe()} and {@code java.nio} opened to Weir
 *       ({@code --add-opens java.base/java.nio=io.weir.common}, {@code =ALL-UNNAMED} on the class path):
 *       {@code Unsafe.allocateMemory} wrapped in a {@code DirectByteBuffer} without a Cleaner;
 *       {@link #free} returns the memory at once and {@link #reallocate} may grow in place.</li>
 *   <li>Unsafe without that opening: {@link ByteBuffer#allocateDirect}; {@link #free} runs the buffer's
 *       Cleaner at once.</li>
 *   <li>No Unsafe: {@link ByteBuffer#allocateDirect}; {@link #free} only updates the accounting and drops
 *       Weir's reference, and the garbage collector returns the memory later.</li>
 * </ol>
 * {@link #isFreedImmediately()} tells whether {@link #free} returns memory at once. Contents of new memory are
 * unspecified (not zeroed on path 1). Paths 2 and 3 also count against the JDK's own direct-memory limit.
 *
 * <h2>Ownership</h2>
 * {@link #allocate} hands the caller a buffer it owns; the owner must hand it back exactly once, to
 * {@link #reallocate} or {@link #free} of the same instance, and never touch it (nor slices or duplicates of
 * it, nor its address) afterwards: on paths 1 and 2 that memory is gone and a stray access can crash the
 * JVM. Each instance tracks the buffers it handed out by identity, so freeing twice, or freeing a buffer it
 * did not allocate (a slice, a duplicate, a heap buffer), throws {@link IllegalArgumentException} instead of
 * corrupting the heap. A buffer never handed back is a leak, on every path.
 *
 * <h2>Limit</h2>
 * {@link #global()} counts against {@value #MAX_DIRECT_MEMORY_PROPERTY}; {@link #withLimit(long)} makes an
 * independent counter (for one allocator, or a test). All methods are thread-safe and lock-free apart
 * from the tracking set's internal striping.
 */
public final class DirectMemory {
    /**
     * {@code io.weir.maxDirectMemory}: the most direct memory, in bytes, that {@link #global()} hands out.
     * Unset or negative ({@value #DEFAULT_MAX_DIRECT_MEMORY_BYTES}): the JVM's own direct memory limit (see
     * {@link #jvmMaxDirectMemory()}); {@code 0}: no Weir limit (only the OS and, on the allocateDirect
     * paths, the JDK bound it); positive: that many bytes.
     */
    public static final String MAX_DIRECT_MEMORY_PROPERTY = "io.weir.maxDirectMemory";
    /** Default of {@value #MAX_DIRECT_MEMORY_PROPERTY}: follow the JVM's limit. */
    public static final long DEFAULT_MAX_DIRECT_MEMORY_BYTES = -1;

    private static final LoopLogger LOGGER = LoopLogger.of(DirectMemory.class);
    private static final boolean UNSAFE = PlatformInfo.hasUnsafe();
    private static final long JVM_MAX_DIRECT_MEMORY_BYTES = findJvmMaxDirectMemory();
    private static final DirectMemory GLOBAL = new DirectMemory(configuredGlobalLimit());

    private final long maxBytes;
    private final AtomicLong usedBytes = new AtomicLong();
    private final Set<Allocation> live = ConcurrentHashMap.newKeySet();

    private DirectMemory(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The process-wide instance, limited by {@value #MAX_DIRECT_MEMORY_PROPERTY}. */
    public static DirectMemory global() {
        return GLOBAL;
    }

    /**
     * A new instance with its own counter that hands out at most {@code maxBytes} in total
     * ({@link Long#MAX_VALUE}: no limit). Its allocations are not counted by {@link #global()}.
     *
     * @throws IllegalArgumentException if {@code maxBytes} is not positive
     */
    public static DirectMemory withLimit(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: > 0)");
        }
        return new DirectMemory(maxBytes);
    }

    /** Whether {@link #free} returns memory to the OS at once (paths 1 and 2 above) rather than to the GC. */
    public static boolean isFreedImmediately() {
        return UNSAFE;
    }

    /** Whether buffers are made without a Cleaner (path 1 above). */
    public static boolean isCleanerFree() {
        return UNSAFE && UnsafeDirectBuffers.isCleanerFree();
    }

    /**
     * The JVM's direct memory limit in bytes, found in this order: {@code jdk.internal.misc.VM.maxDirectMemory()}
     * when {@code java.base/jdk.internal.misc} is exported to Weir; else the last
     * {@code -XX:MaxDirectMemorySize} in {@code JAVA_TOOL_OPTIONS}, {@code JDK_JAVA_OPTIONS}, the process
     * command line and {@code _JAVA_OPTIONS} (HotSpot's precedence); else {@link Runtime#maxMemory()}, which
     * is the JDK's default when the flag is absent or 0.
     */
    public static long jvmMaxDirectMemory() {
        return JVM_MAX_DIRECT_MEMORY_BYTES;
    }

    /** The limit of this instance in bytes ({@link Long#MAX_VALUE} when unlimited). */
    public long maxDirectMemory() {
        return maxBytes;
    }

    /** The bytes currently allocated through this instance and not yet freed. */
    public long usedDirectMemory() {
        return usedBytes.get();
    }

    /**
     * Allocates a direct buffer of {@code capacity} bytes, big-endian, position 0, limit = capacity,
     * contents unspecified. The caller owns it (see the class documentation).
     *
     * @throws IllegalArgumentException if {@code capacity} is negative
     * @throws OutOfDirectMemoryError if this instance's limit would be exceeded
     * @throws OutOfMemoryError if the OS or the JDK refuses the memory
     */
    public ByteBuffer allocate(int capacity) {
        checkCapacity(capacity);
        reserve(capacity);
        ByteBuffer buffer;
        try {
            buffer = UNSAFE ? UnsafeDirectBuffers.allocate(capacity) : ByteBuffer.allocateDirect(capacity);
        } catch (Throwable t) {
            usedBytes.addAndGet(-capacity);
            throw t;
        }
        live.add(new Allocation(buffer));
        return buffer;
    }

    /**
     * Returns a buffer of {@code newCapacity} bytes whose first {@code min(old, new)} bytes are those of
     * {@code buffer}; the rest is unspecified. {@code buffer} is handed back and must not be used again
     * (even when the result happens to share its memory). If this throws, {@code buffer} is still owned
     * by the caller and unchanged.
     *
     * @throws IllegalArgumentException if {@code newCapacity} is negative, or {@code buffer} was not
     *         allocated by this instance or was already freed
     * @throws OutOfDirectMemoryError if growing would exceed this instance's limit
     */
    public ByteBuffer reallocate(ByteBuffer buffer, int newCapacity) {
        Objects.requireNonNull(buffer, "buffer");
        checkCapacity(newCapacity);
        Allocation old = new Allocation(buffer);
        if (!live.remove(old)) {
            throw notOwned(buffer);
        }
        int oldCapacity = buffer.capacity();
        long growth = (long) newCapacity - oldCapacity;
        ByteBuffer result;
        try {
            if (growth > 0) {
                reserve(growth);
            }
            try {
                result = UNSAFE ? UnsafeDirectBuffers.reallocate(buffer, newCapacity) : copyToNew(buffer, newCapacity);
            } catch (Throwable t) {
                if (growth > 0) {
                    usedBytes.addAndGet(-growth);
                }
                throw t;
            }
        } catch (Throwable t) {
            live.add(old);
            throw t;
        }
        if (growth < 0) {
            usedBytes.addAndGet(growth);
        }
        live.add(new Allocation(result));
        return result;
    }

    /**
     * Frees {@code buffer}, which must not be used afterwards. On the no-Unsafe path the memory returns
     * when the garbage collector reclaims the buffer; the accounting drops at once on every path.
     *
     * @throws IllegalArgumentException if {@code buffer} was not allocated by this instance or was already
     *         freed (nothing is freed then)
     */
    public void free(ByteBuffer buffer) {
        Objects.requireNonNull(buffer, "buffer");
        if (!live.remove(new Allocation(buffer))) {
            throw notOwned(buffer);
        }
        try {
            if (UNSAFE) {
                UnsafeDirectBuffers.free(buffer);
            }
        } finally {
            usedBytes.addAndGet(-buffer.capacity());
        }
    }

    private static ByteBuffer copyToNew(ByteBuffer buffer, int newCapacity) {
        ByteBuffer copy = ByteBuffer.allocateDirect(newCapacity);
        copy.put(0, buffer, 0, Math.min(buffer.capacity(), newCapacity));
        return copy;
    }

    private void reserve(long bytes) {
        for (;;) {
            long used = usedBytes.get();
            long next = used + bytes;
            if (next > maxBytes || next < 0) {
                throw new OutOfDirectMemoryError(bytes, used, maxBytes);
            }
            if (usedBytes.compareAndSet(used, next)) {
                return;
            }
        }
    }

    private static void checkCapacity(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 0)");
        }
    }

    private static IllegalArgumentException notOwned(ByteBuffer buffer) {
        return new IllegalArgumentException("buffer was not allocated by this DirectMemory or was already freed: "
                + buffer);
    }

    private static long configuredGlobalLimit() {
        long configured = SystemProperties.getLong(MAX_DIRECT_MEMORY_PROPERTY, DEFAULT_MAX_DIRECT_MEMORY_BYTES);
        long limit = configured < 0 ? JVM_MAX_DIRECT_MEMORY_BYTES : configured == 0 ? Long.MAX_VALUE : configured;
        LOGGER.log(Level.DEBUG, "-D" + MAX_DIRECT_MEMORY_PROPERTY + ": " + limit + " bytes");
        return limit;
    }

    private static long findJvmMaxDirectMemory() {
        try {
            Class<?> vm = Class.forName("jdk.internal.misc.VM");
            // Throws IllegalAccessException unless the package is exported to us.
            long value = (long) vm.getMethod("maxDirectMemory").invoke(null);
            if (value > 0) {
                return value;
            }
        } catch (Throwable ignored) {
            // Expected without --add-exports; fall through to the command line.
        }
        List<String> arguments = new ArrayList<>();
        addTokens(arguments, env("JAVA_TOOL_OPTIONS"));
        addTokens(arguments, env("JDK_JAVA_OPTIONS"));
        try {
            ProcessHandle.current().info().arguments().ifPresent(a -> arguments.addAll(List.of(a)));
        } catch (Throwable ignored) {
            // Not every OS reports the command line; the environment and maxMemory() remain.
        }
        addTokens(arguments, env("_JAVA_OPTIONS"));
        long flag = parseMaxDirectMemorySize(arguments);
        return flag > 0 ? flag : Runtime.getRuntime().maxMemory();
    }

    private static String env(String name) {
        try {
            return System.getenv(name);
        } catch (SecurityException e) {
            return null;
        }
    }

    private static void addTokens(List<String> into, String options) {
        if (options != null) {
            for (String token : options.trim().split("\\s+")) {
                if (!token.isEmpty()) {
                    into.add(token);
                }
            }
        }
    }

    /**
     * The value of the last {@code -XX:MaxDirectMemorySize=<size>[k|m|g|t]} in {@code arguments}, or -1 when
     * absent or malformed. Arguments after the main class are the application's and are not distinguished;
     * an application argument that looks exactly like the JVM flag is a risk accepted for lack of a public API.
     */
    static long parseMaxDirectMemorySize(List<String> arguments) {
        String prefix = "-XX:MaxDirectMemorySize=";
        long result = -1;
        for (String argument : arguments) {
            if (argument.startsWith(prefix)) {
                result = parseSize(argument.substring(prefix.length()));
            }
        }
        return result;
    }

    private static long parseSize(String text) {
        if (text.isEmpty()) {
            return -1;
        }
        long multiplier = switch (text.toLowerCase(Locale.ROOT).charAt(text.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            case 't' -> 1L << 40;
            default -> 1;
        };
        String digits = multiplier == 1 ? text : text.substring(0, text.length() - 1);
        try {
            return Math.multiplyExact(Long.parseLong(digits), multiplier);
        } catch (NumberFormatException | ArithmeticException e) {
            return -1;
        }
    }

    /** Identity of a handed-out buffer: ByteBuffer's own equals/hashCode compare contents. */
    private static final class Allocation {
        private final ByteBuffer buffer;

        Allocation(ByteBuffer buffer) {
            this.buffer = buffer;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Allocation other && other.buffer == buffer;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(buffer);
        }
    }
}
