package io.weir.example.chat;

import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.SimpleChannelInboundHandler;
import io.weir.handler.codec.TooLongFrameException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The chat room: keeps the connected channels in a set and sends each line one of them sends to all the others.
 *
 * <p>What a client receives, one line each: {@code Welcome, you are <address>; <n> others here.} when it
 * connects, {@code [<address>] <line>} for each line another client sent, {@code * <address> joined} and
 * {@code * <address> left} as others come and go, and {@code ! <reason>} when its own line was too long and
 * dropped. The address is the sender's, as the server sees it. A line {@code bye} (any case, surrounding
 * spaces ignored) closes the sender's connection.
 *
 * <p>Sharable: one instance serves every connection of a server, its set being thread-safe. Each method runs on
 * the event loop of the channel it is called for; writes to other channels are handed to their own loops.
 */
@ChannelHandler.Sharable
public final class ChatServerHandler extends SimpleChannelInboundHandler<String> {
    private static final System.Logger LOGGER = System.getLogger(ChatServerHandler.class.getName());

    // Channels join and leave from every loop of the group while others broadcast: a concurrent set, whose
    // iteration never fails and sees a channel added before the iteration started.
    private final Set<Channel> clients = ConcurrentHashMap.newKeySet();

    /** An empty chat room. */
    public ChatServerHandler() {
    }

    /** How many clients are connected now; may be called from any thread. */
    public int clientCount() {
        return clients.size();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        Channel joined = ctx.channel();
        broadcast(joined, "* " + joined.remoteAddress() + " joined");
        clients.add(joined);
        ctx.writeAndFlush("Welcome, you are " + joined.remoteAddress() + "; " + (clients.size() - 1)
                + " others here.");
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        Channel left = ctx.channel();
        if (clients.remove(left)) {
            broadcast(left, "* " + left.remoteAddress() + " left");
        }
        ctx.fireChannelInactive();
    }

    @Override
    protected void messageReceived(ChannelHandlerContext ctx, String line) {
        if ("bye".equalsIgnoreCase(line.strip())) {
            ctx.close();
            return;
        }
        broadcast(ctx.channel(), "[" + ctx.channel().remoteAddress() + "] " + line);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof TooLongFrameException) {
            // The decoder has already dropped the line and goes on with the next one: the connection is usable.
            ctx.writeAndFlush("! line dropped, longer than " + ChatPipeline.MAX_LINE_LENGTH_BYTES + " bytes");
            return;
        }
        LOGGER.log(System.Logger.Level.WARNING, "Closing " + ctx.channel() + " after an error", cause);
        ctx.close();
    }

    /** Sends {@code line} to every client but {@code sender}. Strings are not reference-counted: one serves all. */
    private void broadcast(Channel sender, String line) {
        for (Channel client : clients) {
            if (client != sender) {
                client.writeAndFlush(line);
            }
        }
    }
}
