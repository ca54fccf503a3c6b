package io.weir.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GrpcMessageFramingTest {
    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
    private final List<byte[]> read = new ArrayList<>();
    private final GrpcMessageFraming.Sink sink = (m, compressed) -> {
        read.add(ByteBufUtil.getBytes(m));
        m.release();
    };

    private static ByteBuf bytes(int... values) {
        ByteBuf buf = Unpooled.buffer(values.length);
        for (int v : values) {
            buf.writeByte(v);
        }
        return buf;
    }

    @Test
    void messagesSplitAnywhereAcrossFramesAreReassembled() throws GrpcException {
        ByteBuf wire = Unpooled.buffer();
        for (int i = 0; i < 5; i++) {
            ByteBuf framed = GrpcMessageFraming.frame(alloc, Unpooled.wrappedBuffer(new byte[i * 3]));
            wire.writeBytes(framed);
            framed.release();
        }
        int total = wire.readableBytes();
        for (int split = 1; split < total; split++) {
            read.clear();
            GrpcMessageFraming framing = new GrpcMessageFraming(alloc, 100);
            framing.read(wire.retainedSlice(0, split), sink);
            framing.read(wire.retainedSlice(split, total - split), sink);
            assertThat(read).hasSize(5);
            assertThat(framing.isIdle()).isTrue();
            for (int i = 0; i < 5; i++) {
                assertThat(read.get(i)).hasSize(i * 3);
            }
        }
        wire.release();
    }

    @Test
    void oneByteAtATimeIsReassembled() throws GrpcException {
        GrpcMessageFraming framing = new GrpcMessageFraming(alloc, 100);
        int[] wire = {0, 0, 0, 0, 3, 'a', 'b', 'c'};
        for (int i = 0; i < wire.length; i++) {
            framing.read(bytes(wire[i]), sink);
            assertThat(framing.isIdle()).isEqualTo(i == wire.length - 1);
        }
        assertThat(read).hasSize(1);
        assertThat(new String(read.get(0), java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("abc");
    }

    @Test
    void compressedMessageWithoutEncodingIsInternal() {
        GrpcMessageFraming framing = new GrpcMessageFraming(alloc, 100);
        ByteBuf data = bytes(1, 0, 0, 0, 1, 'x');
        assertThatThrownBy(() -> framing.read(data, sink)).isInstanceOfSatisfying(GrpcException.class,
                e -> assertThat(e.status()).isEqualTo(GrpcStatus.INTERNAL));
        assertThat(data.refCnt()).isZero();
        assertThat(read).isEmpty();
    }

    @Test
    void reservedFlagBitsAreInternal() {
        GrpcMessageFraming framing = new GrpcMessageFraming(alloc, 100);
        assertThatThrownBy(() -> framing.read(bytes(0x80, 0, 0, 0, 0), sink))
                .isInstanceOfSatisfying(GrpcException.class, e -> assertThat(e.status()).isEqualTo(GrpcStatus.INTERNAL));
    }

    @Test
    void declaredLengthOverTheLimitIsRejectedBeforeTheBodyArrives() throws GrpcException {
        GrpcMessageFraming framing = new GrpcMessageFraming(alloc, 10);
        framing.read(bytes(0, 0, 0, 0, 10), sink);
        assertThat(framing.isIdle()).isFalse();
        framing.release();
        GrpcMessageFraming over = new GrpcMessageFraming(alloc, 10);
        assertThatThrownBy(() -> over.read(bytes(0, 0xFF, 0xFF, 0xFF, 0xFF), sink))
                .isInstanceOfSatisfying(GrpcException.class, e -> {
                    assertThat(e.status()).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
                    assertThat(e.description()).contains("4294967295");
                });
    }

    @Test
    void releaseFreesAPartMessage() throws GrpcException {
        GrpcMessageFraming framing = new GrpcMessageFraming(alloc, 100);
        framing.read(bytes(0, 0, 0, 0, 50, 1, 2, 3), sink);
        framing.release();
        framing.read(bytes(4, 5), sink);
        assertThat(read).isEmpty();
    }

    @Test
    void frameWritesTheFivePrefixOctets() {
        ByteBuf framed = GrpcMessageFraming.frame(alloc, Unpooled.wrappedBuffer(new byte[] {9, 8}));
        assertThat(ByteBufUtil.getBytes(framed)).containsExactly(0, 0, 0, 0, 2, 9, 8);
        framed.release();
    }
}
