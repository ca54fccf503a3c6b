package io.weir.channel;

/** A channel's close future: only the channel completes it, once it is closed. */
final class CloseFuture extends DefaultChannelPromise {

    CloseFuture(Channel channel) {
        super(channel);
    }

    private static IllegalStateException refuse() {
        return new IllegalStateException("only the channel completes its close future");
    }

    @Override
    public ChannelPromise setSuccess(Void result) {
        throw refuse();
    }

    @Override
    public ChannelPromise setFailure(Throwable cause) {
        throw refuse();
    }

    @Override
    public boolean trySuccess(Void result) {
        throw refuse();
    }

    @Override
    public boolean tryFailure(Throwable cause) {
        throw refuse();
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return false;
    }

    @Override
    public boolean isCancellable() {
        return false;
    }

    boolean setClosed() {
        return super.trySuccess(null);
    }
}
