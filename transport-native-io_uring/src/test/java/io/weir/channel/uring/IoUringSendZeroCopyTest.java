package io.weir.channel.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.EventLoop;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.util.platform.PlatformInfo;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link IoUringChannelOption#SEND_ZC_THRESHOLD}: large single-buffer writes go out with
 * {@code IORING_OP_SEND_ZC}, the bytes arrive unchanged, and each buffer is given back only by its send's
 * notification, also when the channel closes first. Against a JDK socket as the peer; skipped where the kernel
 * lacks {@code SEND_ZC}.
 */
class IoUringSendZeroCopyTest {
    private static final long TIMEOUT_SECONDS = 10;
    private static final int THRESHOLD_BYTES = 16 * 1024;
    private static final int WRITE_BYTES = 256 * 1024;

    private MultiThreadIoEventLoopGroup group;
    private EventLoop loop;

    @BeforeAll
    static void requireSendZc() {
        assumeTrue(PlatformInfo.isLinux(), "io_uring exists only on Linux");
        IoUring.ensureAvailability();
        assumeTrue(IoUring.isOperationSupported(IoUringIoOps.OP_SEND_ZC), "this kernel has no IORING_OP_SEND_ZC");
    }

    @BeforeEach
    void start() {
        group = new MultiThreadIoEventLoopGroup(1, IoUringIoHandler.newFactory());
        loop = group.next();
    }

    @AfterEach
    void stop() throws Exception {
        shutDown();
    }

    private void shutDown() throws InterruptedException {
        assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isTrue();
    }

    private IoUringSocketChannel connectedClient(ServerSocket peer) throws Exception {
        IoUringSocketChannel client = new IoUringSocketChannel(loop);
        client.config().setOption(IoUringChannelOption.SEND_ZC_THRESHOLD, THRESHOLD_BYTES);
        client.pipeline().addLast(new ChannelHandler() { });
        client.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        client.connect(peer.getLocalSocketAddress()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return client;
    }

    private static ServerSocket loopbackPeer() throws Exception {
        return new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    }

    private ByteBuf directCopy(IoUringSocketChannel ch, byte[] bytes) {
        return ch.alloc().directBuffer(bytes.length).writeBytes(bytes);
    }

    @Test
    void largeWritesGoOutZeroCopyAndArriveUnchanged() throws Exception {
        byte[] data = new byte[8 * WRITE_BYTES];
        new Random(47).nextBytes(data);
        try (ServerSocket peer = loopbackPeer()) {
            IoUringSocketChannel client = connectedClient(peer);
            CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
                try (Socket accepted = peer.accept(); InputStream in = accepted.getInputStream()) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    in.transferTo(out);
                    return out.toByteArray();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            // One buffer flushed at a time: each goes out as a single send (several would be gathered by writev).
            for (int offset = 0; offset < data.length; offset += WRITE_BYTES) {
                byte[] chunk = Arrays.copyOfRange(data, offset, offset + WRITE_BYTES);
                ChannelFuture write = client.writeAndFlush(directCopy(client, chunk));
                assertThat(write.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                assertThat(write.cause()).isNull();
            }
            long zeroCopySends = loop.submit(client::zeroCopySends).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(zeroCopySends).as("zero-copy sends").isGreaterThanOrEqualTo(data.length / WRITE_BYTES);
            client.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(received.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(data);
            shutDown();
            assertThat(client.zeroCopyBuffersHeld()).as("every notification came").isZero();
        }
    }

    /**
     * A close right after a zero-copy send was queued to a peer that does not read: the buffer is still the
     * kernel's (the send was submitted before the descriptor closed, and what it sent sits unread at the peer), so
     * the channel keeps it until the notification, which comes once the peer's end frees those bytes.
     */
    @Test
    void closingWithAZeroCopySendInFlightKeepsItsBufferUntilTheNotification() throws Exception {
        try (ServerSocket peer = loopbackPeer()) {
            IoUringSocketChannel client = connectedClient(peer);
            try (Socket accepted = peer.accept()) {
                ByteBuf buf = directCopy(client, new byte[WRITE_BYTES]);
                buf.retain();
                int[] atClose = loop.submit(() -> {
                    client.writeAndFlush(buf);
                    client.close();
                    return new int[] {client.zeroCopyBuffersHeld(), buf.refCnt()};
                }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                assertThat(atClose[0]).as("held for the notification").isEqualTo(1);
                assertThat(atClose[1]).as("our reference and the kernel's").isGreaterThan(1);
                // The bytes the peer has not read still point at the buffer: the peer's end lets the kernel go.
                accepted.close();
                shutDown();
                assertThat(client.zeroCopyBuffersHeld()).isZero();
                assertThat(buf.refCnt()).as("only our reference is left").isEqualTo(1);
                buf.release();
            }
        }
    }

    @Test
    void theThresholdIsOffByDefaultAndRefusesNegativeSizes() throws Exception {
        IoUringSocketChannel ch = new IoUringSocketChannel(loop);
        try {
            assertThat(ch.config().getOption(IoUringChannelOption.SEND_ZC_THRESHOLD))
                    .isEqualTo(IoUringChannelOption.SEND_ZC_DISABLED);
            assertThat(ch.config().getOptions()).containsKey(IoUringChannelOption.SEND_ZC_THRESHOLD);
            assertThat(ch.config().setOption(IoUringChannelOption.SEND_ZC_THRESHOLD, 0)).isTrue();
            assertThat(ch.config().getOption(IoUringChannelOption.SEND_ZC_THRESHOLD)).isZero();
            assertThatThrownBy(() -> ch.config().setOption(IoUringChannelOption.SEND_ZC_THRESHOLD, -2))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-2");
        } finally {
            ch.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        IoUringDomainSocketChannel domain = new IoUringDomainSocketChannel(loop);
        try {
            assertThat(domain.config().setOption(IoUringChannelOption.SEND_ZC_THRESHOLD, 0))
                    .as("not a domain socket's option").isFalse();
        } finally {
            domain.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
