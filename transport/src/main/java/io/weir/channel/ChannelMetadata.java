package io.weir.channel;

/**
 * What a kind of channel is like, for code that handles channels generically.
 *
 * @param hasDisconnect whether {@link Channel#disconnect()} means something other than close (datagrams)
 * @param defaultMaxMessagesPerRead the {@link ChannelOption#MAX_MESSAGES_PER_READ} its config starts with
 */
public record ChannelMetadata(boolean hasDisconnect, int defaultMaxMessagesPerRead) {

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException if {@code defaultMaxMessagesPerRead} is not positive
     */
    public ChannelMetadata {
        if (defaultMaxMessagesPerRead <= 0) {
            throw new IllegalArgumentException(
                    "defaultMaxMessagesPerRead: " + defaultMaxMessagesPerRead + " (expected: > 0)");
        }
    }
}
