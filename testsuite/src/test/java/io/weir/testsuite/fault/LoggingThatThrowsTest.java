package io.weir.testsuite.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.testing.FailingLoggerFinder;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.platform.LoopLogger;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Observation 1 of issue 19: when every log call throws an {@link Error} (a logging back end that needs a file
 * descriptor the process no longer has), the failures that the event loop logs (a task that throws, a handler
 * that throws, a handler whose {@code exceptionCaught} throws, a listener that throws) must not kill the loop.
 * Logging goes through this module's test {@code System.LoggerFinder}, {@link FailingLoggerFinder}.
 */
class LoggingThatThrowsTest {
    private static final long TIMEOUT_SECONDS = 30;

    private EventLoopGroup group;
    private Channel server;

    @AfterEach
    void stop() throws Exception {
        FailingLoggerFinder.setFailing(false);
        if (server != null) {
            server.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @EnumSource(FaultTransport.class)
    void loggingThatThrowsErrorsDoesNotKillTheEventLoop(FaultTransport transport) throws Exception {
        transport.assumeAvailable();
        // One loop for the listener and every child: whatever kills a loop would kill the whole server.
        group = transport.newGroup(1);
        EventLoop loop = group.next();
        CountDownLatch boomHandled = new CountDownLatch(1);
        server = transport.serverChannel(new ServerBootstrap().group(group))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new EchoUnlessBoom(), new ThrowingExceptionCaught(boomHandled));
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        long failuresBefore = FailingLoggerFinder.failuresThrown();
        long recordsLostBefore = LoopLogger.failedRecords();

        FailingLoggerFinder.setFailing(true);
        // A task that throws: the executor logs it.
        loop.execute(() -> {
            throw new IllegalStateException("a task that throws");
        });
        // A listener that throws: the promise logs it.
        loop.newSucceededFuture(null).addListener(f -> {
            throw new AssertionError("a listener that throws");
        });
        // A handler that throws, and whose next handler's exceptionCaught throws too: the pipeline logs both.
        try (Socket boom = new Socket(InetAddress.getLoopbackAddress(), port)) {
            boom.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            boom.getOutputStream().write("boom".getBytes(StandardCharsets.US_ASCII));
            boom.getOutputStream().flush();
            assertThat(boomHandled.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            // The channel stays open (nothing closes it on an exception); an echo on it proves it still reads.
            assertEchoes(boom, "after");
        }
        assertThat(loop.submit(() -> 42).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(42);
        assertThat(FailingLoggerFinder.failuresThrown()).isGreaterThan(failuresBefore);

        // The loop still serves new connections while logging keeps failing, and afterwards.
        try (Socket fresh = new Socket(InetAddress.getLoopbackAddress(), port)) {
            fresh.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            assertEchoes(fresh, "hello");
        }
        FailingLoggerFinder.setFailing(false);
        try (Socket fresh = new Socket(InetAddress.getLoopbackAddress(), port)) {
            fresh.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            assertEchoes(fresh, "again");
        }
        assertThat(loop.isShuttingDown()).isFalse();
        assertThat(group.terminationFuture().isDone()).isFalse();
        assertThat(LoopLogger.failedRecords()).isGreaterThan(recordsLostBefore);
    }

    private static void assertEchoes(Socket socket, String text) throws Exception {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
        InputStream in = socket.getInputStream();
        byte[] echoed = in.readNBytes(bytes.length);
        assertThat(new String(echoed, StandardCharsets.US_ASCII)).isEqualTo(text);
    }

    /** Echoes what it reads, but throws on a read that starts with "boom". */
    private static final class EchoUnlessBoom implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            if (buf.isReadable() && buf.getByte(buf.readerIndex()) == 'b') {
                ReferenceCountUtil.release(msg);
                throw new IllegalStateException("a handler that throws");
            }
            ctx.writeAndFlush(msg);
        }
    }

    /** Throws from exceptionCaught, so the exception ends in the pipeline's own logging fallback. */
    private static final class ThrowingExceptionCaught implements ChannelHandler {
        private final CountDownLatch called;

        ThrowingExceptionCaught(CountDownLatch called) {
            this.called = called;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            called.countDown();
            throw new IllegalStateException("exceptionCaught that throws");
        }
    }
}
