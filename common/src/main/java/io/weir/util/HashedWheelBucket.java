package io.weir.util;

import java.util.Set;

/** One slot of the wheel: a doubly linked list of timeouts. Worker thread only. */
final class HashedWheelBucket {
    private HashedWheelTimeout head;
    private HashedWheelTimeout tail;

    void add(HashedWheelTimeout timeout) {
        timeout.bucket = this;
        if (head == null) {
            head = tail = timeout;
        } else {
            tail.next = timeout;
            timeout.prev = tail;
            tail = timeout;
        }
    }

    /** Expires the timeouts of this bucket whose round has come, drops cancelled ones, counts the others down. */
    void expireTimeouts() {
        HashedWheelTimeout timeout = head;
        while (timeout != null) {
            HashedWheelTimeout next = timeout.next;
            if (!timeout.isPending()) {
                remove(timeout);
            } else if (timeout.remainingRounds <= 0) {
                // Placement chose this bucket and round from the deadline, so the timeout is due by now.
                remove(timeout);
                timeout.expire();
            } else {
                timeout.remainingRounds--;
            }
            timeout = next;
        }
    }

    void remove(HashedWheelTimeout timeout) {
        HashedWheelTimeout next = timeout.next;
        if (timeout.prev != null) {
            timeout.prev.next = next;
        }
        if (next != null) {
            next.prev = timeout.prev;
        }
        if (timeout == head) {
            head = next;
        }
        if (timeout == tail) {
            tail = timeout.prev;
        }
        timeout.prev = null;
        timeout.next = null;
        timeout.bucket = null;
    }

    /** Empties the bucket, adding its still-pending timeouts to {@code into}. */
    void drainPending(Set<Timeout> into) {
        for (HashedWheelTimeout timeout = head; timeout != null; ) {
            HashedWheelTimeout next = timeout.next;
            timeout.prev = null;
            timeout.next = null;
            timeout.bucket = null;
            if (timeout.isPending()) {
                into.add(timeout);
            }
            timeout = next;
        }
        head = tail = null;
    }
}
