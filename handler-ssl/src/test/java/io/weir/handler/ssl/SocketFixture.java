package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.TIMEOUT_SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.handler.ssl.internal.openssl.OpenSslEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The event loops and channels one socket test opened, closed by {@link #closeAll()}, which then checks that
 * every native SSL object was freed.
 */
final class SocketFixture {
    final List<EventLoopGroup> groups = new ArrayList<>();
    final List<Channel> channels = new ArrayList<>();
    final BlockingQueue<Channel> serverChildren = new LinkedBlockingQueue<>();

    /** A new NIO group of {@code threads} loops, shut down by {@link #closeAll()}. */
    EventLoopGroup group(int threads) {
        EventLoopGroup g = SocketTransport.NIO.newGroup(threads);
        groups.add(g);
        return g;
    }

    /** Closes the channels, waits for the accepted ones, shuts the groups down and counts live engines. */
    void closeAll() throws Exception {
        for (Channel c : channels) {
            c.close().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        for (Channel c : serverChildren) {
            c.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        for (EventLoopGroup g : groups) {
            g.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(OpenSslEngine.liveEngines()).as("native SSL objects left").isZero();
    }
}
