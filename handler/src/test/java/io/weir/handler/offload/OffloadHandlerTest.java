package io.weir.handler.offload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Blocking work off the loop: backpressure through auto-read, order, ownership, failures, virtual threads. */
class OffloadHandlerTest {

    /** An executor the test runs by hand, so every step is seen. */
    private static final class ManualExecutor implements Executor {
        final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

        @Override
        public void execute(Runnable command) {
            tasks.add(command);
        }

        void runOne(EmbeddedChannel ch) {
            tasks.poll().run();
            ch.runPendingTasks();
        }
    }

    private static ByteBuf text(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }

    private static String readText(EmbeddedChannel ch) {
        ByteBuf b = ch.readOutbound();
        try {
            return b.toString(StandardCharsets.UTF_8);
        } finally {
            b.release();
        }
    }

    private static OffloadHandler<ByteBuf, ByteBuf> upperCase(Executor executor, int maxInFlight) {
        return new OffloadHandler<>(ByteBuf.class, executor,
                in -> text(in.toString(StandardCharsets.UTF_8).toUpperCase()), maxInFlight);
    }

    @Test
    void readingPausesWhileTheBoundIsWorkedOnAndResumesAfter() {
        ManualExecutor executor = new ManualExecutor();
        EmbeddedChannel ch = new EmbeddedChannel(upperCase(executor, 2));
        ch.writeInbound(text("a"));
        assertThat(ch.config().isAutoRead()).as("one of two in flight").isTrue();
        ch.writeInbound(text("b"));
        assertThat(ch.config().isAutoRead()).as("the bound reached: a slow worker holds the client").isFalse();
        executor.runOne(ch);
        assertThat(ch.config().isAutoRead()).isTrue();
        assertThat(readText(ch)).isEqualTo("A");
        executor.runOne(ch);
        assertThat(readText(ch)).isEqualTo("B");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void pipelinedMessagesBeyondTheBoundWaitAndAreAnsweredInOrder() {
        ManualExecutor executor = new ManualExecutor();
        EmbeddedChannel ch = new EmbeddedChannel(upperCase(executor, 1));
        // One read that brought three requests: one is worked on, two wait.
        ch.writeInbound(text("x"), text("y"), text("z"));
        assertThat(executor.tasks).hasSize(1);
        assertThat(ch.config().isAutoRead()).isFalse();
        List<String> answers = new ArrayList<>();
        while (!executor.tasks.isEmpty()) {
            executor.runOne(ch);
            answers.add(readText(ch));
        }
        assertThat(answers).containsExactly("X", "Y", "Z");
        assertThat(ch.config().isAutoRead()).isTrue();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void anApplicationThatTurnedAutoReadOffKeepsItOff() {
        ManualExecutor executor = new ManualExecutor();
        EmbeddedChannel ch = new EmbeddedChannel(upperCase(executor, 1));
        ch.config().setAutoRead(false);
        ch.writeInbound(text("a"));
        executor.runOne(ch);
        assertThat(ch.config().isAutoRead()).isFalse();
        assertThat(readText(ch)).isEqualTo("A");
        ch.finish();
    }

    @Test
    void aFailureReachesExceptionCaughtAndTheInputIsReleased() {
        ManualExecutor executor = new ManualExecutor();
        List<Throwable> caught = new ArrayList<>();
        ByteBuf input = text("boom");
        EmbeddedChannel ch = new EmbeddedChannel(new OffloadHandler<ByteBuf, ByteBuf>(ByteBuf.class, executor, in -> {
            throw new IllegalStateException("work failed on " + in.toString(StandardCharsets.UTF_8));
        }, 1), new ChannelHandler() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                caught.add(cause);
            }
        });
        ch.writeInbound(input);
        executor.runOne(ch);
        assertThat(caught).singleElement().satisfies(t -> assertThat(t).hasMessage("work failed on boom"));
        assertThat(input.refCnt()).isZero();
        assertThat(ch.config().isAutoRead()).isTrue();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aRefusingExecutorIsReportedAndNothingLeaks() {
        List<Throwable> caught = new ArrayList<>();
        ByteBuf input = text("refused");
        EmbeddedChannel ch = new EmbeddedChannel(upperCase(task -> {
            throw new RejectedExecutionException("full");
        }, 1), new ChannelHandler() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                caught.add(cause);
            }
        });
        ch.writeInbound(input);
        assertThat(caught).singleElement().isInstanceOf(RejectedExecutionException.class);
        assertThat(input.refCnt()).isZero();
        assertThat(ch.config().isAutoRead()).isTrue();
        ch.finish();
    }

    @Test
    void waitingMessagesAreReleasedWhenTheChannelCloses() {
        ManualExecutor executor = new ManualExecutor();
        EmbeddedChannel ch = new EmbeddedChannel(upperCase(executor, 1));
        ByteBuf waiting = text("never worked on");
        ch.writeInbound(text("first"), waiting);
        ch.close();
        assertThat(waiting.refCnt()).isZero();
        executor.runOne(ch);
        assertThat((Object) ch.readOutbound()).as("the result for a closed channel is dropped").isNull();
        ch.finish();
    }

    @Test
    void blockingWorkOnVirtualThreadsLeavesTheLoopFree() throws Throwable {
        ExecutorService workers = virtualThreadsOrAPool();
        CountDownLatch unblock = new CountDownLatch(1);
        try {
            EmbeddedChannel ch = new EmbeddedChannel(new OffloadHandler<ByteBuf, ByteBuf>(ByteBuf.class, workers,
                    in -> {
                        // Blocking, as a JDBC call would: the event loop is not the thread that waits.
                        assertThat(unblock.await(30, TimeUnit.SECONDS)).isTrue();
                        return text("done " + in.toString(StandardCharsets.UTF_8));
                    }, 1));
            ch.writeInbound(text("query"));
            assertThat(ch.config().isAutoRead()).isFalse();
            unblock.countDown();
            ByteBuf answer = null;
            for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); answer == null
                    && System.nanoTime() < deadline; ) {
                ch.runPendingTasks();
                answer = ch.readOutbound();
                if (answer == null) {
                    Thread.onSpinWait();
                }
            }
            assertThat(answer).as("the answer within 30 s").isNotNull();
            assertThat(answer.toString(StandardCharsets.UTF_8)).isEqualTo("done query");
            answer.release();
            assertThat(ch.config().isAutoRead()).isTrue();
            ch.finish();
        } finally {
            workers.shutdownNow();
        }
    }

    /** Virtual threads on JDK 21+ (what the class is meant for); a small pool on older JDKs. */
    private static ExecutorService virtualThreadsOrAPool() throws Throwable {
        try {
            return (ExecutorService) MethodHandles.publicLookup().findStatic(Executors.class,
                    "newVirtualThreadPerTaskExecutor", MethodType.methodType(ExecutorService.class)).invoke();
        } catch (NoSuchMethodException beforeJdk21) {
            return Executors.newFixedThreadPool(2);
        }
    }

    @Test
    void aBoundBelowOneIsRefused() {
        assertThatThrownBy(() -> upperCase(Runnable::run, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
    }
}
