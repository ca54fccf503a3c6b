package io.weir.util.concurrent;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * Bridges between Weir's {@link Future} and the JDK's {@link CompletableFuture} and {@link CompletionStage}, for
 * code that composes with the JDK's API or a library built on it. Each outcome crosses the bridge: a value, a
 * failure (the same {@link Throwable}, not wrapped), a cancellation. Stateless; every method is thread-safe.
 *
 * <p><b>Threads.</b> Code chained onto a bridged future runs on whichever thread completes it, which for a Weir
 * future is usually an event loop: a blocking stage there stalls every connection of that loop. Give blocking
 * work an executor of its own ({@code thenApplyAsync(fn, executor)}).
 */
public final class CompletableFutures {
    private CompletableFutures() {
    }

    /**
     * A {@link CompletableFuture} that completes as {@code future} does: with its value, exceptionally with its
     * cause, or cancelled when {@code future} is cancelled. Cancelling the returned future cancels
     * {@code future} (if it still {@linkplain Future#isCancellable() can be}); completing it in any other way
     * leaves {@code future} alone.
     *
     * <p>If {@code future} is already done, the returned future is complete when this method returns, and
     * stages added to it without an executor run on the thread adding them. Otherwise it is completed from a
     * listener of {@code future}, so on {@code future}'s executor (the event loop, for a channel's future), and
     * so are the stages waiting on it.
     *
     * @throws NullPointerException if {@code future} is null
     */
    public static <V> CompletableFuture<V> toCompletableFuture(Future<V> future) {
        Objects.requireNonNull(future, "future");
        CompletableFuture<V> bridged = new CompletableFuture<>();
        if (future.isDone()) {
            complete(future, bridged);
            return bridged;
        }
        future.addListener(f -> complete(f, bridged));
        // Runs on the thread that cancels (or on the completing executor, where it finds future done already).
        bridged.whenComplete((value, cause) -> {
            if (bridged.isCancelled()) {
                future.cancel(false);
            }
        });
        return bridged;
    }

    private static <V> void complete(Future<? extends V> from, CompletableFuture<V> to) {
        if (from.isSuccess()) {
            to.complete(from.getNow());
        } else if (from.isCancelled()) {
            to.cancel(false);
        } else {
            to.completeExceptionally(from.cause());
        }
    }

    /**
     * A Weir future on {@code executor} that completes as {@code stage} does: with its value, with its failure
     * (unwrapped from the {@link CompletionException} the JDK may add), or cancelled when {@code stage} is
     * cancelled. Cancelling the returned future cancels {@code stage} too when it is a
     * {@link java.util.concurrent.Future} (a {@link CompletableFuture} is).
     *
     * <p>The returned future is completed on the thread that completes {@code stage} (or on this thread if
     * {@code stage} is already complete); its listeners run on {@code executor}, as for any promise of it, so a
     * listener may touch that event loop's state without locking.
     *
     * @throws NullPointerException if {@code stage} or {@code executor} is null
     */
    public static <V> Future<V> fromCompletionStage(CompletionStage<V> stage, EventExecutor executor) {
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(executor, "executor");
        Promise<V> promise = executor.newPromise();
        stage.whenComplete((value, failure) -> {
            if (failure == null) {
                promise.trySuccess(value);
                return;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof CancellationException) {
                promise.cancel(false);
            } else {
                promise.tryFailure(cause);
            }
        });
        if (stage instanceof java.util.concurrent.Future<?> cancellable) {
            promise.addListener(f -> {
                if (f.isCancelled()) {
                    cancellable.cancel(false);
                }
            });
        }
        return promise;
    }
}
