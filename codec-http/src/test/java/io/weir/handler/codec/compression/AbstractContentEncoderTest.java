package io.weir.handler.codec.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.Unpooled;
import io.weir.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AbstractContentEncoderTest {
    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    /** Fills its output with a marker byte, then throws if told to; remembers every output it was given. */
    private static final class FailingEncoder extends AbstractContentEncoder {
        final List<ByteBuf> outputs = new ArrayList<>();
        boolean fail;

        @Override
        ByteBuf newEncodeOutput(ByteBufAllocator alloc, int length) {
            ByteBuf out = alloc.buffer(length + 1);
            outputs.add(out);
            return out;
        }

        @Override
        void encodeInto(ByteBuf in, ByteBuf out, ByteBufAllocator alloc) {
            out.writeByte('e');
            in.skipBytes(in.readableBytes());
            if (fail) {
                throw new IllegalStateException("encode failed");
            }
        }

        @Override
        ByteBuf newFinishOutput(ByteBufAllocator alloc) {
            ByteBuf out = alloc.buffer(1);
            outputs.add(out);
            return out;
        }

        @Override
        void finishInto(ByteBuf out) {
            out.writeByte('f');
            if (fail) {
                throw new IllegalStateException("finish failed");
            }
        }

        @Override
        public void close() {
        }
    }

    @Test
    void successfulCallsHandTheirFilledOutputToTheCaller() {
        FailingEncoder encoder = new FailingEncoder();
        ByteBuf in = Unpooled.copiedBuffer("abc", StandardCharsets.US_ASCII);
        ByteBuf encoded = encoder.encode(in, ALLOC);
        ByteBuf finished = encoder.finish(ALLOC);
        assertThat(encoded.toString(StandardCharsets.US_ASCII)).isEqualTo("e");
        assertThat(finished.toString(StandardCharsets.US_ASCII)).isEqualTo("f");
        assertThat(encoded.refCnt()).isOne();
        assertThat(finished.refCnt()).isOne();
        encoded.release();
        finished.release();
        in.release();
    }

    @Test
    void aFailingEncodeOrFinishReleasesItsOutputAndRethrows() {
        FailingEncoder encoder = new FailingEncoder();
        encoder.fail = true;
        ByteBuf in = Unpooled.copiedBuffer("abc", StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> encoder.encode(in, ALLOC)).isInstanceOf(IllegalStateException.class)
                .hasMessage("encode failed");
        assertThatThrownBy(() -> encoder.finish(ALLOC)).isInstanceOf(IllegalStateException.class)
                .hasMessage("finish failed");
        assertThat(encoder.outputs).hasSize(2).allSatisfy(out -> assertThat(out.refCnt()).isZero());
        // The input stays the caller's.
        assertThat(in.refCnt()).isOne();
        in.release();
    }
}
