package io.weir.example.chat;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.example.Settings;
import io.weir.server.Transports;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Objects;

/**
 * A line-based chat server: every line a client sends (UTF-8, ended by {@code \n} or {@code \r\n}, at most
 * {@value ChatPipeline#MAX_LINE_LENGTH_BYTES} bytes) goes to every other connected client, prefixed with the
 * sender's address; a line {@code bye} closes the sender's connection. Clients are told who joins and leaves.
 * Any line-oriented client works ({@code nc localhost 8010}), as does {@link ChatClient}.
 *
 * <p>Run it with {@code examples/run io.weir.example.chat.ChatServer [port]} (default {@value #DEFAULT_PORT},
 * also {@code -Dio.weir.example.port}). From code: {@link #start} binds and returns the listening channel,
 * {@link #clientCount()} is the number of connected clients, {@link #close} stops listening.
 */
public final class ChatServer implements AutoCloseable {
    /** The port {@link #main} listens on when none is given. */
    public static final int DEFAULT_PORT = 8010;

    private final EventLoopGroup group;
    private final ChatServerHandler handler = new ChatServerHandler();
    private volatile Channel channel;

    /**
     * A server whose listening socket and connections run on {@code group}, which the caller owns and shuts
     * down.
     */
    public ChatServer(EventLoopGroup group) {
        this.group = Objects.requireNonNull(group, "group");
    }

    /** How many clients are connected now; may be called from any thread. */
    public int clientCount() {
        return handler.clientCount();
    }

    /**
     * Binds to {@code localAddress} (port 0 for any free port) and starts accepting; blocks until connections
     * are served.
     *
     * @return the listening channel; its {@code localAddress()} is the address actually bound
     * @throws IllegalStateException if this server was started already
     * @throws java.io.IOException (thrown as is, undeclared) if the address cannot be bound
     * @throws InterruptedException if interrupted while waiting for the bind
     */
    public Channel start(SocketAddress localAddress) throws InterruptedException {
        Objects.requireNonNull(localAddress, "localAddress");
        synchronized (this) {
            if (channel != null) {
                throw new IllegalStateException("already started: " + channel);
            }
            Channel bound = new ServerBootstrap()
                    .group(group)
                    .channel(Transports.serverChannel(group))
                    .childHandler(new ChatPipeline(handler))
                    .bind(localAddress).sync().channel();
            channel = bound;
            return bound;
        }
    }

    /**
     * Stops listening and waits until the listening channel is closed. Connected clients stay connected until
     * they leave or the group shuts down. Does nothing if the server was never started.
     */
    @Override
    public void close() {
        Channel ch = channel;
        if (ch != null) {
            // Uninterruptibly: a close that returned early would leave the port bound behind the caller's back.
            ch.close().awaitUninterruptibly();
        }
    }

    /** Starts a chat server on the port given as first argument and runs until the process is stopped. */
    public static void main(String[] args) throws Exception {
        int port = Settings.port(args, 0, DEFAULT_PORT);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, Transports.ioHandlerFactory());
        try {
            Channel channel = new ChatServer(group).start(new InetSocketAddress(port));
            System.out.println("Chat server listening on " + channel.localAddress());
            channel.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }
}
