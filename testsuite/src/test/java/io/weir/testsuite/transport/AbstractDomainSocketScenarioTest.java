package io.weir.testsuite.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.channel.unix.DomainSocketAddress;
import io.weir.channel.unix.PeerCredentials;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shared scenarios over a transport's Unix domain stream channels, each server on a fresh socket file in a
 * directory of the test's own, plus what only domain sockets have: the socket file's life and the peer's
 * credentials. A subclass names the transport (and skips where it cannot run).
 */
abstract class AbstractDomainSocketScenarioTest extends AbstractTransportScenarioTest {
    private static final AtomicInteger NEXT_NAME = new AtomicInteger();
    // Short: a socket path must fit sun_path (104 bytes on macOS, 108 on Linux).
    private static Path dir;

    /** The credentials of {@code client}'s peer, through the transport's own domain channel type. */
    abstract PeerCredentials peerCredentials(Channel client) throws IOException;

    @BeforeAll
    static void createDir() throws IOException {
        dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "wds");
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
        Channel client = connect(client(NOOP), server.localAddress());
        assertThat(peerCredentials(client).pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(client.remoteAddress()).isEqualTo(server.localAddress());
        assertThat(Files.exists(file)).isTrue();
        server.close().sync();
        assertThat(Files.exists(file)).isFalse();
    }

    /**
     * A client that never reads while the server keeps writing to it: the server's child turns unwritable at its
     * high water mark and stops there (its queue does not grow without bound), and meanwhile another client of the
     * same server is echoed as if nothing happened.
     */
    @Test
    void aNeverReadingPeerTurnsItsWriterUnwritableWhileAnotherClientIsServed() throws Exception {
        AtomicReference<Channel> flooded = new AtomicReference<>();
        CountDownLatch unwritable = new CountDownLatch(1);
        long cap = 256L * 1024 * 1024;
        AtomicReference<Long> queuedAtUnwritable = new AtomicReference<>();
        // One instance for every child: shared state, so marked sharable.
        @ChannelHandler.Sharable
        final class FloodOrEcho implements ChannelHandler {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf buf = (ByteBuf) msg;
                if (buf.readableBytes() == 1 && buf.getByte(buf.readerIndex()) == 'F') {
                    buf.release();
                    flooded.set(ctx.channel());
                    long written = 0;
                    // Writes until the channel says stop, as a well-behaved producer does.
                    while (ctx.channel().isWritable() && written < cap) {
                        ByteBuf chunk = ctx.alloc().directBuffer(4096);
                        chunk.writeZero(4096);
                        ctx.writeAndFlush(chunk);
                        written += 4096;
                    }
                    return;
                }
                ctx.write(msg);
            }

            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
                ctx.flush();
            }

            @Override
            public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                if (!ctx.channel().isWritable() && ctx.channel() == flooded.get()) {
                    queuedAtUnwritable.set(ctx.channel().bytesBeforeWritable());
                    unwritable.countDown();
                }
            }
        }
        ServerBootstrap sb = server(new FloodOrEcho())
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(16 * 1024, 64 * 1024))
                .childOption(ChannelOption.SO_SNDBUF, 8 * 1024);
        Channel server = bind(sb);

        Channel sleeper = connect(client(NOOP).option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.SO_RCVBUF, 8 * 1024), server.localAddress());
        sleeper.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'F'}));
        assertThat(unwritable.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("the flooded child turned unwritable").isTrue();
        assertThat(queuedAtUnwritable.get()).isPositive();

        byte[] data = randomBytes(64 * 1024, 28);
        for (int i = 0; i < data.length; i++) {
            // 'F' alone asks for the flood: keep the echoed bytes from ever looking like it.
            data[i] = data[i] == 'F' ? (byte) 'G' : data[i];
        }
        Collector collector = new Collector(data.length);
        Channel other = connect(client(collector), server.localAddress());
        ChannelFuture sent = other.writeAndFlush(Unpooled.wrappedBuffer(data));
        assertThat(collector.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(data);
        assertThat(sent.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(sent.cause()).isNull();

        // The flooded child is still open and still holds back: nothing was dropped, nothing grew past the mark.
        Channel child = flooded.get();
        assertThat(child.isOpen()).isTrue();
        assertThat(child.eventLoop().submit(child::isWritable).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isFalse();
    }
}
