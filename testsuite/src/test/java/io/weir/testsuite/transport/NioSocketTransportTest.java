package io.weir.testsuite.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelProgressiveFuture;
import io.weir.channel.ChannelProgressiveFutureListener;
import io.weir.channel.ChannelProgressivePromise;
import io.weir.channel.DefaultFileRegion;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import java.io.File;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared and the TCP scenarios over NIO, plus the FileRegion transfer only NIO implements so far. */
class NioSocketTransportTest extends AbstractSocketTransportScenarioTest {

    @Override
    EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    @Override
    ServerBootstrap serverChannel(ServerBootstrap b) {
        return b.channel(NioServerSocketChannel.class);
    }

    @Override
    Bootstrap clientChannel(Bootstrap b) {
        return b.channel(NioSocketChannel.class);
    }

    /** Epoll sends no FileRegion yet (sendfile is still to come there), so this stays NIO's own. */
    @Test
    void fileRegionIsSentWholeWithProgress(@TempDir Path dir) throws Exception {
        byte[] content = randomBytes(1024 * 1024 + 123, 7);
        File file = Files.write(dir.resolve("region.bin"), content).toFile();
        Channel server = bind(server(new EchoHandler()));
        int offset = 100;
        Collector collector = new Collector(content.length - offset);
        Channel client = connect(client(collector), server.localAddress());

        DefaultFileRegion region = new DefaultFileRegion(file, offset, content.length - offset);
        assertThat(region.isOpen()).as("opened lazily").isFalse();
        AtomicLong lastProgress = new AtomicLong();
        AtomicBoolean totalKnown = new AtomicBoolean(true);
        ChannelProgressivePromise promise = client.newProgressivePromise();
        promise.addListener(new ChannelProgressiveFutureListener() {
            @Override
            public void operationProgressed(ChannelProgressiveFuture future, long progress, long total) {
                lastProgress.set(progress);
                if (total != content.length - offset) {
                    totalKnown.set(false);
                }
            }

            @Override
            public void operationComplete(ChannelFuture future) {
            }
        });
        ChannelFuture write = client.writeAndFlush(region, promise);
        assertThat(write.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(write.cause()).isNull();
        byte[] expected = java.util.Arrays.copyOfRange(content, offset, content.length);
        assertThat(collector.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(expected);
        assertThat(region.refCnt()).as("released once sent").isZero();
        assertThat(region.transferred()).isEqualTo(content.length - offset);
        assertThat(lastProgress.get()).isEqualTo(content.length - offset);
        assertThat(totalKnown.get()).isTrue();
    }

}
