package io.weir.testsuite.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelPromise;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.channel.local.LocalAddress;
import io.weir.channel.local.LocalChannel;
import io.weir.channel.local.LocalServerChannel;
import io.weir.channel.nio.NioIoHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Observation 4 of issue 19: a connection reset with a long write queue stalled NIO for seconds, because each
 * failed write cost exceptions (in {@code toString()} of the closed channel, which logging calls per failure).
 * Failing the queue must cost no exception per message, nor an {@code exceptionCaught} per message for
 * promises that are not void, and {@code toString()} of a closed channel must build no exception, on every
 * transport. Exceptions are counted with JFR's {@code jdk.JavaExceptionThrow}/{@code jdk.JavaErrorThrow} events
 * (every {@link Throwable} constructed), so the assertions are about work done, not time taken.
 */
class ResetWithQueuedWritesTest {
    private static final long TIMEOUT_SECONDS = 30;
    private static final int QUEUED_WRITES = 10_000;
    private static final int WRITE_BYTES = 1024;
    private static final int TO_STRING_CALLS = 100;

    private EventLoopGroup group;

    @AfterEach
    void stop() throws Exception {
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @EnumSource(FaultTransport.class)
    void aResetWithTenThousandQueuedWritesFailsThemAllCheaply(FaultTransport transport) throws Exception {
        transport.assumeAvailable();
        group = transport.newGroup(1);
        CompletableFuture<Channel> accepted = new CompletableFuture<>();
        AtomicInteger exceptionsCaught = new AtomicInteger();
        AcceptedChannel acceptor = new AcceptedChannel(accepted, exceptionsCaught);
        Channel server = transport.serverChannel(new ServerBootstrap().group(group))
                .childOption(ChannelOption.SO_SNDBUF, 8 * 1024)
                .childHandler(acceptor)
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        ByteBuf[] buffers = new ByteBuf[QUEUED_WRITES];
        ChannelPromise[] promises = new ChannelPromise[QUEUED_WRITES];
        Channel child;
        try (Socket peer = new Socket()) {
            // The peer never reads: with small socket buffers almost all of the 10 MiB stays queued.
            peer.setReceiveBufferSize(4 * 1024);
            peer.connect(server.localAddress(), (int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            child = accepted.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            child.eventLoop().submit(() -> {
                for (int i = 0; i < QUEUED_WRITES; i++) {
                    buffers[i] = child.alloc().directBuffer(WRITE_BYTES).writeZero(WRITE_BYTES);
                    promises[i] = child.newPromise();
                    child.write(buffers[i], promises[i]);
                }
                child.flush();
            }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(promises[QUEUED_WRITES - 1].isDone()).isFalse();
            // SO_LINGER 0: close() sends an RST instead of a FIN.
            peer.setSoLinger(true, 0);
        }
        assertThat(child.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        // The close completes its future before it fails the queue, in the same loop task: wait that task out.
        child.eventLoop().submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        Set<Throwable> causes = Collections.newSetFromMap(new IdentityHashMap<>());
        int failed = 0;
        for (int i = 0; i < QUEUED_WRITES; i++) {
            assertThat(promises[i].isDone()).isTrue();
            if (!promises[i].isSuccess()) {
                failed++;
                causes.add(promises[i].cause());
            }
            assertThat(buffers[i].refCnt()).as("buffer %d released", i).isZero();
        }
        assertThat(failed).isGreaterThan(QUEUED_WRITES / 2);
        // One cause for the whole queue (two at most: the flushed and the unflushed part), not one per message.
        assertThat(causes).hasSizeBetween(1, 2);
        // The reset itself may be reported once; the failed writes, whose promises were not void, are not.
        assertThat(exceptionsCaught.get()).isLessThanOrEqualTo(1);
        assertToStringOfClosedChannelBuildsNoException(child);

        // A connection whose addresses nobody asked for while it was open (the paranoid leak detector's touch
        // of the written buffers asked for the one above): toString() after the close must not build them
        // from a closed socket.
        CompletableFuture<Channel> second = new CompletableFuture<>();
        acceptor.next = second;
        try (Socket peer = new Socket()) {
            peer.connect(server.localAddress(), (int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            Channel untouched = second.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            untouched.close().sync();
            assertToStringOfClosedChannelBuildsNoException(untouched);
            assertThat(untouched.toString()).contains("L:").contains("R:");
        }
        assertToStringOfClosedChannelBuildsNoException(server.close().sync().channel());
    }

    @Test
    void toStringOfClosedLocalAndEmbeddedChannelsBuildsNoException() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        LocalAddress address = new LocalAddress("reset-with-queued-writes");
        CompletableFuture<Channel> accepted = new CompletableFuture<>();
        Channel server = new ServerBootstrap().group(group).channel(LocalServerChannel.class)
                .childHandler(new AcceptedChannel(accepted, new AtomicInteger()))
                .bind(address).sync().channel();
        Channel client = new Bootstrap().group(group).channel(LocalChannel.class).handler(new ChannelHandler() { })
                .connect(address).sync().channel();
        Channel child = accepted.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        client.close().sync();
        assertThat(child.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertToStringOfClosedChannelBuildsNoException(client);
        assertToStringOfClosedChannelBuildsNoException(child);
        assertToStringOfClosedChannelBuildsNoException(server.close().sync().channel());
        EmbeddedChannel embedded = new EmbeddedChannel();
        embedded.close();
        assertToStringOfClosedChannelBuildsNoException(embedded);
    }

    @Test
    void closingAChannelWithNothingQueuedBuildsNoException() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel();
        long thread = Thread.currentThread().getId();
        Path dump = Files.createTempFile("close-nothing-queued", ".jfr");
        try {
            try (Recording recording = new Recording()) {
                recording.enable("jdk.JavaExceptionThrow");
                recording.enable("jdk.JavaErrorThrow");
                recording.start();
                channel.close();
                // The control: proves that the recording sees a Throwable built on this thread.
                assertThat(new ClosedChannelException()).isNotNull();
                recording.stop();
                recording.dump(dump);
            }
            assertThat(channel.isOpen()).isFalse();
            int thrown = 0;
            for (RecordedEvent event : RecordingFile.readAllEvents(dump)) {
                if (event.getThread() != null && event.getThread().getJavaThreadId() == thread) {
                    thrown++;
                }
            }
            assertThat(thrown).as("Throwables built by closing a channel with nothing queued, plus the control")
                    .isEqualTo(1);
        } finally {
            Files.deleteIfExists(dump);
        }
    }

    /**
     * Calls {@code toString()} of the closed {@code channel} {@value #TO_STRING_CALLS} times on this thread while
     * JFR records every Throwable constructed, then constructs one on purpose: exactly that one must be seen.
     */
    private static void assertToStringOfClosedChannelBuildsNoException(Channel channel) throws Exception {
        assertThat(channel.isOpen()).isFalse();
        long thread = Thread.currentThread().getId();
        Path dump = Files.createTempFile("closed-to-string", ".jfr");
        try {
            int lengths = 0;
            try (Recording recording = new Recording()) {
                recording.enable("jdk.JavaExceptionThrow");
                recording.enable("jdk.JavaErrorThrow");
                recording.start();
                for (int i = 0; i < TO_STRING_CALLS; i++) {
                    lengths += channel.toString().length();
                }
                // The control: proves that the recording sees a Throwable built on this thread.
                lengths += new ClosedChannelException().getClass().getName().length();
                recording.stop();
                recording.dump(dump);
            }
            assertThat(lengths).isPositive();
            int thrown = 0;
            for (RecordedEvent event : RecordingFile.readAllEvents(dump)) {
                if (event.getThread() != null && event.getThread().getJavaThreadId() == thread) {
                    thrown++;
                }
            }
            assertThat(thrown).as("Throwables built by %d toString() calls of %s, plus the control",
                    TO_STRING_CALLS, channel).isEqualTo(1);
        } finally {
            Files.deleteIfExists(dump);
        }
    }

    /** Hands out the accepted channel, counts exceptionCaught calls and closes on the first. */
    @ChannelHandler.Sharable
    private static final class AcceptedChannel implements ChannelHandler {
        private final AtomicInteger exceptionsCaught;
        // Completed with the next channel to become active.
        volatile CompletableFuture<Channel> next;

        AcceptedChannel(CompletableFuture<Channel> accepted, AtomicInteger exceptionsCaught) {
            this.next = accepted;
            this.exceptionsCaught = exceptionsCaught;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            next.complete(ctx.channel());
            ctx.fireChannelActive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            exceptionsCaught.incrementAndGet();
            ctx.close();
        }
    }
}
