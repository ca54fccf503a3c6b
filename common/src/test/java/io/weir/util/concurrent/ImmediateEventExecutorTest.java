package io.weir.util.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ImmediateEventExecutorTest {
    private static final ImmediateEventExecutor IMMEDIATE = ImmediateEventExecutor.INSTANCE;

    @Test
    void runsTasksOnTheCallingThreadBeforeReturning() throws Exception {
        Thread caller = Thread.currentThread();
        Future<Thread> ran = IMMEDIATE.submit(Thread::currentThread);
        assertThat(ran.isDone()).isTrue();
        assertThat(ran.getNow()).isSameAs(caller);
        assertThat(IMMEDIATE.inEventLoop()).isTrue();
    }

    @Test
    void nestedTasksRunAfterTheOuterOneInsteadOfRecursing() {
        List<String> order = new ArrayList<>();
        IMMEDIATE.execute(() -> {
            order.add("outer start");
            IMMEDIATE.execute(() -> order.add("nested"));
            order.add("outer end");
        });
        assertThat(order).containsExactly("outer start", "outer end", "nested");
    }

    @Test
    void longListenerChainDoesNotOverflowTheStack() {
        int length = 100_000;
        Promise<Integer> first = IMMEDIATE.newPromise();
        Promise<Integer> current = first;
        for (int i = 0; i < length; i++) {
            Promise<Integer> next = IMMEDIATE.newPromise();
            current.addListener(f -> next.setSuccess(f.getNow() + 1));
            current = next;
        }
        first.setSuccess(0);
        assertThat(current.getNow()).isEqualTo(length);
    }

    @Test
    void promiseCanBeAwaitedWhileAnotherThreadCompletesIt() throws Exception {
        Promise<String> promise = IMMEDIATE.newPromise();
        Thread completer = new Thread(() -> promise.setSuccess("from another thread"));
        completer.start();
        assertThat(promise.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(promise.getNow()).isEqualTo("from another thread");
        completer.join(10_000);
    }
}
