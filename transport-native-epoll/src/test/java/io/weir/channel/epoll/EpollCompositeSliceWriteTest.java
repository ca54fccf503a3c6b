package io.weir.channel.epoll;

import static io.weir.channel.epoll.EpollChannels.TIMEOUT_SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.CompositeByteBuf;
import io.weir.channel.ChannelFuture;
import io.weir.channel.EventLoop;
import io.weir.channel.epoll.EpollChannels.Collector;
import io.weir.channel.epoll.EpollChannels.Echo;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Views of direct composites (a 5-byte length prefix plus a payload, as gRPC frames a message) go out through
 * {@code writev(2)} byte for byte: each component is its own iovec entry, and no view is refused as "not direct".
 */
class EpollCompositeSliceWriteTest extends AbstractEpollChannelTest {
    private EventLoop serverLoop;
    private EventLoop clientLoop;

    EpollCompositeSliceWriteTest() {
        super(2);
    }

    @BeforeEach
    void pickLoops() {
        serverLoop = loop;
        clientLoop = group.next();
    }

    private static ByteBuf direct(int from, int length) {
        ByteBuf buf = ByteBufAllocator.DEFAULT.directBuffer(length);
        for (int i = 0; i < length; i++) {
            buf.writeByte(from + i);
        }
        return buf;
    }

    /** Bytes {@code 0 .. 4} then {@code 5 .. 5 + payload - 1}, in two direct components. */
    private static CompositeByteBuf prefixAndPayload(int payload) {
        CompositeByteBuf composite = ByteBufAllocator.DEFAULT.compositeDirectBuffer(4);
        return composite.addComponent(true, direct(0, 5)).addComponent(true, direct(5, payload));
    }

    private static byte[] range(int from, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = (byte) (from + i);
        }
        return out;
    }

    private byte[] echoed(ByteBuf message, int expected) throws Exception {
        EpollServerSocketChannel server = track(EpollChannels.server(serverLoop, group, s -> { }, this::track,
                Echo::new));
        Collector collector = new Collector(expected);
        EpollSocketChannel client = track(EpollChannels.client(clientLoop, server.localAddress(), c -> { },
                collector));
        ChannelFuture write = clientLoop.submit(() -> client.writeAndFlush(message))
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(write.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isNull();
        return collector.await();
    }

    @Test
    void aRetainedSliceOfATwoComponentCompositeIsWrittenByteForByte() throws Exception {
        CompositeByteBuf composite = prefixAndPayload(100);
        ByteBuf slice = composite.retainedSlice(2, 50);
        composite.release();
        assertThat(echoed(slice, 50)).containsExactly(range(2, 50));
    }

    @Test
    void aCompositeHoldingASliceOfACompositeIsWrittenByteForByte() throws Exception {
        CompositeByteBuf inner = prefixAndPayload(1000);
        CompositeByteBuf outer = ByteBufAllocator.DEFAULT.compositeDirectBuffer(4);
        outer.addComponent(true, direct(200, 9)).addComponent(true, inner.retainedSlice(0, 1005));
        inner.release();
        byte[] expected = new byte[9 + 1005];
        System.arraycopy(range(200, 9), 0, expected, 0, 9);
        System.arraycopy(range(0, 1005), 0, expected, 9, 1005);
        assertThat(echoed(outer, expected.length)).containsExactly(expected);
    }
}
