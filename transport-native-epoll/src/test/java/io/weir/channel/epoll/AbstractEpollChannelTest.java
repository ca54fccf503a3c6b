package io.weir.channel.epoll;

import static io.weir.channel.epoll.EpollChannels.TIMEOUT_SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.channel.Channel;
import io.weir.channel.EventLoop;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.util.platform.PlatformInfo;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * The fixture the epoll channel tests share: an epoll event loop group made fresh for every test, and the channels a
 * test {@linkplain #track tracks} closed before that group must shut down cleanly.
 */
abstract class AbstractEpollChannelTest {
    private final List<Channel> channels = new CopyOnWriteArrayList<>();
    private final int threads;
    MultiThreadIoEventLoopGroup group;
    /** The group's first loop. */
    EventLoop loop;

    /** @param threads how many event loops the group has: one where channels must share their loop */
    AbstractEpollChannelTest(int threads) {
        this.threads = threads;
    }

    @BeforeAll
    static void loadNatives() {
        assumeTrue(PlatformInfo.isLinux(), "epoll exists only on Linux");
        Epoll.ensureAvailability();
    }

    @BeforeEach
    void createGroup() {
        group = new MultiThreadIoEventLoopGroup(threads, EpollIoHandler.newFactory());
        loop = group.next();
    }

    @AfterEach
    void closeChannelsAndGroup() throws Exception {
        for (Channel channel : channels) {
            channel.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    /** Closes {@code channel} after the test; returns it. */
    final <C extends Channel> C track(C channel) {
        channels.add(channel);
        return channel;
    }
}
