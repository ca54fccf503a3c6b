package io.weir.util.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DefaultPromiseTest {
    private static DefaultEventExecutor executor;

    @BeforeAll
    static void startExecutor() {
        executor = new DefaultEventExecutor();
    }

    @AfterAll
    static void stopExecutor() throws Exception {
        executor.shutdownGracefully(0, 10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
    }

    @Test
    void exactlyOneOfSeveralRacingCompletersWins() throws Exception {
        int threads = 6;
        for (int round = 0; round < 100; round++) {
            Promise<Integer> promise = new DefaultPromise<>(executor);
            CyclicBarrier barrier = new CyclicBarrier(threads);
            AtomicInteger winners = new AtomicInteger();
            AtomicInteger winner = new AtomicInteger(-1);
            List<Thread> racers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int id = i;
                Thread t = new Thread(() -> {
                    try {
                        barrier.await(10, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                    boolean won = id % 2 == 0
                            ? promise.trySuccess(id)
                            : promise.tryFailure(new IOException("racer " + id));
                    if (won) {
                        winners.incrementAndGet();
                        winner.set(id);
                    }
                });
                racers.add(t);
                t.start();
            }
            for (Thread t : racers) {
                t.join(10_000);
            }
            assertThat(winners.get()).isEqualTo(1);
            assertThat(promise.isDone()).isTrue();
            if (winner.get() % 2 == 0) {
                assertThat(promise.getNow()).isEqualTo(winner.get());
            } else {
                assertThat(promise.cause()).hasMessage("racer " + winner.get());
            }
        }
    }

    @Test
    void listenersRunInRegistrationOrderOnTheExecutorThread() throws Exception {
        Promise<String> promise = new DefaultPromise<>(executor);
        List<Integer> order = new CopyOnWriteArrayList<>();
        List<Boolean> onExecutor = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(100);
        for (int i = 0; i < 100; i++) {
            int id = i;
            promise.addListener(f -> {
                order.add(id);
                onExecutor.add(executor.inEventLoop());
                done.countDown();
            });
        }
        promise.setSuccess("value");

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            expected.add(i);
        }
        assertThat(order).isEqualTo(expected);
        assertThat(onExecutor).containsOnly(true);
    }

    @Test
    void listenerAddedAfterCompletionIsNotifiedOnceOnTheExecutor() throws Exception {
        Promise<String> promise = new DefaultPromise<>(executor);
        promise.setSuccess("done");
        Box<Boolean> seen = new Box<>();
        AtomicInteger calls = new AtomicInteger();
        promise.addListener(f -> {
            calls.incrementAndGet();
            seen.complete(executor.inEventLoop() && "done".equals(f.getNow()));
        });

        assertThat(seen.get()).isTrue();
        // A later barrier on the same executor proves no second notification is queued behind the first.
        executor.submit(() -> { }).get(10, TimeUnit.SECONDS);
        assertThat(calls.get()).isEqualTo(1);
    }

    @Test
    void listenerAddedDuringNotificationRunsAfterTheOnesAlreadyWaiting() throws Exception {
        Promise<Void> promise = new DefaultPromise<>(executor);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(1);
        promise.addListener(f -> {
            order.add("first");
            promise.addListener(g -> {
                order.add("added-late");
                done.countDown();
            });
        });
        promise.addListener(f -> order.add("second"));
        promise.setSuccess(null);

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(order).containsExactly("first", "second", "added-late");
    }

    @Test
    void throwingListenerDoesNotStopTheOthers() throws Exception {
        Promise<Void> promise = new DefaultPromise<>(executor);
        CountDownLatch second = new CountDownLatch(1);
        promise.addListeners(f -> {
            throw new IllegalStateException("listener bug, expected by the test");
        }, f -> second.countDown());
        promise.setSuccess(null);
        assertThat(second.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void removedListenerIsNotNotified() throws Exception {
        Promise<Void> promise = new DefaultPromise<>(executor);
        AtomicInteger removedCalls = new AtomicInteger();
        FutureListener<Void> removed = f -> removedCalls.incrementAndGet();
        CountDownLatch kept = new CountDownLatch(1);
        promise.addListener(removed);
        promise.addListener(f -> kept.countDown());
        promise.removeListener(removed);
        promise.setSuccess(null);

        assertThat(kept.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(removedCalls.get()).isZero();
    }

    @Test
    void timedWaitsReportTimeoutWithoutCompleting() throws Exception {
        Promise<String> promise = new DefaultPromise<>(executor);
        assertThat(promise.await(10, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(promise.awaitUninterruptibly(1)).isFalse();
        assertThatThrownBy(() -> promise.get(10, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        assertThat(promise.isDone()).isFalse();
    }

    @Test
    void waiterOnAnotherThreadIsWokenByCompletion() throws Exception {
        Promise<String> promise = new DefaultPromise<>(executor);
        Box<String> observed = new Box<>();
        Thread waiter = new Thread(() -> {
            try {
                observed.complete(promise.sync().getNow());
            } catch (InterruptedException e) {
                observed.complete("interrupted");
            }
        });
        waiter.start();
        promise.setSuccess("woken");
        assertThat(observed.get()).isEqualTo("woken");
        waiter.join(10_000);
    }

    @Test
    void interruptedAwaitThrowsAndUninterruptibleAwaitKeepsTheFlag() {
        Promise<String> promise = new DefaultPromise<>(executor);
        Thread.currentThread().interrupt();
        assertThatThrownBy(promise::await).isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).isFalse();

        Thread.currentThread().interrupt();
        assertThat(promise.awaitUninterruptibly(5, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(Thread.interrupted()).isTrue();
    }

    @Test
    void syncRethrowsTheCauseItself() {
        Promise<String> promise = new DefaultPromise<>(executor);
        IOException cause = new IOException("connection reset");
        promise.setFailure(cause);
        assertThatThrownBy(promise::sync).isSameAs(cause);
        assertThatThrownBy(promise::syncUninterruptibly).isSameAs(cause);
        assertThatThrownBy(promise::get).isInstanceOf(ExecutionException.class).hasCause(cause);
    }

    @Test
    void waitingOnTheExecutorThreadIsRefusedSayingWhichCallOnWhichThreadAndWhatToDoInstead() throws Exception {
        Promise<String> promise = new DefaultPromise<>(executor);
        String loopThread = executor.submit(() -> Thread.currentThread().getName()).get(10, TimeUnit.SECONDS);

        assertThat(thrownOnTheExecutor(promise::sync)).isInstanceOf(BlockingOperationException.class)
                .hasMessageStartingWith("sync() called on the event loop thread '" + loopThread + "'")
                .hasMessageContaining("that must complete " + promise)
                .hasMessageContaining("it would wait for itself for ever")
                .hasMessageContaining("add a listener instead, or wait from another thread");
        assertThat(thrownOnTheExecutor(() -> promise.get(1, TimeUnit.SECONDS)))
                .isInstanceOf(BlockingOperationException.class)
                .hasMessageStartingWith("get() called on the event loop thread '" + loopThread + "'");
    }

    /** What {@code call} throws when run on the executor's own thread, or null. */
    private static Throwable thrownOnTheExecutor(java.util.concurrent.Callable<?> call) throws Exception {
        return executor.submit(() -> {
            try {
                call.call();
                return null;
            } catch (Throwable t) {
                return t;
            }
        }).get(10, TimeUnit.SECONDS);
    }

    @Test
    void cancelFailsThePromiseWithCancellationAndNotifiesListeners() throws Exception {
        Promise<String> promise = new DefaultPromise<>(executor);
        Box<Boolean> notified = new Box<>();
        promise.addListener(f -> notified.complete(f.isCancelled()));

        assertThat(promise.isCancellable()).isTrue();
        assertThat(promise.cancel(false)).isTrue();
        assertThat(promise.cancel(false)).isFalse();
        assertThat(promise.isCancelled()).isTrue();
        assertThat(promise.isSuccess()).isFalse();
        assertThat(promise.cause()).isInstanceOf(CancellationException.class);
        assertThatThrownBy(promise::get).isInstanceOf(CancellationException.class);
        assertThat(promise.trySuccess("late")).isFalse();
        assertThatThrownBy(() -> promise.setSuccess("late")).isInstanceOf(IllegalStateException.class);
        assertThat(notified.get()).isTrue();
    }

    @Test
    void uncancellablePromiseRefusesCancelButStillCompletes() {
        Promise<String> promise = new DefaultPromise<>(executor);
        assertThat(promise.setUncancellable()).isTrue();
        assertThat(promise.isCancellable()).isFalse();
        assertThat(promise.cancel(true)).isFalse();
        assertThat(promise.isDone()).isFalse();
        assertThat(promise.trySuccess("ok")).isTrue();
        assertThat(promise.getNow()).isEqualTo("ok");

        Promise<String> cancelled = new DefaultPromise<>(executor);
        cancelled.cancel(false);
        assertThat(cancelled.setUncancellable()).isFalse();
    }

    @Test
    void successWithNullIsDistinguishableFromPending() {
        Promise<String> promise = new DefaultPromise<>(executor);
        assertThat(promise.isSuccess()).isFalse();
        promise.setSuccess(null);
        assertThat(promise.isSuccess()).isTrue();
        assertThat(promise.isDone()).isTrue();
        assertThat(promise.getNow()).isNull();
        assertThat(promise.cause()).isNull();
    }

    @Test
    void completingTwiceWithSetIsABug() {
        Promise<String> promise = new DefaultPromise<>(executor);
        promise.setSuccess("first");
        assertThatThrownBy(() -> promise.setFailure(new IOException())).isInstanceOf(IllegalStateException.class);
        assertThat(promise.getNow()).isEqualTo("first");
    }

    @Test
    void longListenerChainOnTheExecutorDoesNotOverflowTheStack() throws Exception {
        int length = 50_000;
        Promise<Integer> last = executor.newPromise();
        Promise<Integer> first = executor.newPromise();
        Promise<Integer> current = first;
        for (int i = 0; i < length; i++) {
            Promise<Integer> next = i == length - 1 ? last : executor.newPromise();
            current.addListener(f -> next.setSuccess(f.getNow() + 1));
            current = next;
        }
        Promise<Integer> start = first;
        executor.execute(() -> start.setSuccess(0));
        assertThat(last.get(30, TimeUnit.SECONDS)).isEqualTo(length);
    }

    @Test
    void nullListenerAndNullCauseAreRejected() {
        Promise<String> promise = new DefaultPromise<>(executor);
        assertThatThrownBy(() -> promise.addListener(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> promise.setFailure(null)).isInstanceOf(NullPointerException.class);
        assertThat(promise.isDone()).isFalse();
    }

    /** A minimal one-shot box to hand a value from a listener to the test thread. */
    private static final class Box<T> {
        private final java.util.concurrent.CompletableFuture<T> delegate = new java.util.concurrent.CompletableFuture<>();

        void complete(T value) {
            delegate.complete(value);
        }

        T get() throws Exception {
            return delegate.get(10, TimeUnit.SECONDS);
        }
    }
}
