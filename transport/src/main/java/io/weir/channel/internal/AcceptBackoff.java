package io.weir.channel.internal;

import io.weir.channel.EventLoop;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * How a server channel stops and resumes accepting after {@code accept} failed, typically because the process
 * (EMFILE) or the system (ENFILE) ran out of file descriptors, or the kernel out of buffers (ENOBUFS, ENOMEM).
 *
 * <p><b>Policy.</b> Retrying at once would spin the loop on the same error: the connection stays queued and
 * the listening socket stays readable. So the channel stops watching for accept readiness for a back-off that
 * starts at {@value #MIN_BACKOFF_NANOS} ns and doubles with each failure of the same streak, up to
 * {@value #MAX_BACKOFF_NANOS} ns; a successful accept ends the streak. A short first pause recovers within
 * milliseconds from a brief shortage (a burst of connections closing soon), while a long shortage costs one
 * failed {@code accept} a second instead of one per loop turn. Resuming on "a child channel of this server
 * closed" would not be enough on its own: descriptors are also held and released by everything else in the
 * process (files, client sockets), so the timer is the one signal that always comes. While accepting is
 * paused the kernel keeps queueing connections in the listen backlog; nothing is lost, and on resuming the
 * transport must look at the socket again (level-triggered readiness, or for edge-triggered epoll an
 * {@code EPOLL_CTL_MOD} that reports a socket already readable), not wait for a new connection's edge.
 *
 * <p><b>Reporting.</b> The failure is worth telling the pipeline (and thus a log) the first time in a streak
 * and then at most once per {@value #MAX_BACKOFF_NANOS} ns, however short the back-off: {@link #shouldReport}.
 *
 * <p><b>Threads.</b> Event loop of the server channel only; plain fields.
 */
public final class AcceptBackoff {
    /** First pause after an accept failed, in nanoseconds (10 ms). */
    public static final long MIN_BACKOFF_NANOS = 10_000_000L;
    /** Longest pause, and the shortest interval between two reports of a streak, in nanoseconds (1 s). */
    public static final long MAX_BACKOFF_NANOS = 1_000_000_000L;

    // 0 while no streak runs; otherwise the last pause chosen.
    private long lastBackoffNanos;
    private long lastReportNanos;
    private boolean reportedInStreak;
    private boolean paused;
    private long failures;

    /**
     * An accept failed and the caller has stopped watching for accept readiness: pauses accepting and schedules
     * {@code resumeTask} (which calls {@link #resume()} and watches again if a read is wanted) on {@code loop}
     * after the back-off. If the loop refuses the task (it is shutting down, and will close the channel), the
     * pause simply ends.
     *
     * @return whether to report this failure to the pipeline ({@link #shouldReport})
     */
    public boolean pause(EventLoop loop, Runnable resumeTask) {
        long pauseNanos = failed();
        try {
            loop.schedule(resumeTask, pauseNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            resume();
        }
        return shouldReport(System.nanoTime());
    }

    /**
     * An accept failed: pauses accepting and returns how long for, in nanoseconds; {@link #pause} does this and
     * the scheduling.
     */
    long failed() {
        long next = lastBackoffNanos == 0 ? MIN_BACKOFF_NANOS : Math.min(lastBackoffNanos * 2, MAX_BACKOFF_NANOS);
        lastBackoffNanos = next;
        paused = true;
        failures++;
        return next;
    }

    /**
     * Whether the failure just recorded should be reported: the first of a streak, then at most once per
     * {@link #MAX_BACKOFF_NANOS}.
     *
     * @param nowNanos {@link System#nanoTime()}
     */
    boolean shouldReport(long nowNanos) {
        if (reportedInStreak && nowNanos - lastReportNanos < MAX_BACKOFF_NANOS) {
            return false;
        }
        reportedInStreak = true;
        lastReportNanos = nowNanos;
        return true;
    }

    /** A connection was accepted: the streak is over, the next failure pauses briefly again. */
    public void accepted() {
        if (lastBackoffNanos != 0) {
            lastBackoffNanos = 0;
            reportedInStreak = false;
        }
    }

    /** The pause is over: the caller watches for accept readiness again (if a read is wanted). */
    public void resume() {
        paused = false;
    }

    /** Whether accepting is paused: {@code read()} and auto-read must not watch for readiness meanwhile. */
    public boolean isPaused() {
        return paused;
    }

    /** Accept failures seen so far (each started or lengthened a pause). */
    public long failures() {
        return failures;
    }

    @Override
    public String toString() {
        return "AcceptBackoff(paused: " + paused + ", last pause: " + TimeUnit.NANOSECONDS.toMillis(lastBackoffNanos) + " ms, failures: "
                + failures + ')';
    }
}
