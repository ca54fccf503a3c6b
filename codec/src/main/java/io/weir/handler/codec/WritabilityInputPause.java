package io.weir.handler.codec;

import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelHandlerContext;

/**
 * The input side of backpressure for one handler: while the channel is not writable (its peer does not read what
 * it is sent), the handler takes no more input, so that answering it cannot queue without bound. {@link #pause}
 * turns auto-read off, remembering that it was this handler that did so; {@link #holdRead} keeps a {@code read()}
 * asked for meanwhile; once the channel is writable again, {@link #scheduleResume} runs the handler's resume task
 * on the event loop (not inside the writability event, which may fire in the middle of a flush), which calls
 * {@link #beginResume}, hands on the input it kept, then {@link #endResume} to read on. Used by the HTTP/2 codec
 * and stream adapter and the WebSocket frame decoder.
 *
 * <p>One per handler instance. Only used from the channel's event loop.
 */
public final class WritabilityInputPause {
    private boolean paused;
    private boolean autoReadTurnedOff;
    private boolean resumeScheduled;
    private boolean readRequested;

    /** Whether input is paused. */
    public boolean isPaused() {
        return paused;
    }

    /** Pauses input: no more is taken until {@link #beginResume}; auto-read is turned off if it was on. */
    public void pause(ChannelHandlerContext ctx) {
        paused = true;
        ChannelConfig config = ctx.channel().config();
        if (!autoReadTurnedOff && config.isAutoRead()) {
            autoReadTurnedOff = true;
            config.setAutoRead(false);
        }
    }

    /**
     * For the handler's {@code read}: true (the read is held, to be passed on when input resumes) while paused,
     * false when the caller should pass it on now.
     */
    public boolean holdRead() {
        if (paused) {
            readRequested = true;
            return true;
        }
        return false;
    }

    /**
     * For the handler's {@code channelWritabilityChanged}: once the paused channel is writable, runs
     * {@code resume} on the event loop, once however many events come before it runs.
     */
    public void scheduleResume(ChannelHandlerContext ctx, Runnable resume) {
        if (paused && !resumeScheduled && ctx.channel().isWritable()) {
            resumeScheduled = true;
            ctx.executor().execute(resume);
        }
    }

    /**
     * Starts a resume: false when there is nothing to resume or the channel is unwritable again (the next change
     * of writability schedules the resume again); true when input is no longer paused, and the handler should now
     * hand on what it kept and call {@link #endResume}.
     */
    public boolean beginResume(ChannelHandlerContext ctx) {
        resumeScheduled = false;
        if (!paused || !ctx.channel().isActive() || !ctx.channel().isWritable()) {
            return false;
        }
        paused = false;
        return true;
    }

    /**
     * Ends a resume: unless handing on the kept input paused again, turns auto-read back on (if this turned it
     * off) and passes on a held {@code read()}.
     */
    public void endResume(ChannelHandlerContext ctx) {
        if (paused) {
            return;
        }
        if (autoReadTurnedOff) {
            autoReadTurnedOff = false;
            ctx.channel().config().setAutoRead(true);
        }
        if (readRequested) {
            readRequested = false;
            ctx.read();
        }
    }
}
