package io.weir.util.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CompletableFuturesTest {
    private static final long TIMEOUT_SECONDS = 10;
    private static DefaultEventExecutor executor;

    @BeforeAll
    static void startExecutor() {
        executor = new DefaultEventExecutor();
    }

    @AfterAll
    static void stopExecutor() throws Exception {
        executor.shutdownGracefully(0, 10, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    // ------------------------------------------------------------------ Weir -> CompletableFuture

    @Test
    void successCrossesToTheCompletableFutureOnTheExecutorThread() throws Exception {
        Promise<String> promise = executor.newPromise();
        CompletableFuture<String> bridged = CompletableFutures.toCompletableFuture(promise);
        CompletableFuture<Boolean> stageOnLoop = bridged.thenApply(v -> executor.inEventLoop());
        assertThat(bridged).isNotDone();

        promise.setSuccess("done");

        // The dependent stage first: a thread waiting in bridged.get() may run bridged's pending dependents itself
        // (CompletableFuture helps complete them), which would move the stage off the loop.
        assertThat(stageOnLoop.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("dependent stage ran on the loop").isTrue();
        assertThat(bridged.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("done");
    }

    @Test
    void failureCrossesWithTheSameCause() {
        Promise<String> promise = executor.newPromise();
        CompletableFuture<String> bridged = CompletableFutures.toCompletableFuture(promise);
        IOException cause = new IOException("connection reset");

        promise.setFailure(cause);

        assertThatThrownBy(() -> bridged.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isSameAs(cause);
    }

    @Test
    void cancellingTheWeirFutureCancelsTheCompletableFuture() {
        Promise<String> promise = executor.newPromise();
        CompletableFuture<String> bridged = CompletableFutures.toCompletableFuture(promise);

        assertThat(promise.cancel(false)).isTrue();

        assertThatThrownBy(() -> bridged.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(CancellationException.class);
        assertThat(bridged.isCancelled()).isTrue();
    }

    @Test
    void cancellingTheCompletableFutureCancelsTheWeirFuture() throws Exception {
        Promise<String> promise = executor.newPromise();
        CompletableFuture<String> bridged = CompletableFutures.toCompletableFuture(promise);

        assertThat(bridged.cancel(false)).isTrue();

        assertThat(promise.isCancelled()).isTrue();
        assertThat(promise.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void anAlreadyCompletedFutureIsBridgedAtOnce() throws Exception {
        assertThat(CompletableFutures.toCompletableFuture(executor.newSucceededFuture("now")).getNow(null))
                .isEqualTo("now");
        IOException cause = new IOException("refused");
        CompletableFuture<Object> failed = CompletableFutures.toCompletableFuture(executor.newFailedFuture(cause));
        assertThat(failed.isCompletedExceptionally()).isTrue();
        assertThatThrownBy(failed::join).cause().isSameAs(cause);
    }

    @Test
    void completingTheCompletableFutureOtherwiseLeavesTheWeirFutureAlone() {
        Promise<String> promise = executor.newPromise();
        CompletableFuture<String> bridged = CompletableFutures.toCompletableFuture(promise);

        bridged.complete("not yours");

        assertThat(promise.isDone()).isFalse();
        promise.setSuccess("mine");
    }

    // ------------------------------------------------------------------ CompletionStage -> Weir

    @Test
    void stageValueCompletesThePromiseWhoseListenersRunOnTheExecutor() throws Exception {
        CompletableFuture<String> stage = new CompletableFuture<>();
        Future<String> bridged = CompletableFutures.fromCompletionStage(stage, executor);
        CompletableFuture<Boolean> listenerOnLoop = new CompletableFuture<>();
        bridged.addListener(f -> listenerOnLoop.complete(executor.inEventLoop()));

        stage.complete("value");

        assertThat(bridged.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(bridged.getNow()).isEqualTo("value");
        assertThat(listenerOnLoop.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void stageFailureArrivesUnwrapped() throws Exception {
        IOException cause = new IOException("backend down");
        CompletionStage<String> failedDownstream = CompletableFuture.<String>failedFuture(cause).thenApply(v -> v);
        Future<String> bridged = CompletableFutures.fromCompletionStage(failedDownstream, executor);

        assertThat(bridged.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(bridged.cause()).as("not the CompletionException the JDK wraps it in").isSameAs(cause);
    }

    @Test
    void cancelledStageCancelsThePromise() throws Exception {
        CompletableFuture<String> stage = new CompletableFuture<>();
        Future<String> bridged = CompletableFutures.fromCompletionStage(stage, executor);

        stage.cancel(false);

        assertThat(bridged.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(bridged.isCancelled()).isTrue();
    }

    @Test
    void cancellingThePromiseCancelsTheStage() {
        CompletableFuture<String> stage = new CompletableFuture<>();
        Future<String> bridged = CompletableFutures.fromCompletionStage(stage, executor);

        assertThat(bridged.cancel(false)).isTrue();

        assertThatThrownBy(() -> stage.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(CancellationException.class);
    }

    @Test
    void nullArgumentsAreRefused() {
        assertThatThrownBy(() -> CompletableFutures.toCompletableFuture(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("future");
        assertThatThrownBy(() -> CompletableFutures.fromCompletionStage(new CompletableFuture<>(), null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("executor");
    }
}
