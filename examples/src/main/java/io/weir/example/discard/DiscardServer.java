package io.weir.example.discard;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.example.Settings;
import io.weir.server.Transports;
import io.weir.util.concurrent.ScheduledFuture;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A TCP server that reads and throws away everything it receives, counting the bytes, and prints the
 * throughput once a second (only for seconds in which something arrived).
 *
 * <p>Run it with {@code examples/run io.weir.example.discard.DiscardServer [port]} (default
 * {@value #DEFAULT_PORT}, also {@code -Dio.weir.example.port}). From code: {@link #start} binds and returns
 * the listening channel, {@link #bytesReceived()} is the running total, {@link #close} stops listening.
 */
public final class DiscardServer implements AutoCloseable {
    /** The port {@link #main} listens on when none is given. */
    public static final int DEFAULT_PORT = 8009;
    /** How often the throughput is printed. */
    public static final long REPORT_INTERVAL_SECONDS = 1;

    private final EventLoopGroup group;
    private final PrintStream report;
    // Every connection's loop adds to it; a LongAdder keeps those loops from contending on one cache line.
    private final LongAdder bytesReceived = new LongAdder();
    private volatile Channel channel;

    /**
     * A server whose listening socket and connections run on {@code group}, which the caller owns and shuts
     * down, and which prints its throughput to {@code report}.
     */
    public DiscardServer(EventLoopGroup group, PrintStream report) {
        this.group = Objects.requireNonNull(group, "group");
        this.report = Objects.requireNonNull(report, "report");
    }

    /** Bytes received and discarded so far over all connections; may be called from any thread. */
    public long bytesReceived() {
        return bytesReceived.sum();
    }

    /**
     * Binds to {@code localAddress} (port 0 for any free port), starts accepting and reporting; blocks until
     * connections are served.
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
                    .childHandler(new DiscardServerHandler(bytesReceived))
                    .bind(localAddress).sync().channel();
            // The report runs on the listening channel's loop, so it needs no thread of its own, and stops with it.
            ScheduledFuture<?> reporting = bound.eventLoop().scheduleAtFixedRate(new ThroughputReport(),
                    REPORT_INTERVAL_SECONDS, REPORT_INTERVAL_SECONDS, TimeUnit.SECONDS);
            bound.closeFuture().addListener(f -> reporting.cancel(false));
            channel = bound;
            return bound;
        }
    }

    /**
     * Stops listening and reporting and waits until the listening channel is closed. Connections already
     * accepted stay open until their peer closes them or the group shuts down. Does nothing if the server was
     * never started.
     */
    @Override
    public void close() {
        Channel ch = channel;
        if (ch != null) {
            // Uninterruptibly: a close that returned early would leave the port bound behind the caller's back.
            ch.close().awaitUninterruptibly();
        }
    }

    /** Starts a discard server on the port given as first argument and runs until the process is stopped. */
    public static void main(String[] args) throws Exception {
        int port = Settings.port(args, 0, DEFAULT_PORT);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, Transports.ioHandlerFactory());
        try {
            Channel channel = new DiscardServer(group, System.out).start(new InetSocketAddress(port));
            System.out.println("Discard server listening on " + channel.localAddress());
            channel.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    /** Prints the bytes received since its last run over the time since then. Runs on one event loop. */
    private final class ThroughputReport implements Runnable {
        private long lastBytes;
        private long lastNanos = System.nanoTime();

        @Override
        public void run() {
            long bytes = bytesReceived.sum();
            long now = System.nanoTime();
            if (bytes != lastBytes) {
                report.println("Received " + Settings.throughput(bytes - lastBytes, now - lastNanos)
                        + ", " + bytes + " bytes in all");
            }
            lastBytes = bytes;
            lastNanos = now;
        }
    }
}
