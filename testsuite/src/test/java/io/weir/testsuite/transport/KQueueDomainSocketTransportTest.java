package io.weir.testsuite.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.kqueue.KQueue;
import io.weir.channel.kqueue.KQueueDomainSocketChannel;
import io.weir.channel.kqueue.KQueueIoHandler;
import io.weir.channel.kqueue.KQueueServerDomainSocketChannel;
import io.weir.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shared scenarios over the kqueue Unix domain stream channels, each server on a fresh socket file. Skipped,
 * with the reason, where the kqueue library cannot be loaded (on Linux: no {@code -Dweir.libkqueue.prefix}).
 */
class KQueueDomainSocketTransportTest extends AbstractTransportScenarioTest {
    private static final AtomicInteger NEXT_NAME = new AtomicInteger();
    // Short: a socket path must fit sun_path (104 bytes on macOS, 108 on Linux).
    private static Path dir;

    @BeforeAll
    static void requireKQueue() throws IOException {
        assumeTrue(KQueue.isAvailable(), () -> "kqueue is not available: " + KQueue.unavailabilityCause());
        dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "wkq");
    }

    @AfterAll
    static void removeDir() throws IOException {
        if (dir != null) {
            try (var files = Files.list(dir)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    private static DomainSocketAddress freshAddress() {
        return new DomainSocketAddress(dir.resolve(NEXT_NAME.incrementAndGet() + ".s").toString());
    }

    @Override
    EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(2, KQueueIoHandler.newFactory());
    }

    @Override
    ServerBootstrap serverChannel(ServerBootstrap b) {
        return b.channel(KQueueServerDomainSocketChannel.class);
    }

    @Override
    Bootstrap clientChannel(Bootstrap b) {
        return b.channel(KQueueDomainSocketChannel.class);
    }

    @Override
    SocketAddress bindAddress() {
        return freshAddress();
    }

    @Override
    SocketAddress unboundAddress() {
        return freshAddress();
    }

    @Override
    void smallTransportBuffers(ServerBootstrap server, Bootstrap client) {
        server.childOption(ChannelOption.SO_RCVBUF, 8 * 1024);
        client.option(ChannelOption.SO_SNDBUF, 8 * 1024);
    }

    @Test
    void closingTheServerDeletesItsSocketFileAndThePeerIsThisProcess() throws Exception {
        Channel server = bind(server(new EchoHandler()));
        Path file = Path.of(((DomainSocketAddress) server.localAddress()).path());
        KQueueDomainSocketChannel client = (KQueueDomainSocketChannel) connect(client(NOOP), server.localAddress());
        assertThat(client.peerCredentials().pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(Files.exists(file)).isTrue();
        server.close().sync();
        assertThat(Files.exists(file)).isFalse();
    }
}
