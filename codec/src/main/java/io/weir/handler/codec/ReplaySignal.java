package io.weir.handler.codec;

/**
 * Thrown by {@link ReplayingDecoderBuffer} when a read needs bytes that have not arrived yet, and caught by
 * {@link ReplayingDecoder}, which rewinds and waits. One preallocated instance without a stack trace: it is
 * thrown on every short read, so it must cost no more than a jump. An {@link Error} so that a decoder's
 * {@code catch (Exception e)} does not swallow it.
 */
final class ReplaySignal extends Error {
    private static final long serialVersionUID = 1L;

    /** The one instance. */
    static final ReplaySignal INSTANCE = new ReplaySignal();

    private ReplaySignal() {
        super("replay: not enough bytes yet", null, false, false);
    }
}
