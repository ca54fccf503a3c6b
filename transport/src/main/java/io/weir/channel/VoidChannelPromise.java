package io.weir.channel;

/**
 * The promise behind {@link Channel#voidPromise()}: for callers that do not care about the outcome, so no
 * promise is allocated per operation. It never completes; a failure is fired through the pipeline as an
 * exception event instead. It takes no listeners and cannot be waited on (both throw
 * {@link IllegalStateException}). Thread-safe and stateless.
 */
final class VoidChannelPromise extends AbstractVoidChannelPromise {

    VoidChannelPromise(Channel channel) {
        super(channel);
    }

    @Override
    public ChannelPromise unvoid() {
        ChannelPromise promise = new DefaultChannelPromise(channel());
        promise.addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        return promise;
    }

    @Override
    protected void failed(Throwable cause) {
        // A failure after the channel was deregistered has no pipeline to go to that could still act on it.
        if (channel().isRegistered()) {
            channel().pipeline().fireExceptionCaught(cause);
        }
    }

    @Override
    public String toString() {
        return "VoidChannelPromise(" + channel() + ')';
    }
}
