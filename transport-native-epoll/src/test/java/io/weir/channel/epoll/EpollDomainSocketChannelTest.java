package io.weir.channel.epoll;

import static io.weir.channel.epoll.EpollChannels.TIMEOUT_SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.epoll.EpollChannels.Collector;
import io.weir.channel.epoll.EpollChannels.Echo;
import io.weir.channel.unix.DomainSocketAddress;
import io.weir.channel.unix.PeerCredentials;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EpollDomainSocketChannelTest extends AbstractEpollChannelTest {
    @TempDir
    Path dir;

    EpollDomainSocketChannelTest() {
        super(2);
    }

    private EpollServerDomainSocketChannel echoServer(DomainSocketAddress address) throws Exception {
        EpollServerDomainSocketChannel server = track(new EpollServerDomainSocketChannel(group.next(), group));
        server.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                Channel child = track((Channel) msg);
                child.pipeline().addLast(new Echo());
                child.register();
            }
        });
        server.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        server.bind(address).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return server;
    }

    private EpollDomainSocketChannel connect(DomainSocketAddress address, ChannelHandler handler) throws Exception {
        EpollDomainSocketChannel client = track(new EpollDomainSocketChannel(group.next()));
        client.pipeline().addLast(handler);
        client.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        client.connect(address).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return client;
    }

    @Test
    void echoesOneMebibyteOverADomainSocketAndNamesThePeerProcess() throws Exception {
        DomainSocketAddress address = new DomainSocketAddress(dir.resolve("echo.sock").toString());
        EpollServerDomainSocketChannel server = echoServer(address);
        byte[] data = new byte[1024 * 1024];
        new Random(7).nextBytes(data);
        Collector collector = new Collector(data.length);
        EpollDomainSocketChannel client = connect(address, collector);

        client.writeAndFlush(ByteBufAllocator.DEFAULT.directBuffer(data.length).writeBytes(data));

        assertThat(collector.await()).isEqualTo(data);
        assertThat(server.localAddress()).isEqualTo(address);
        assertThat(client.remoteAddress()).isEqualTo(address);
        PeerCredentials credentials = client.peerCredentials();
        assertThat((long) credentials.pid()).isEqualTo(ProcessHandle.current().pid());
    }

    @Test
    void closingTheServerDeletesItsSocketFile() throws Exception {
        Path path = dir.resolve("gone.sock");
        EpollServerDomainSocketChannel server = echoServer(new DomainSocketAddress(path.toString()));
        assertThat(Files.exists(path)).isTrue();

        server.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        assertThat(Files.exists(path)).isFalse();
    }

    @Test
    void connectingToAMissingPathFailsWithConnectException() throws Exception {
        EpollDomainSocketChannel client = track(new EpollDomainSocketChannel(group.next()));
        client.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        ChannelFuture connect = client.connect(new DomainSocketAddress(dir.resolve("nobody.sock").toString()));

        assertThatThrownBy(() -> connect.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(ConnectException.class);
        assertThat(client.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }
}
