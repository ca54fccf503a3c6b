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
 * The two nested wake-up flags of an I/O handler on its event loop, step for step. The NIO and the epoll
 * handler share this shape ({@code NioIoHandler.select}, {@code EpollIoHandler.waitForEvents}): the handler arms
 * its own {@code wakeupArmed} (volatile write), then asks {@code canBlock()}, which arms the loop's flag and looks
 * at the task queue once more; if a task is there both flags are cleared (lazily) and the handler only polls.
 * A submitter offers, takes the loop's flag if armed, and then the handler's ({@code IoHandler.wakeup()}), and
 * only the taker of the handler's flag calls {@code selector.wakeup()} / writes the eventfd. Results: r1 = the
 * handler blocked (1) or polled without blocking (0); r2 = the submitter reached the selector/eventfd (2), took
 * only the loop's flag (1), or neither (0).
 */
@JCStressTest
@Description("A task submitted while the I/O handler arms its flags always wakes a handler that blocks.")
@Outcome(id = "1, 2", expect = Expect.ACCEPTABLE,
        desc = "The queue check came before the offer and the handler blocked; the submitter took both flags and "
                + "woke the selector (or wrote the eventfd).")
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE,
        desc = "The check saw the task: no blocking, and the submitter found the loop's flag cleared.")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "The check saw the task; the submitter took the loop's flag before its lazy clear, but the "
                + "handler's flag was cleared already: no system call, and none needed.")
@Outcome(id = "0, 2", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "The check saw the task; the submitter took both flags before the lazy clears: one redundant "
                + "selector wake-up (or eventfd write), which only ends the next wait early.")
@Outcome(expect = Expect.FORBIDDEN,
        desc = "Lost wake-up: the handler blocked while the submitter's task sat in the queue and no "
                + "selector wake-up or eventfd write was made for it.")
@State
public class IoHandlerWakeupArmedTest {
    private static final AtomicIntegerFieldUpdater<IoHandlerWakeupArmedTest> LOOP_ARMED =
            AtomicIntegerFieldUpdater.newUpdater(IoHandlerWakeupArmedTest.class, "loopArmed");
    private static final AtomicIntegerFieldUpdater<IoHandlerWakeupArmedTest> HANDLER_ARMED =
            AtomicIntegerFieldUpdater.newUpdater(IoHandlerWakeupArmedTest.class, "handlerArmed");
    private static final Runnable TASK = () -> { };

    private final Queue<Runnable> taskQueue = Queues.newMpscQueue();
    private volatile int loopArmed;
    private volatile int handlerArmed;

    @Actor
    public void handler(II_Result r) {
        HANDLER_ARMED.set(this, 1);
        // context.canBlock()
        LOOP_ARMED.set(this, 1);
        if (!taskQueue.isEmpty()) {
            LOOP_ARMED.lazySet(this, 0);
            HANDLER_ARMED.lazySet(this, 0);
            r.r1 = 0;
        } else {
            r.r1 = 1;
        }
    }

    @Actor
    public void submitter(II_Result r) {
        taskQueue.offer(TASK);
        int woke = 0;
        // SingleThreadIoEventLoop.wakeup(false)
        if (loopArmed != 0 && LOOP_ARMED.getAndSet(this, 0) != 0) {
            woke = 1;
            // NioIoHandler.wakeup() / EpollIoHandler.wakeup()
            if (handlerArmed != 0 && HANDLER_ARMED.getAndSet(this, 0) != 0) {
                woke = 2;
            }
        }
        r.r2 = woke;
    }
}
