package io.weir.channel;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufHolder;

/**
 * Sizes {@link ByteBuf}s and {@link ByteBufHolder}s by their readable bytes and every other message by a
 * fixed guess. Thread-safe and stateless.
 */
public final class DefaultMessageSizeEstimator implements MessageSizeEstimator {
    /** The guess for messages that are neither buffers nor buffer holders, in bytes. */
    public static final int DEFAULT_UNKNOWN_SIZE_BYTES = 8;
    /** The estimator channels use unless configured otherwise. */
    public static final MessageSizeEstimator DEFAULT = new DefaultMessageSizeEstimator(DEFAULT_UNKNOWN_SIZE_BYTES);

    private final Handle handle;

    /**
     * An estimator that counts {@code unknownSize} bytes for messages it cannot size.
     *
     * @throws IllegalArgumentException if {@code unknownSize} is negative
     */
    public DefaultMessageSizeEstimator(int unknownSize) {
        if (unknownSize < 0) {
            throw new IllegalArgumentException("unknownSize: " + unknownSize + " (expected: >= 0)");
        }
        this.handle = msg -> {
            if (msg instanceof ByteBuf buf) {
                return buf.readableBytes();
            }
            if (msg instanceof ByteBufHolder holder) {
                return holder.content().readableBytes();
            }
            return unknownSize;
        };
    }

    /** The shared, stateless handle. */
    @Override
    public Handle newHandle() {
        return handle;
    }
}
