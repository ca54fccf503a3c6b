package io.weir.util.concurrent;

import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes {@link FastThreadLocalThread}s named {@code <pool>-<poolId>-<threadId>}, so thread dumps tell
 * which executor a thread belongs to. Thread-safe.
 */
public final class DefaultThreadFactory implements ThreadFactory {
    private static final AtomicInteger POOL_ID = new AtomicInteger();

    private final AtomicInteger nextId = new AtomicInteger();
    private final String prefix;
    private final boolean daemon;
    private final int priority;
    private final ThreadGroup threadGroup;

    /** Non-daemon threads of normal priority, named after {@code poolType}'s simple name. */
    public DefaultThreadFactory(Class<?> poolType) {
        this(toPoolName(poolType), false, Thread.NORM_PRIORITY);
    }

    /** Non-daemon threads of normal priority. */
    public DefaultThreadFactory(String poolName) {
        this(poolName, false, Thread.NORM_PRIORITY);
    }

    /** Threads of normal priority. */
    public DefaultThreadFactory(String poolName, boolean daemon) {
        this(poolName, daemon, Thread.NORM_PRIORITY);
    }

    /**
     * Threads with the given name prefix, daemon flag and priority.
     *
     * @throws IllegalArgumentException if {@code priority} is outside {@link Thread#MIN_PRIORITY}..{@link Thread#MAX_PRIORITY}
     */
    public DefaultThreadFactory(String poolName, boolean daemon, int priority) {
        this(poolName, daemon, priority, null);
    }

    /** Threads in {@code threadGroup} ({@code null}: the creating thread's group). */
    public DefaultThreadFactory(String poolName, boolean daemon, int priority, ThreadGroup threadGroup) {
        Objects.requireNonNull(poolName, "poolName");
        if (priority < Thread.MIN_PRIORITY || priority > Thread.MAX_PRIORITY) {
            throw new IllegalArgumentException("priority: " + priority
                    + " (expected: Thread.MIN_PRIORITY <= priority <= Thread.MAX_PRIORITY)");
        }
        this.prefix = poolName + '-' + POOL_ID.incrementAndGet() + '-';
        this.daemon = daemon;
        this.priority = priority;
        this.threadGroup = threadGroup;
    }

    /** {@code poolType}'s simple name with a lower-case first letter, e.g. {@code nioEventLoopGroup}. */
    public static String toPoolName(Class<?> poolType) {
        Objects.requireNonNull(poolType, "poolType");
        String name = poolType.getSimpleName();
        if (name.isEmpty()) {
            name = poolType.getName();
            name = name.substring(name.lastIndexOf('.') + 1);
        }
        if (name.length() == 1) {
            return name.toLowerCase(Locale.ROOT);
        }
        if (Character.isUpperCase(name.charAt(0)) && Character.isLowerCase(name.charAt(1))) {
            return Character.toLowerCase(name.charAt(0)) + name.substring(1);
        }
        return name;
    }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new FastThreadLocalThread(threadGroup, r, prefix + nextId.incrementAndGet());
        if (t.isDaemon() != daemon) {
            t.setDaemon(daemon);
        }
        if (t.getPriority() != priority) {
            t.setPriority(priority);
        }
        return t;
    }
}
