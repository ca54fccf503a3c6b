package io.weir.example.discard;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.example.Settings;
import io.weir.server.Transports;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Objects;

/**
 * Connects to a discard server and writes to it as fast as the connection takes the bytes, showing how a
 * writer follows backpressure: it writes while the channel {@linkplain Channel#isWritable() is writable} and
 * resumes when told that it is writable again, so what waits in memory stays near the write buffer's high
 * water mark however slow the server is.
 *
 * <p>Run it with {@code examples/run io.weir.example.discard.DiscardClient [host [port [size [bytes]]]]}: the
 * server's host (default {@value #DEFAULT_HOST}) and port (default {@value DiscardServer#DEFAULT_PORT}), the
 * size of each write in bytes (default {@value #DEFAULT_CHUNK_SIZE_BYTES}) and how many bytes to send in all
 * (default 0: until the process is stopped); also {@code -Dio.weir.example.host}, {@code .port}, {@code .size},
 * {@code .bytes}. With a byte count it prints the throughput when done.
 */
public final class DiscardClient {
    /** The host {@link #main} connects to when none is given. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** The size of each write when none is given. */
    public static final int DEFAULT_CHUNK_SIZE_BYTES = 8 * 1024;

    private DiscardClient() {
    }

    /**
     * Connects to {@code server} from {@code group} and writes {@code maxBytes} bytes (0: until the connection
     * closes) in writes of {@code chunkSizeBytes}, then shuts its output down and waits for the server to close
     * the connection, so that the server has read every byte when this returns. Blocks the calling thread, which
     * must not be one of {@code group}'s event loops.
     *
     * @param waterMark the write buffer's low and high water marks, between which the channel turns writable
     *                  and unwritable
     * @return the connection's handler, to read what it counted
     * @throws java.net.ConnectException (thrown as is, undeclared) if the connection fails
     * @throws InterruptedException if interrupted while waiting
     */
    public static DiscardClientHandler run(EventLoopGroup group, SocketAddress server, int chunkSizeBytes,
                                           long maxBytes, WriteBufferWaterMark waterMark)
            throws InterruptedException {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(waterMark, "waterMark");
        DiscardClientHandler handler = new DiscardClientHandler(chunkSizeBytes, maxBytes);
        Channel channel = new Bootstrap()
                .group(group)
                .channel(Transports.socketChannel(group))
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark)
                .handler(handler)
                .connect(server).sync().channel();
        channel.closeFuture().sync();
        return handler;
    }

    /** Runs the discard client with the settings described in the class comment. */
    public static void main(String[] args) throws Exception {
        String host = Settings.string(args, 0, "host", DEFAULT_HOST);
        int port = Settings.port(args, 1, DiscardServer.DEFAULT_PORT);
        int size = (int) Math.min(Integer.MAX_VALUE, Settings.number(args, 2, "size", DEFAULT_CHUNK_SIZE_BYTES, 1));
        long bytes = Settings.number(args, 3, "bytes", 0, 0);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, Transports.ioHandlerFactory());
        try {
            DiscardClientHandler result = run(group, new InetSocketAddress(host, port), size, bytes,
                    WriteBufferWaterMark.DEFAULT);
            System.out.println("Sent " + Settings.throughput(result.bytesWritten(), result.elapsedNanos())
                    + "; paused " + result.pauses() + " times for the connection to drain");
        } finally {
            group.shutdownGracefully();
        }
    }
}
