package io.weir.channel;

/**
 * Estimates how many bytes an outbound message will occupy once written, for the pending-bytes accounting
 * behind the {@linkplain WriteBufferWaterMark water marks}. Implementations are thread-safe; each channel
 * uses its own {@link Handle}.
 */
public interface MessageSizeEstimator {

    /** A new handle, used by one channel. */
    Handle newHandle();

    /** Sizes messages for one channel. May be called from any thread that writes to the channel. */
    interface Handle {
        /** The estimated size of {@code msg} in bytes, {@code >= 0}. Must not change {@code msg}. */
        int size(Object msg);
    }
}
