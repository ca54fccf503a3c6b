package io.weir.example.echo;

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
 * A TCP server that sends back every byte it receives, on every connection, until the peer closes.
 *
 * <p>Run it with {@code examples/run io.weir.example.echo.EchoServer [port]} (default {@value #DEFAULT_PORT},
 * also {@code -Dio.weir.example.port}); it prints the address it listens on. From code: {@link #start} binds
 * and returns the listening channel, {@link #close} stops listening.
 */
public final class EchoServer implements AutoCloseable {
    /** The port {@link #main} listens on when none is given. */
    public static final int DEFAULT_PORT = 8007;

    private final EventLoopGroup group;
    private volatile Channel channel;

    /**
     * A server whose listening socket and connections run on {@code group}, which the caller owns and shuts
     * down.
     */
    public EchoServer(EventLoopGroup group) {
        this.group = Objects.requireNonNull(group, "group");
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
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(group)
                    .channel(Transports.serverChannel(group))
                    // One handler instance serves every connection: it keeps no per-connection state.
                    .childHandler(new EchoServerHandler());
            Channel bound = bootstrap.bind(localAddress).sync().channel();
            channel = bound;
            return bound;
        }
    }

    /**
     * Stops listening and waits until the listening channel is closed. Connections already accepted stay open
     * until their peer closes them or the group shuts down. Does nothing if the server was never started.
     */
    @Override
    public void close() {
        Channel ch = channel;
        if (ch != null) {
            // Uninterruptibly: a close that returned early would leave the port bound behind the caller's back.
            ch.close().awaitUninterruptibly();
        }
    }

    /** Starts an echo server on the port given as first argument and runs until the process is stopped. */
    public static void main(String[] args) throws Exception {
        int port = Settings.port(args, 0, DEFAULT_PORT);
        // 0 threads: the group's default, two per core.
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, Transports.ioHandlerFactory());
        try {
            Channel channel = new EchoServer(group).start(new InetSocketAddress(port));
            System.out.println("Echo server listening on " + channel.localAddress());
            channel.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }
}
