package io.weir.example.chat;

import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.SimpleChannelInboundHandler;
import java.io.PrintStream;
import java.util.Objects;

/**
 * Prints each line the chat server sends. One instance per connection; called on its event loop.
 */
public final class ChatClientHandler extends SimpleChannelInboundHandler<String> {
    private static final System.Logger LOGGER = System.getLogger(ChatClientHandler.class.getName());

    private final PrintStream out;

    /** A handler printing to {@code out}. */
    public ChatClientHandler(PrintStream out) {
        this.out = Objects.requireNonNull(out, "out");
    }

    @Override
    protected void messageReceived(ChannelHandlerContext ctx, String line) {
        out.println(line);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOGGER.log(System.Logger.Level.WARNING, "Closing " + ctx.channel() + " after an error", cause);
        ctx.close();
    }
}
