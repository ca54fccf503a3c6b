package io.weir.util.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PromiseTaskTest {

    /** Both a Runnable and a Callable: which side runs must follow the method it was submitted through. */
    static final class BothShapes implements Runnable, Callable<String> {
        boolean ran;

        @Override
        public void run() {
            ran = true;
        }

        @Override
        public String call() {
            return "called";
        }
    }

    @Test
    void submittedCallableIsCalledEvenWhenItIsAlsoARunnable() throws Exception {
        Future<String> f = ImmediateEventExecutor.INSTANCE.submit((Callable<String>) new BothShapes());
        assertThat(f.get(1, TimeUnit.SECONDS)).isEqualTo("called");
    }

    @Test
    void submittedRunnableIsRunEvenWhenItIsAlsoACallable() throws Exception {
        BothShapes task = new BothShapes();
        Future<?> f = ImmediateEventExecutor.INSTANCE.submit((Runnable) task);
        assertThat(f.get(1, TimeUnit.SECONDS)).isNull();
        assertThat(task.ran).isTrue();
    }

    @Test
    void submittedRunnableCompletesWithThePresetResult() throws Exception {
        BothShapes task = new BothShapes();
        Future<String> f = ImmediateEventExecutor.INSTANCE.submit(task, "preset");
        assertThat(f.get(1, TimeUnit.SECONDS)).isEqualTo("preset");
        assertThat(task.ran).isTrue();
    }

    @Test
    void everyCancelledPromiseReportsItsOwnCancellation() {
        Promise<String> a = ImmediateEventExecutor.INSTANCE.newPromise();
        Promise<String> b = ImmediateEventExecutor.INSTANCE.newPromise();
        assertThat(a.cancel(false)).isTrue();
        assertThat(b.cancel(false)).isTrue();
        assertThat(a.isCancelled()).isTrue();
        assertThat(a.isSuccess()).isFalse();
        assertThat(a.cause()).isInstanceOf(CancellationException.class);
        // A caller that decorates the cause it got must not change what another promise reports.
        a.cause().addSuppressed(new IllegalStateException("decoration"));
        assertThat(b.cause()).isNotSameAs(a.cause());
        assertThat(b.cause().getSuppressed()).isEmpty();
        assertThatThrownBy(() -> b.get(1, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);
    }
}
