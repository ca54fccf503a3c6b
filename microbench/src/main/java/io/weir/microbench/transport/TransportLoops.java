package io.weir.microbench.transport;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The two single-thread event loops a transport benchmark runs on, a server's and a client's, one pair per framework,
 * and their orderly shutdown. Setup and teardown only: nothing here is measured.
 */
final class TransportLoops {
    /** Seconds a benchmark waits for a batch, a bind, a close or a shutdown before it fails. */
    static final long TIMEOUT_SECONDS = 30;

    private TransportLoops() {
    }

    /**
     * The simple name of the benchmark method a fork runs ({@code weirPingPong_pollSpinOff}), so that its setup
     * starts only the loops that method measures.
     */
    static String methodName(org.openjdk.jmh.infra.BenchmarkParams params) {
        String benchmark = params.getBenchmark();
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    /** A new loopback address with a port the kernel picks at bind time. */
    static InetSocketAddress loopbackAnyPort() {
        return new InetSocketAddress("127.0.0.1", 0);
    }

    /** Weir's server loop and client loop. */
    static final class Weir {
        final io.weir.channel.MultiThreadIoEventLoopGroup server;
        final io.weir.channel.MultiThreadIoEventLoopGroup client;

        /** Two groups of one loop each, whose I/O handlers {@code factory} makes (one factory per group). */
        Weir(Supplier<io.weir.channel.IoHandlerFactory> factory) {
            server = new io.weir.channel.MultiThreadIoEventLoopGroup(1, factory.get());
            client = new io.weir.channel.MultiThreadIoEventLoopGroup(1, factory.get());
        }

        static Weir epoll() {
            io.weir.channel.epoll.Epoll.ensureAvailability();
            return new Weir(io.weir.channel.epoll.EpollIoHandler::newFactory);
        }

        static Weir nio() {
            return new Weir(io.weir.channel.nio.NioIoHandler::newFactory);
        }

        /** io_uring loops; fails the fork with the kernel's reason where io_uring cannot run. */
        static Weir ioUring() {
            io.weir.channel.uring.IoUring.ensureAvailability();
            return new Weir(io.weir.channel.uring.IoUringIoHandler::newFactory);
        }

        /** Closes {@code channels} in order (a null one is skipped), then the client loop and the server loop. */
        void close(io.weir.channel.Channel... channels) throws Exception {
            for (io.weir.channel.Channel channel : channels) {
                if (channel != null) {
                    channel.close().sync();
                }
            }
            client.shutdownGracefully(0, TIMEOUT_SECONDS, TimeUnit.SECONDS).sync();
            server.shutdownGracefully(0, TIMEOUT_SECONDS, TimeUnit.SECONDS).sync();
        }
    }

    /** Netty 4.2's server loop and client loop. */
    static final class Netty {
        final io.netty.channel.MultiThreadIoEventLoopGroup server;
        final io.netty.channel.MultiThreadIoEventLoopGroup client;

        /** Two groups of one loop each, whose I/O handlers {@code factory} makes (one factory per group). */
        Netty(Supplier<io.netty.channel.IoHandlerFactory> factory) {
            server = new io.netty.channel.MultiThreadIoEventLoopGroup(1, factory.get());
            client = new io.netty.channel.MultiThreadIoEventLoopGroup(1, factory.get());
        }

        static Netty epoll() {
            io.netty.channel.epoll.Epoll.ensureAvailability();
            return new Netty(io.netty.channel.epoll.EpollIoHandler::newFactory);
        }

        static Netty nio() {
            return new Netty(io.netty.channel.nio.NioIoHandler::newFactory);
        }

        /** Netty 4.2's io_uring loops, with its defaults; fails the fork where io_uring cannot run. */
        static Netty ioUring() {
            io.netty.channel.uring.IoUring.ensureAvailability();
            return new Netty(io.netty.channel.uring.IoUringIoHandler::newFactory);
        }

        /**
         * Epoll loops with Netty 4.2's opt-in busy wait: a {@code SelectStrategy} that answers
         * {@code BUSY_WAIT} whenever no task is queued, so the loop polls {@code epoll_wait} without blocking
         * and never sleeps (each loop keeps a core busy even when idle).
         */
        static Netty epollBusyWait() {
            io.netty.channel.epoll.Epoll.ensureAvailability();
            return new Netty(() -> io.netty.channel.epoll.EpollIoHandler.newFactory(0, BusyWait.FACTORY));
        }

        /** Closes {@code channels} in order (a null one is skipped), then the client loop and the server loop. */
        void close(io.netty.channel.Channel... channels) throws Exception {
            for (io.netty.channel.Channel channel : channels) {
                if (channel != null) {
                    channel.close().sync();
                }
            }
            client.shutdownGracefully(0, TIMEOUT_SECONDS, TimeUnit.SECONDS).sync();
            server.shutdownGracefully(0, TIMEOUT_SECONDS, TimeUnit.SECONDS).sync();
        }
    }

    /** Netty's busy-wait select strategy, as a Netty user opts into it. */
    static final class BusyWait implements io.netty.channel.SelectStrategy {
        static final io.netty.channel.SelectStrategyFactory FACTORY = BusyWait::new;

        @Override
        public int calculateStrategy(io.netty.util.IntSupplier selectSupplier, boolean hasTasks) throws Exception {
            return hasTasks ? selectSupplier.get() : io.netty.channel.SelectStrategy.BUSY_WAIT;
        }
    }
}
