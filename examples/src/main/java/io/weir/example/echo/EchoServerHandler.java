package io.weir.example.echo;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;

/**
 * Writes every buffer it reads straight back, flushing once per read loop rather than once per buffer so
 * that a burst of reads leaves in one gathering write.
 *
 * <p>Backpressure: while the connection cannot take more output (the peer is not reading), the handler
 * stops reading from it, so a client that sends without ever reading cannot make the server buffer without
 * bound. Reading resumes when the output drained below the low water mark.
 *
 * <p>Sharable: it keeps no state, so one instance serves every connection. Called on each connection's event
 * loop.
 */
@ChannelHandler.Sharable
public final class EchoServerHandler implements ChannelHandler {
    private static final System.Logger LOGGER = System.getLogger(EchoServerHandler.class.getName());

    /** Creates the handler; one instance may be shared by every connection. */
    public EchoServerHandler() {
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // Ownership of msg passes to the transport, which releases it once written (or on failure).
        ctx.write(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
        if (!ctx.channel().isWritable()) {
            ctx.channel().config().setAutoRead(false);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            ctx.channel().config().setAutoRead(true);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOGGER.log(System.Logger.Level.WARNING, "Closing " + ctx.channel() + " after an error", cause);
        ctx.close();
    }
}
