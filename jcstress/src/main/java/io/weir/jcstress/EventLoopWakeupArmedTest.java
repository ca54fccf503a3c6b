package io.weir.jcstress;

import io.weir.util.platform.Queues;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The wake-up handshake of {@code SingleThreadIoEventLoop}'s {@code wakeupArmed} flag, step for step. Before its
 * I/O handler may block, the loop ({@code IoContext.canBlock()}) sets the flag with a volatile write, then looks
 * at its task queue once more; if a task is there it clears the flag (lazily) and does not block. A submitter
 * ({@code execute}, then {@code wakeup(false)}) offers its task, then reads the flag and, if set, swaps it to 0
 * and calls {@code IoHandler.wakeup()}. Results: r1 = the loop let its handler block (1) or saw the task (0);
 * r2 = the submitter woke the handler (1) or not (0).
 */
@JCStressTest
@Description("A task submitted while the event loop arms its wake-up flag is never left behind: no lost wake-up.")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE,
        desc = "The loop checked its queue before the offer and blocked; the submitter found the flag armed and "
                + "woke the I/O handler.")
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE,
        desc = "The loop's re-check saw the task: it did not block, and the submitter found the flag cleared.")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "The loop saw the task, but the submitter took the flag before the loop's lazy clear: one "
                + "redundant IoHandler.wakeup(), which only shortens the next wait.")
@Outcome(id = "1, 0", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: the handler blocked without the loop seeing the task, and the submitter did not "
                + "see the flag armed, so nobody wakes the handler for the task.")
@State
public class EventLoopWakeupArmedTest {
    private static final AtomicIntegerFieldUpdater<EventLoopWakeupArmedTest> WAKEUP_ARMED =
            AtomicIntegerFieldUpdater.newUpdater(EventLoopWakeupArmedTest.class, "wakeupArmed");
    private static final Runnable TASK = () -> { };

    private final Queue<Runnable> taskQueue = Queues.newMpscQueue();
    private volatile int wakeupArmed;

    @Actor
    public void loop(II_Result r) {
        // canBlock(): arm, then look at the queue again.
        WAKEUP_ARMED.set(this, 1);
        if (!taskQueue.isEmpty()) {
            WAKEUP_ARMED.lazySet(this, 0);
            r.r1 = 0;
        } else {
            r.r1 = 1;
        }
    }

    @Actor
    public void submitter(II_Result r) {
        // execute0() offers; wakeup(false) takes the flag if armed.
        taskQueue.offer(TASK);
        r.r2 = wakeupArmed != 0 && WAKEUP_ARMED.getAndSet(this, 0) != 0 ? 1 : 0;
    }
}
