package io.weir.handler.ipfilter;

import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import java.net.SocketAddress;

/**
 * Decides once per channel, from its remote address, whether to accept it: as soon as the address is known
 * (when the channel is registered, or at the latest when it becomes active). An accepted channel goes on
 * as if the filter were not there (the filter removes itself from the pipeline); a rejected one is closed,
 * after the future returned by {@link #channelRejected} completes if it returns one (to send a goodbye),
 * and does not see {@code channelActive} beyond this handler. A channel still without remote address when it
 * becomes active is closed, with an {@link IllegalStateException} fired as an exception event.
 *
 * <p>Subclasses decide in {@link #accept}. Called on the event loop only.
 *
 * @param <T> the type of remote address the subclass understands
 */
public abstract class AbstractRemoteAddressFilter<T extends SocketAddress> implements ChannelHandler {
    private static final byte UNDECIDED = 0;
    private static final byte ACCEPTED = 1;
    private static final byte REJECTED = 2;

    /** For subclasses. */
    protected AbstractRemoteAddressFilter() {
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) throws Exception {
        decide(ctx);
        ctx.fireChannelRegistered();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        byte decision = decide(ctx);
        if (decision == UNDECIDED) {
            // Fail closed: without an address there is nothing to admit.
            ctx.pipeline().remove(this);
            ctx.fireExceptionCaught(new IllegalStateException("cannot accept or reject " + ctx.channel()
                    + ": its remote address is unknown although it is active"));
            ctx.close();
            return;
        }
        if (decision == ACCEPTED) {
            ctx.fireChannelActive();
        }
    }

    private byte decide(ChannelHandlerContext ctx) throws Exception {
        if (ctx.isRemoved()) {
            // Decided at registration already; the channel is accepted or being closed.
            return ctx.channel().isOpen() ? ACCEPTED : REJECTED;
        }
        @SuppressWarnings("unchecked")
        T remoteAddress = (T) ctx.channel().remoteAddress();
        if (remoteAddress == null) {
            return UNDECIDED;
        }
        // Decided once: later events go straight past.
        ctx.pipeline().remove(this);
        boolean accepted;
        try {
            accepted = accept(ctx, remoteAddress);
        } catch (Exception e) {
            // Fail closed: a filter that cannot decide must not let the channel through.
            accepted = false;
            ctx.fireExceptionCaught(e);
        }
        if (accepted) {
            channelAccepted(ctx, remoteAddress);
            return ACCEPTED;
        }
        ChannelFuture rejectedFuture = channelRejected(ctx, remoteAddress);
        if (rejectedFuture != null) {
            rejectedFuture.addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
        return REJECTED;
    }

    /**
     * Whether to accept the channel whose remote address is {@code remoteAddress}.
     *
     * @throws Exception to reject it; the exception is fired as an exception event
     */
    protected abstract boolean accept(ChannelHandlerContext ctx, T remoteAddress) throws Exception;

    /** Called after {@code remoteAddress} was accepted; does nothing by default. */
    protected void channelAccepted(ChannelHandlerContext ctx, T remoteAddress) {
    }

    /**
     * Called when {@code remoteAddress} was rejected, before the channel is closed. Return {@code null} to
     * close at once (the default), or a future (for example of a final write) after which to close.
     */
    protected ChannelFuture channelRejected(ChannelHandlerContext ctx, T remoteAddress) {
        return null;
    }
}
