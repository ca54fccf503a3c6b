package io.weir.example.discard;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.util.ReferenceCountUtil;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * Releases every message it reads, adding the bytes of each buffer to a counter shared by all connections.
 *
 * <p>Sharable: its only state is the thread-safe counter. Called on each connection's event loop.
 */
@ChannelHandler.Sharable
public final class DiscardServerHandler implements ChannelHandler {
    private static final System.Logger LOGGER = System.getLogger(DiscardServerHandler.class.getName());

    private final LongAdder bytesReceived;

    /** A handler adding what it discards to {@code bytesReceived}. */
    public DiscardServerHandler(LongAdder bytesReceived) {
        this.bytesReceived = Objects.requireNonNull(bytesReceived, "bytesReceived");
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            bytesReceived.add(buf.readableBytes());
        }
        // The handler owns what it reads and ends its life here.
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOGGER.log(System.Logger.Level.WARNING, "Closing " + ctx.channel() + " after an error", cause);
        ctx.close();
    }
}
