package io.weir.testsuite.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.EventLoopGroup;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A port scanner connects and leaves at once. Writes a server queued for the connection (a preface, a greeting)
 * then fail with ClosedChannelException; where they used void promises, each failure reaches the pipeline's tail.
 * That must not cost a WARNING with a stack trace per connection, or any peer can fill the server's log; the same
 * exception on a channel that is still open stays a warning.
 */
class ConnectAndLeaveLogFloodTest {
    private static final long TIMEOUT_SECONDS = 30;
    private static final Logger TAIL_LOGGER = Logger.getLogger("io.weir.channel.AbstractChannel");

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler recorder = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level levelBefore;
    private EventLoopGroup group;

    @BeforeEach
    void captureTheTailsRecords() {
        levelBefore = TAIL_LOGGER.getLevel();
        TAIL_LOGGER.setLevel(Level.ALL);
        TAIL_LOGGER.addHandler(recorder);
    }

    @AfterEach
    void stop() throws Exception {
        TAIL_LOGGER.removeHandler(recorder);
        TAIL_LOGGER.setLevel(levelBefore);
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @EnumSource(FaultTransport.class)
    void connectAndLeaveDoesNotFloodTheLogWithWarnings(FaultTransport transport) throws Exception {
        transport.assumeAvailable();
        group = transport.newGroup(1);
        CompletableFuture<Throwable> lateWriteFailure = new CompletableFuture<>();
        Channel server = transport.serverChannel(new ServerBootstrap().group(group))
                .childHandler(new ChannelHandler() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        // The peer has gone before the greeting goes out: the close wins the race.
                        ctx.channel().close();
                        ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'h', 'i'}), ctx.voidPromise());
                        ctx.fireChannelActive();
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        lateWriteFailure.complete(cause);
                        ctx.fireExceptionCaught(cause);
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        try (Socket scanner = new Socket()) {
            scanner.connect(server.localAddress());
        }
        Throwable cause = lateWriteFailure.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(cause).isInstanceOf(ClosedChannelException.class);
        // The tail logs on the loop right after the handler passed the exception on.
        server.eventLoop().submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        server.close().sync();

        assertThat(records).filteredOn(r -> r.getThrown() == cause)
                .extracting(LogRecord::getLevel).containsExactly(Level.FINE);
        assertThat(records).filteredOn(r -> r.getLevel().intValue() >= Level.WARNING.intValue()).isEmpty();
    }
}
