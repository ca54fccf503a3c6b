package io.weir.channel.internal;

/**
 * How long an idle {@link io.weir.channel.IoHandler} keeps polling for readiness without blocking (a {@code selectNow()}, an
 * {@code epoll_wait} with a zero timeout) before it blocks, adapted to how its sleeps end. For handler
 * implementations: the NIO handler uses it, and {@link PollingWait} for the epoll and kqueue handlers. Off
 * unless a handler is given a maximum ({@code 0} turns it off). Loop thread only.
 *
 * <p>A blocking wait costs the loop more than the two system calls: the thread sleeps, and whoever makes a
 * descriptor ready then pays for waking it, and the loop for being scheduled again. On a virtual machine whose
 * idle CPUs halt, that latency is tens to hundreds of microseconds, far longer than a loopback round trip. A
 * loop in a conversation (a request answered by the peer's next request, a reply answered by the next call)
 * spends most of each exchange waking up. Polling for a little while before blocking keeps the thread, and its
 * CPU, awake for the answer.
 *
 * <p>A handler asks {@link #nanos()} before it blocks, polls for that long (or until the loop's next deadline, or
 * until a task arrives), and after its run reports either {@link #found()} (the poll found readiness) or
 * {@link #sleepEnded(long, boolean)} (it blocked, and how that ended).
 *
 * <p>The rule, which keeps a loop that is not in such a conversation from polling at all:
 * <ul>
 *   <li>The poll starts off (0). A sleep that I/O ended less than {@value #SHORT_SLEEP_NANOS} ns after it began,
 *       a sleep that polling for longer might have spared, grows it: from 0 to a quarter of the maximum, then
 *       fourfold, up to the maximum. The threshold is that long because the measured sleep includes the wake-up
 *       latency, which is what polling saves.</li>
 *   <li>A sleep that lasted longer, or that a timer or a task ended, halves it; under
 *       {@value #MIN_NANOS} ns it drops to 0.</li>
 *   <li>A short I/O-ended sleep after a poll of the maximum length means the peer answers further away than
 *       polling reaches: the poll drops to 0 and may not grow again for a cool-down of short sleeps: none after
 *       the first such miss, 1 after the second, doubling with each further one up to {@value #MAX_COOL_DOWN}.
 *       A poll that finds readiness halves this count, so it falls back to none only while polls find
 *       readiness more often than they run out at the maximum: a server whose requests come a little too far
 *       apart for the poll, whose poll now and then catches one, stays cooled down instead of polling again
 *       after every catch.</li>
 * </ul>
 * So a loop fed by a peer that answers within the maximum polls the whole time in between and never sleeps,
 * and a loop whose I/O arrives further apart polls about nothing once its cool-down has grown: at most the
 * maximum plus a quarter of it per doubling of the cool-down.
 */
public final class IdlePoll {
    /** Sleeps shorter than this that I/O ended count as near misses. */
    public static final long SHORT_SLEEP_NANOS = 1_000_000;
    /** Shorter polls are not worth the first non-blocking check: the poll drops to 0. */
    public static final long MIN_NANOS = 1_000;
    /** The longest cool-down, in short sleeps. */
    public static final int MAX_COOL_DOWN = 1 << 12;

    private final long maxNanos;
    private long nanos;
    // Short sleeps still to pass before the poll may grow again.
    private int coolDown;
    // The cool-down the next miss at the maximum imposes; 0 until the first one.
    private int nextCoolDown;

    /**
     * @param maxNanos the longest poll; 0 turns polling off
     * @throws IllegalArgumentException if {@code maxNanos} is negative
     */
    public IdlePoll(long maxNanos) {
        this.maxNanos = checkMaxNanos(maxNanos);
    }

    /**
     * Checks a handler factory's {@code maxIdlePollNanos} when the factory is made, not when its first loop starts.
     *
     * @return {@code maxIdlePollNanos}
     * @throws IllegalArgumentException if it is negative
     */
    public static long checkMaxNanos(long maxIdlePollNanos) {
        if (maxIdlePollNanos < 0) {
            throw new IllegalArgumentException("maxIdlePollNanos: " + maxIdlePollNanos + " (expected: >= 0)");
        }
        return maxIdlePollNanos;
    }

    /** How long the next idle poll lasts, in nanoseconds; 0: block at once. */
    public long nanos() {
        return nanos;
    }

    /** The poll found readiness of a handle before it ran out: halves the cool-down the next miss imposes. */
    public void found() {
        nextCoolDown >>= 1;
    }

    /**
     * After a handler's run: adapts the poll to how the run's wait ended ({@link #sleepEnded} if it blocked,
     * {@link #found()} if its poll found readiness that a handle then took).
     *
     * @param blockedNanos how long the run blocked; negative if it did not block
     * @param pollFound whether the run's idle poll found readiness
     * @param handled the handles the run dispatched events to
     */
    public void runEnded(long blockedNanos, boolean pollFound, int handled) {
        if (blockedNanos >= 0) {
            sleepEnded(blockedNanos, handled > 0);
        } else if (pollFound && handled > 0) {
            found();
        }
    }

    /**
     * Adapts the poll to a sleep that just ended.
     *
     * @param sleptNanos how long the blocking wait lasted
     * @param endedByIo whether a handle's readiness ended it (not only a wake-up or the deadline)
     */
    public void sleepEnded(long sleptNanos, boolean endedByIo) {
        if (maxNanos == 0) {
            return;
        }
        if (!endedByIo || sleptNanos >= SHORT_SLEEP_NANOS) {
            long half = nanos >> 1;
            nanos = half < MIN_NANOS ? 0 : half;
        } else if (nanos >= maxNanos) {
            nanos = 0;
            coolDown = nextCoolDown;
            nextCoolDown = nextCoolDown == 0 ? 1 : Math.min(MAX_COOL_DOWN, nextCoolDown << 1);
        } else if (coolDown > 0) {
            coolDown--;
        } else {
            nanos = Math.min(maxNanos, nanos == 0 ? Math.max(MIN_NANOS, maxNanos >> 2) : nanos << 2);
        }
    }
}
