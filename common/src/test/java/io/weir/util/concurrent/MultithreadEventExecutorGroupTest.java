package io.weir.util.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MultithreadEventExecutorGroupTest {
    private static final long TIMEOUT_SECONDS = 10;

    @ParameterizedTest(name = "{0} executors")
    @ValueSource(ints = {1, 2, 3, 4, 7, 8})
    void defaultChooserIsAnEvenRoundRobin(int size) {
        EventExecutor[] executors = new EventExecutor[size];
        for (int i = 0; i < size; i++) {
            // Never started: choosing does not touch the executors.
            executors[i] = new DefaultEventExecutor();
        }
        EventExecutorChooserFactory.EventExecutorChooser chooser =
                DefaultEventExecutorChooserFactory.INSTANCE.newChooser(executors);
        Map<EventExecutor, Integer> counts = new HashMap<>();
        int rounds = 1_000;
        for (int i = 0; i < size * rounds; i++) {
            EventExecutor chosen = chooser.next();
            assertThat(chosen).isSameAs(executors[i % size]);
            counts.merge(chosen, 1, Integer::sum);
        }
        assertThat(counts).hasSize(size);
        assertThat(counts.values()).containsOnly(rounds);
        for (EventExecutor executor : executors) {
            executor.shutdown();
        }
    }

    @Test
    void chooserRefusesAnEmptyGroup() {
        assertThatThrownBy(() -> DefaultEventExecutorChooserFactory.INSTANCE.newChooser(new EventExecutor[0]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void groupSpreadsWorkOverItsThreadsAndTerminatesAsOne() throws Exception {
        DefaultEventExecutorGroup group = new DefaultEventExecutorGroup(3);
        assertThat(group.executorCount()).isEqualTo(3);
        Set<Thread> threads = new HashSet<>();
        for (int i = 0; i < 9; i++) {
            threads.add(group.submit(Thread::currentThread).get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
        assertThat(threads).hasSize(3);
        for (EventExecutor child : group) {
            assertThat(child.parent()).isSameAs(group);
            assertThat(child.next()).isSameAs(child);
        }

        Future<?> termination = group.shutdownGracefully(0, 10, TimeUnit.SECONDS);
        assertThat(group.isShuttingDown()).isTrue();
        assertThat(termination.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(group.isTerminated()).isTrue();
        for (EventExecutor child : group) {
            assertThat(child.isTerminated()).isTrue();
        }
        assertThatThrownBy(() -> group.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void customChooserFactoryIsUsed() throws Exception {
        EventExecutorChooserFactory alwaysFirst = executors -> () -> executors[0];
        DefaultEventExecutorGroup group = new DefaultEventExecutorGroup(2, null, alwaysFirst,
                io.weir.util.Ticker.system(), SingleThreadEventExecutor.DEFAULT_MAX_PENDING_TASKS,
                RejectedExecutionHandler.REJECT, null);
        try {
            EventExecutor first = group.iterator().next();
            for (int i = 0; i < 5; i++) {
                assertThat(group.next()).isSameAs(first);
            }
        } finally {
            group.shutdownGracefully(0, 10, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void invokeAllRunsEveryTask() throws Exception {
        DefaultEventExecutorGroup group = new DefaultEventExecutorGroup(2);
        try {
            List<java.util.concurrent.Future<Integer>> results = group.invokeAll(List.of(() -> 1, () -> 2, () -> 3));
            int sum = 0;
            for (java.util.concurrent.Future<Integer> f : results) {
                sum += f.get();
            }
            assertThat(sum).isEqualTo(6);
        } finally {
            group.shutdownGracefully(0, 10, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void negativeThreadCountIsRejectedWithTheValue() {
        assertThatThrownBy(() -> new DefaultEventExecutorGroup(-2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-2");
    }
}
