package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.nio.NioIoHandler;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.EventExecutorChooserFactory;
import io.weir.util.concurrent.FastThreadLocalThread;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MultiThreadIoEventLoopGroupTest {
    private static final long TIMEOUT_SECONDS = 10;

    private static void terminate(EventLoopGroup group) throws Exception {
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void groupHasTheRequestedLoopsEachOnItsOwnFastThreadLocalThread() throws Exception {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(3, NioIoHandler.newFactory());
        try {
            assertThat(group.executorCount()).isEqualTo(3);
            Set<EventLoop> loops = new HashSet<>();
            Set<Thread> threads = new HashSet<>();
            EventLoop[] firstRound = new EventLoop[3];
            for (int i = 0; i < 6; i++) {
                EventLoop loop = group.next();
                // Round-robin by default: the second round repeats the first.
                if (i < 3) {
                    firstRound[i] = loop;
                } else {
                    assertThat(loop).isSameAs(firstRound[i - 3]);
                }
                loops.add(loop);
                assertThat(loop.parent()).isSameAs(group);
                assertThat(loop.next()).isSameAs(loop);
                threads.add(loop.submit(Thread::currentThread).get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            }
            assertThat(loops).hasSize(3);
            assertThat(threads).hasSize(3).allMatch(t -> t instanceof FastThreadLocalThread);
            for (EventExecutor child : group) {
                assertThat(child).isInstanceOf(SingleThreadIoEventLoop.class);
            }
        } finally {
            terminate(group);
        }
        assertThat(group.isTerminated()).isTrue();
        assertThatThrownBy(() -> group.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void zeroThreadsMeansTheDefault() throws Exception {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(0, NioIoHandler.newFactory());
        try {
            assertThat(group.executorCount()).isEqualTo(MultiThreadIoEventLoopGroup.DEFAULT_EVENT_LOOP_THREADS);
            assertThat(MultiThreadIoEventLoopGroup.DEFAULT_EVENT_LOOP_THREADS)
                    .isEqualTo(2 * Runtime.getRuntime().availableProcessors());
        } finally {
            terminate(group);
        }
    }

    @Test
    void badArgumentsAreRefused() {
        assertThatThrownBy(() -> new MultiThreadIoEventLoopGroup(-1, NioIoHandler.newFactory()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> new MultiThreadIoEventLoopGroup(1, (IoHandlerFactory) null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new MultiThreadIoEventLoopGroup(1, (Executor) null, NioIoHandler.newFactory(), null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void handlerFactoryFailureAbortsTheGroupAndShutsDownTheLoopsAlreadyMade() {
        AtomicInteger made = new AtomicInteger();
        IoHandlerFactory failsOnSecond = loop -> {
            if (made.incrementAndGet() == 2) {
                throw new IllegalStateException("no selector for you");
            }
            return NioIoHandler.newFactory().newHandler(loop);
        };
        assertThatThrownBy(() -> new MultiThreadIoEventLoopGroup(3, failsOnSecond))
                .isInstanceOf(IllegalStateException.class).hasRootCauseMessage("no selector for you");
    }

    @Test
    void customChooserAndThreadFactoryAreUsed() throws Exception {
        EventExecutorChooserFactory alwaysLast = executors -> () -> executors[executors.length - 1];
        AtomicInteger threadsMade = new AtomicInteger();
        ThreadFactory factory = r -> {
            threadsMade.incrementAndGet();
            return new FastThreadLocalThread(r, "custom-loop");
        };
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(2,
                command -> factory.newThread(command).start(), NioIoHandler.newFactory(), alwaysLast);
        try {
            EventLoop chosen = group.next();
            assertThat(group.next()).isSameAs(chosen);
            int index = 0;
            for (EventExecutor child : group) {
                if (index++ == 1) {
                    assertThat(child).isSameAs(chosen);
                }
            }
            Thread thread = chosen.submit(Thread::currentThread).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(thread.getName()).isEqualTo("custom-loop");
        } finally {
            terminate(group);
        }
        // Shutdown starts the loop that never ran, so both threads were made.
        assertThat(threadsMade.get()).isEqualTo(2);

        MultiThreadIoEventLoopGroup named = new MultiThreadIoEventLoopGroup(1,
                r -> new FastThreadLocalThread(r, "from-factory"), NioIoHandler.newFactory());
        try {
            assertThat(named.submit(() -> Thread.currentThread().getName()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isEqualTo("from-factory");
        } finally {
            terminate(named);
        }
    }

    @Test
    void ioRatioAppliesToEveryLoopAndIsValidated() throws Exception {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        try {
            group.setIoRatio(80);
            for (EventExecutor child : group) {
                assertThat(((SingleThreadIoEventLoop) child).ioRatio()).isEqualTo(80);
            }
            assertThatThrownBy(() -> group.setIoRatio(0)).isInstanceOf(IllegalArgumentException.class);
            for (EventExecutor child : group) {
                assertThat(((SingleThreadIoEventLoop) child).ioRatio()).isEqualTo(80);
            }
        } finally {
            terminate(group);
        }
    }
}
