package io.weir.grpc;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The events of one call's listener, handled one at a time and in the order they were queued: on the event loop
 * that queues them (no executor: an event queued while one is handled waits for it rather than nesting), or on an
 * executor (a pool, virtual threads), one drain task at a time. {@link #add} is only called from the call's event
 * loop.
 */
final class CallEventQueue implements Runnable {
    /** Handles one event of the call. */
    interface Handler {
        void handle(Object event);
    }

    private final Executor executor;
    private final Handler handler;
    private final Queue<Object> events;
    private final AtomicBoolean drainScheduled;
    private boolean draining;

    /** @param executor where events are handled; null for the event loop that queues them */
    CallEventQueue(Executor executor, Handler handler) {
        this.executor = executor;
        this.handler = handler;
        if (executor == null) {
            events = new ArrayDeque<>(4);
            drainScheduled = null;
        } else {
            events = new ConcurrentLinkedQueue<>();
            drainScheduled = new AtomicBoolean();
        }
    }

    /**
     * Queues {@code event} and handles the queue unless it is being handled already.
     *
     * @return false if the executor refused to run the queue: the events still queued are returned to
     *         {@code refused}, and the queue stays stopped
     */
    boolean add(Object event, Handler refused) {
        events.add(event);
        if (executor == null) {
            if (!draining) {
                draining = true;
                try {
                    Object e;
                    while ((e = events.poll()) != null) {
                        handler.handle(e);
                    }
                } finally {
                    draining = false;
                }
            }
        } else if (drainScheduled.compareAndSet(false, true)) {
            try {
                executor.execute(this);
            } catch (RejectedExecutionException e) {
                Object left;
                while ((left = events.poll()) != null) {
                    refused.handle(left);
                }
                return false;
            }
        }
        return true;
    }

    /** Whether the event loop is handling events right now (no executor): writes may wait for one flush. */
    boolean isDraining() {
        return draining;
    }

    /** Handles the queued events on the executor, one at a time. */
    @Override
    public void run() {
        for (;;) {
            Object e;
            while ((e = events.poll()) != null) {
                handler.handle(e);
            }
            drainScheduled.set(false);
            if (events.isEmpty() || !drainScheduled.compareAndSet(false, true)) {
                return;
            }
        }
    }
}
