package io.weir.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.KnownLength;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.UnpooledByteBufAllocator;
import io.weir.util.concurrent.FastThreadLocalThread;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Encoding a response message: on an event loop thread (through the loop's scratch array) and on any other thread,
 * the wire bytes are the prefix and exactly what the marshaller's stream held, whatever length it announced.
 */
class GrpcMessageCodecTest {
    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    private static byte[] payload(int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }

    /** A marshaller's stream that announces {@code announced} octets ({@link KnownLength}) and holds {@code bytes}. */
    private static InputStream announcing(byte[] bytes, int announced) {
        final class Announcing extends ByteArrayInputStream implements KnownLength {
            private int left = announced;

            Announcing() {
                super(bytes);
            }

            @Override
            public synchronized int available() {
                return Math.max(left, 0);
            }

            @Override
            public synchronized int read(byte[] b, int off, int len) {
                int n = super.read(b, off, len);
                left -= Math.max(n, 0);
                return n;
            }

            @Override
            public synchronized int read() {
                int n = super.read();
                left--;
                return n;
            }
        }
        return new Announcing();
    }

    private static byte[] encodeOn(boolean eventLoopThread, Supplier<InputStream> stream, int limit) throws Exception {
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        Runnable task = () -> {
            try {
                ByteBuf framed = GrpcMessageCodec.encode(ALLOC, stream.get(), null, limit);
                byte[] wire = new byte[framed.readableBytes()];
                framed.readBytes(wire);
                framed.release();
                result.complete(wire);
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        };
        Thread t = eventLoopThread ? new FastThreadLocalThread(task) : new Thread(task);
        t.start();
        return result.get(10, TimeUnit.SECONDS);
    }

    private static void assertFramed(byte[] wire, byte[] expected) {
        assertThat(wire).hasSize(GrpcMessageFraming.HEADER_BYTES + expected.length);
        assertThat(wire[0]).isZero();
        int length = (wire[1] & 0xFF) << 24 | (wire[2] & 0xFF) << 16 | (wire[3] & 0xFF) << 8 | wire[4] & 0xFF;
        assertThat(length).isEqualTo(expected.length);
        assertThat(java.util.Arrays.copyOfRange(wire, GrpcMessageFraming.HEADER_BYTES, wire.length))
                .isEqualTo(expected);
    }

    @Test
    void eventLoopAndOtherThreadsPutTheSameBytesOnTheWire() throws Exception {
        for (int size : new int[] {1, 1024, GrpcMessageCodec.SCRATCH_BYTES, GrpcMessageCodec.SCRATCH_BYTES + 1}) {
            byte[] bytes = payload(size);
            byte[] onLoop = encodeOn(true, () -> announcing(bytes, size), 1 << 20);
            byte[] elsewhere = encodeOn(false, () -> announcing(bytes, size), 1 << 20);
            assertFramed(onLoop, bytes);
            assertThat(elsewhere).isEqualTo(onLoop);
        }
    }

    @Test
    void aStreamLongerThanItAnnouncedIsSentWhole() throws Exception {
        byte[] bytes = payload(3000);
        assertFramed(encodeOn(true, () -> announcing(bytes, 1000), 1 << 20), bytes);
    }

    @Test
    void aStreamShorterThanItAnnouncedIsSentAsItIs() throws Exception {
        byte[] bytes = payload(700);
        assertFramed(encodeOn(true, () -> announcing(bytes, 1000), 1 << 20), bytes);
    }

    @Test
    void anEmptyMessageIsJustThePrefix() throws Exception {
        assertFramed(encodeOn(true, () -> announcing(new byte[0], 0), 1 << 20), new byte[0]);
    }

    @Test
    void aMessagePastTheLimitIsRefusedOnTheEventLoopToo() {
        byte[] bytes = payload(2048);
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        Thread t = new FastThreadLocalThread(() -> {
            try {
                GrpcMessageCodec.encode(ALLOC, announcing(bytes, 2048), null, 1024).release();
                thrown.complete(null);
            } catch (Throwable e) {
                thrown.complete(e);
            }
        });
        t.start();
        assertThat(thrown).succeedsWithin(java.time.Duration.ofSeconds(10))
                .isInstanceOf(ByteBufMessageOutputStream.MessageTooLargeException.class);
    }
}
