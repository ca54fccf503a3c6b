package io.weir.handler.codec;

import java.util.Objects;

/**
 * How decoding a message went: {@linkplain #UNFINISHED not finished yet}, {@linkplain #SUCCESS successful}, or
 * {@linkplain #failure(Throwable) failed} with a cause. A decoder that keeps going after malformed input (an
 * HTTP decoder that turns a bad request into a message the server answers with 400) attaches a failed result to
 * the message it emits instead of throwing. Immutable and thread-safe.
 */
public final class DecoderResult {
    /** Decoding has not finished: more input is needed. */
    public static final DecoderResult UNFINISHED = new DecoderResult(false, null);
    /** Decoding finished successfully. */
    public static final DecoderResult SUCCESS = new DecoderResult(true, null);

    private final boolean finished;
    private final Throwable cause;

    private DecoderResult(boolean finished, Throwable cause) {
        this.finished = finished;
        this.cause = cause;
    }

    /**
     * A finished, failed result.
     *
     * @throws NullPointerException if {@code cause} is null
     */
    public static DecoderResult failure(Throwable cause) {
        return new DecoderResult(true, Objects.requireNonNull(cause, "cause"));
    }

    /** Whether decoding finished, successfully or not. */
    public boolean isFinished() {
        return finished;
    }

    /** Whether decoding finished successfully. */
    public boolean isSuccess() {
        return finished && cause == null;
    }

    /** Whether decoding failed. */
    public boolean isFailure() {
        return cause != null;
    }

    /** Why decoding failed, or {@code null} unless {@link #isFailure()}. */
    public Throwable cause() {
        return cause;
    }

    @Override
    public String toString() {
        if (!finished) {
            return "unfinished";
        }
        return cause == null ? "success" : "failure(" + cause + ')';
    }
}
