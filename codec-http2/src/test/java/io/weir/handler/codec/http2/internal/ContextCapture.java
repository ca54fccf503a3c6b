package io.weir.handler.codec.http2.internal;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;

/** A handler that only keeps its context: tests write through it as a codec writes through its own. */
final class ContextCapture implements ChannelHandler {
    ChannelHandlerContext ctx;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** Flushes through the context and takes the buffers {@code channel} wrote (the caller releases them). */
    List<ByteBuf> flushAndTake(EmbeddedChannel channel) {
        ctx.flush();
        channel.runPendingTasks();
        List<ByteBuf> out = new ArrayList<>();
        for (Object msg; (msg = channel.readOutbound()) != null; ) {
            out.add((ByteBuf) msg);
        }
        return out;
    }
}
