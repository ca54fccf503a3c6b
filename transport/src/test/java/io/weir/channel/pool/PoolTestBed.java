package io.weir.channel.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.util.concurrent.Future;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a pool test runs against: an {@link EchoServer} on loopback, client event loops, a
 * {@link RecordingPoolHandler}, and the pools the test builds. {@link #close()} closes the pools, then the server
 * and the loops, and checks that the handler was only ever called on its channel's loop.
 */
final class PoolTestBed {
    static final long TIMEOUT_SECONDS = 30;

    final RecordingPoolHandler handler = new RecordingPoolHandler();
    final EventLoopGroup clientLoops;
    private final EventLoopGroup serverLoops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final List<EventLoopGroup> groups = new ArrayList<>();
    private final List<ChannelPool> pools = new ArrayList<>();
    private EchoServer server;
    // Holds a stopped server's port, bound but not listening: connects are refused and no other listener (a test
    // running beside this one) can take the port meanwhile.
    private Socket portHolder;

    PoolTestBed(int clientThreads) throws InterruptedException {
        clientLoops = loops(clientThreads);
        groups.add(serverLoops);
        server = EchoServer.start(serverLoops);
    }

    /** A further client group, shut down with the rest. */
    EventLoopGroup loops(int threads) {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
        groups.add(group);
        return group;
    }

    /** A bootstrap for NIO channels to the echo server on {@code loops}. */
    Bootstrap bootstrap(EventLoopGroup loops) {
        return new Bootstrap().group(loops).channel(NioSocketChannel.class).remoteAddress(server.address());
    }

    /** {@link #bootstrap(EventLoopGroup)} on the client loops. */
    Bootstrap bootstrap() {
        return bootstrap(clientLoops);
    }

    /** Closes {@code pool} when the test ends. */
    <P extends ChannelPool> P track(P pool) {
        pools.add(pool);
        return pool;
    }

    /** Stops the echo server; connects to its address are refused from now on. Returns the address. */
    InetSocketAddress stopServer() throws IOException {
        InetSocketAddress address = server.address();
        server.close();
        portHolder = bindWhenReleased(address);
        return address;
    }

    /*
     * A closed NIO server channel keeps its socket until its loop's selector drops the cancelled key, which happens
     * on the loop's next select, after the close future has completed. Each task run on the server loop wakes it,
     * so a few of them let it get there; the bind is tried after each.
     */
    private Socket bindWhenReleased(InetSocketAddress address) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            Socket socket = new Socket();
            try {
                socket.bind(address);
                return socket;
            } catch (BindException stillListening) {
                socket.close();
                if (System.nanoTime() - deadline > 0) {
                    throw stillListening;
                }
                serverLoops.submit(() -> { }).syncUninterruptibly();
            }
        }
    }

    /** Starts the echo server again on {@code address}. */
    void restartServer(InetSocketAddress address) throws Exception {
        releasePort();
        server = EchoServer.start(serverLoops, address);
    }

    private void releasePort() throws IOException {
        if (portHolder != null) {
            portHolder.close();
            portHolder = null;
        }
    }

    static <T> T get(Future<T> future) throws Exception {
        return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Waits for {@code future} and returns why it failed; fails the test if it succeeded. */
    static Throwable failureOf(Future<?> future) throws InterruptedException {
        assertThat(future.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("%s completed", future).isTrue();
        assertThat(future.isSuccess()).as("%s succeeded", future).isFalse();
        return future.cause();
    }

    static void assertClosed(Channel channel) throws InterruptedException {
        assertThat(channel.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("%s closed", channel).isTrue();
    }

    void close() throws Exception {
        for (ChannelPool pool : pools) {
            pool.close();
        }
        server.close();
        releasePort();
        for (EventLoopGroup group : groups) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(handler.offLoopCalls).as("handler callbacks off the channel's loop").isEmpty();
    }
}
