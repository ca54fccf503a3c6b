package io.weir.channel;

/**
 * A {@link ChannelFutureListener} that is also told about progress. Runs on the channel's event loop.
 */
public interface ChannelProgressiveFutureListener extends ChannelFutureListener {

    /**
     * Called each time the operation made progress.
     *
     * @param progress how much is done so far
     * @param total the whole amount, or {@code -1} if unknown
     */
    void operationProgressed(ChannelProgressiveFuture future, long progress, long total) throws Exception;
}
