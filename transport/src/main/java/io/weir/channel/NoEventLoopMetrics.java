package io.weir.channel;

import io.weir.metrics.EventLoopMetrics;

/** {@link EventLoop#metrics()} of a loop that keeps no counters: zeros, and -1 registered channels (unknown). */
final class NoEventLoopMetrics implements EventLoopMetrics {
    static final NoEventLoopMetrics INSTANCE = new NoEventLoopMetrics();

    private NoEventLoopMetrics() {
    }

    @Override
    public int pendingTasks() {
        return 0;
    }

    @Override
    public int registeredChannels() {
        return -1;
    }

    @Override
    public long ioTimeNanos() {
        return 0;
    }

    @Override
    public double ioTimeRatio() {
        return 0;
    }

    @Override
    public long wakeups() {
        return 0;
    }

    @Override
    public long totalTasksRun() {
        return 0;
    }

    @Override
    public long longestTaskNanos() {
        return 0;
    }

    @Override
    public long slowTasks() {
        return 0;
    }
}
