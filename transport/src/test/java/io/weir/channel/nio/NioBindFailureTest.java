package io.weir.channel.nio;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.internal.BindFailure;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A port already taken: the failure names the address that was tried and is still a {@link BindException}. */
class NioBindFailureTest {
    private static final long TIMEOUT_SECONDS = 10;

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final List<Channel> channels = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (Channel c : channels) {
            c.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private <C extends Channel> C registered(C channel) throws Exception {
        channels.add(channel);
        channel.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return channel;
    }

    private static Throwable failureOf(ChannelFuture bind) throws Exception {
        assertThat(bind.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(bind.isSuccess()).isFalse();
        return bind.cause();
    }

    @Test
    void serverBindingATakenPortNamesTheAddress() throws Exception {
        NioServerSocketChannel first = registered(new NioServerSocketChannel(group.next(), group));
        first.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        int port = first.localAddress().getPort();
        NioServerSocketChannel second = registered(new NioServerSocketChannel(group.next(), group));

        Throwable cause = failureOf(second.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)));

        assertThat(cause).isInstanceOf(BindException.class)
                .hasMessageStartingWith("bind(127.0.0.1:" + port + ") failed: ")
                .hasCauseInstanceOf(BindException.class);
        assertThat(cause.getMessage()).endsWith(cause.getCause().getMessage());
    }

    @Test
    void datagramBindingATakenPortNamesTheAddress() throws Exception {
        NioDatagramChannel first = registered(new NioDatagramChannel(group.next()));
        first.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        int port = first.localAddress().getPort();
        NioDatagramChannel second = registered(new NioDatagramChannel(group.next()));

        Throwable cause = failureOf(second.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)));

        assertThat(cause).isInstanceOf(BindException.class)
                .hasMessageStartingWith("bind(127.0.0.1:" + port + ") failed: ");
    }

    @Test
    void addressesAreWrittenAsUsersWriteThem() throws Exception {
        assertThat(BindFailure.describe(new InetSocketAddress(InetAddress.getByName("::1"), 8080)))
                .isEqualTo("[0:0:0:0:0:0:0:1]:8080");
        assertThat(BindFailure.describe(InetSocketAddress.createUnresolved("example.com", 443)))
                .isEqualTo("example.com:443");
        assertThat(BindFailure.describe(new InetSocketAddress(InetAddress.getByName("10.1.2.3"), 0)))
                .isEqualTo("10.1.2.3:0");
    }
}
