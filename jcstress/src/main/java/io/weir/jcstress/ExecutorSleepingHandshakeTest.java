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
 * The wake-up handshake of {@code SingleThreadEventExecutor}'s {@code sleeping} flag, step for step on the same
 * kind of queue (JCTools MPSC, from {@code Queues}) and the same flag operations. The executor
 * ({@code sleepUntilWork}) writes {@code sleeping = 1}, then looks at its queue once more and parks only if it is
 * empty. A submitter ({@code execute} then {@code unparkIfSleeping}) offers its task, then reads the flag and, if
 * it is set, swaps it to 0 and unparks. Results: r1 = the executor parked (1) or saw the task and did not (0);
 * r2 = the submitter unparked it (1) or not (0).
 */
@JCStressTest
@Description("A task submitted while the executor goes to sleep is never left behind: no lost wake-up.")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE,
        desc = "The executor's re-check came before the offer: it parked, and the submitter saw the flag and "
                + "unparked it.")
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE,
        desc = "The re-check saw the task: the executor did not park, and the submitter, reading the flag after "
                + "the executor cleared it, had nothing to wake.")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "The executor saw the task, and the submitter also saw the flag before it was cleared: a redundant "
                + "unpark, which leaves a permit that makes the next park return at once (harmless).")
@Outcome(id = "1, 0", expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: the executor parked without seeing the task, and the submitter did not see it "
                + "sleeping, so the task waits until some unrelated wake-up.")
@State
public class ExecutorSleepingHandshakeTest {
    private static final AtomicIntegerFieldUpdater<ExecutorSleepingHandshakeTest> SLEEPING =
            AtomicIntegerFieldUpdater.newUpdater(ExecutorSleepingHandshakeTest.class, "sleeping");
    private static final Runnable TASK = () -> { };

    private final Queue<Runnable> taskQueue = Queues.newMpscQueue();
    private volatile int sleeping;

    @Actor
    public void executor(II_Result r) {
        // sleepUntilWork(): announce, then re-check; parking stands for "keeps sleeping = 1 until unparked".
        sleeping = 1;
        if (!taskQueue.isEmpty()) {
            sleeping = 0;
            r.r1 = 0;
        } else {
            r.r1 = 1;
        }
    }

    @Actor
    public void submitter(II_Result r) {
        // execute0(): offer, then unparkIfSleeping().
        taskQueue.offer(TASK);
        r.r2 = sleeping != 0 && SLEEPING.getAndSet(this, 0) != 0 ? 1 : 0;
    }
}
