package io.weir.example.echo;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.example.Settings;
import io.weir.server.Transports;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Objects;

/**
 * Connects to an echo server, sends one first message, then sends back whatever comes back, so the same bytes
 * travel to and fro until a byte or time limit is reached; prints the throughput on exit.
 *
 * <p>Run it with {@code examples/run io.weir.example.echo.EchoClient [host [port [size [seconds [bytes]]]]]}:
 * the server's host (default {@value #DEFAULT_HOST}) and port (default {@value EchoServer#DEFAULT_PORT}), the
 * first message's size in bytes (default {@value #DEFAULT_FIRST_MESSAGE_SIZE_BYTES}), how many seconds to run
 * (default {@value #DEFAULT_DURATION_SECONDS}, 0 for no limit) and after how many received bytes to stop
 * (default 0, no limit). Each can also be given as a property: {@code -Dio.weir.example.host=...},
 * {@code .port}, {@code .size}, {@code .seconds}, {@code .bytes}.
 */
public final class EchoClient {
    /** The host {@link #main} connects to when none is given. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** The size of the first message when none is given. */
    public static final int DEFAULT_FIRST_MESSAGE_SIZE_BYTES = 256;
    /** How long {@link #main} runs when no duration is given. */
    public static final long DEFAULT_DURATION_SECONDS = 10;

    private EchoClient() {
    }

    /**
     * Connects to {@code server} from {@code group}, runs the echo exchange until a limit is reached or the
     * server closes the connection, and returns what was measured. Blocks the calling thread, which must not
     * be one of {@code group}'s event loops.
     *
     * @param firstMessageSizeBytes the size of the first message, at least 1
     * @param maxBytes stop once this many bytes came back; 0 for no limit
     * @param durationSeconds stop after this many seconds; 0 for no limit
     * @throws java.net.ConnectException (thrown as is, undeclared) if the connection fails
     * @throws InterruptedException if interrupted while waiting
     */
    public static EchoClientHandler run(EventLoopGroup group, SocketAddress server, int firstMessageSizeBytes,
                                        long maxBytes, long durationSeconds) throws InterruptedException {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(server, "server");
        EchoClientHandler handler = new EchoClientHandler(firstMessageSizeBytes, maxBytes, durationSeconds);
        Channel channel = new Bootstrap()
                .group(group)
                .channel(Transports.socketChannel(group))
                .handler(handler)
                .connect(server).sync().channel();
        channel.closeFuture().sync();
        return handler;
    }

    /** Runs the echo client with the settings described in the class comment. */
    public static void main(String[] args) throws Exception {
        String host = Settings.string(args, 0, "host", DEFAULT_HOST);
        int port = Settings.port(args, 1, EchoServer.DEFAULT_PORT);
        int size = (int) Math.min(Integer.MAX_VALUE,
                Settings.number(args, 2, "size", DEFAULT_FIRST_MESSAGE_SIZE_BYTES, 1));
        long seconds = Settings.number(args, 3, "seconds", DEFAULT_DURATION_SECONDS, 0);
        long bytes = Settings.number(args, 4, "bytes", 0, 0);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, Transports.ioHandlerFactory());
        try {
            EchoClientHandler result = run(group, new InetSocketAddress(host, port), size, bytes, seconds);
            System.out.println("Echoed " + Settings.throughput(result.bytesReceived(), result.elapsedNanos()));
        } finally {
            group.shutdownGracefully();
        }
    }
}
