package io.weir.util.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PromiseCombinerTest {
    private static final long TIMEOUT_SECONDS = 10;
    private static DefaultEventExecutor executor;

    @BeforeAll
    static void start() {
        executor = new DefaultEventExecutor();
    }

    @AfterAll
    static void stop() throws Exception {
        executor.shutdownGracefully(0, 10, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void aggregateSucceedsWhenAllPartsSucceedEvenIfCompletedElsewhere() throws Exception {
        DefaultEventExecutor other = new DefaultEventExecutor();
        try {
            Promise<String> a = executor.newPromise();
            Promise<Integer> b = other.newPromise();
            Promise<Void> aggregate = executor.newPromise();
            executor.submit(() -> {
                PromiseCombiner combiner = new PromiseCombiner(executor);
                combiner.addAll(a, b);
                combiner.finish(aggregate);
            }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

            a.setSuccess("a");
            assertThat(aggregate.await(20, TimeUnit.MILLISECONDS)).isFalse();
            b.setSuccess(2);
            aggregate.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(aggregate.isSuccess()).isTrue();
        } finally {
            other.shutdownGracefully(0, 10, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void aggregateFailsWithTheFirstFailure() throws Exception {
        Promise<Void> aggregate = executor.newPromise();
        IOException first = new IOException("first");
        executor.submit(() -> {
            PromiseCombiner combiner = new PromiseCombiner(executor);
            combiner.add(executor.newFailedFuture(first));
            combiner.add(executor.newSucceededFuture("fine"));
            combiner.add(executor.newFailedFuture(new IOException("second")));
            combiner.finish(aggregate);
        }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThatThrownBy(() -> aggregate.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCause(first);
    }

    @Test
    void emptyCombinerSucceedsAtFinish() throws Exception {
        Promise<Void> aggregate = executor.newPromise();
        executor.submit(() -> new PromiseCombiner(executor).finish(aggregate)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(aggregate.isSuccess()).isTrue();
    }

    @Test
    void misuseIsRefused() throws Exception {
        PromiseCombiner offThread = new PromiseCombiner(executor);
        assertThatThrownBy(() -> offThread.add(executor.newSucceededFuture(1)))
                .isInstanceOf(IllegalStateException.class);

        Future<Throwable> afterFinish = executor.submit(() -> {
            PromiseCombiner combiner = new PromiseCombiner(executor);
            combiner.finish(executor.newPromise());
            try {
                combiner.add(executor.newSucceededFuture(1));
                return null;
            } catch (IllegalStateException e) {
                return e;
            }
        });
        assertThat(afterFinish.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
    }
}
