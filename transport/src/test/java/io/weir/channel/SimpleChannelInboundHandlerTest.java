package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimpleChannelInboundHandlerTest {

    private static final class BufferCounter extends SimpleChannelInboundHandler<ByteBuf> {
        int bytes;

        @Override
        protected void messageReceived(ChannelHandlerContext ctx, ByteBuf msg) {
            bytes += msg.readableBytes();
        }
    }

    @Test
    void handlesItsTypeReleasesItAndPassesOtherTypesOn() {
        BufferCounter counter = new BufferCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter);
        ByteBuf buf = Unpooled.buffer(3).writeZero(3);
        ch.writeInbound(buf, "not a buffer");
        assertThat(counter.bytes).isEqualTo(3);
        assertThat(buf.refCnt()).isZero();
        assertThat((String) ch.readInbound()).isEqualTo("not a buffer");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void releasesEvenWhenTheHandlerThrows() {
        EmbeddedChannel ch = new EmbeddedChannel(new SimpleChannelInboundHandler<ByteBuf>() {
            @Override
            protected void messageReceived(ChannelHandlerContext ctx, ByteBuf msg) {
                throw new IllegalStateException("bad frame");
            }
        });
        ByteBuf buf = Unpooled.buffer(1).writeByte(1);
        assertThatThrownBy(() -> ch.writeInbound(buf)).hasMessage("bad frame");
        assertThat(buf.refCnt()).isZero();
        ch.finish();
    }

    @Test
    void withoutAutoReleaseTheHandlerOwnsTheMessage() {
        List<ByteBuf> kept = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new SimpleChannelInboundHandler<ByteBuf>(false) {
            @Override
            protected void messageReceived(ChannelHandlerContext ctx, ByteBuf msg) {
                kept.add(msg);
            }
        });
        ByteBuf buf = Unpooled.buffer(1).writeByte(1);
        ch.writeInbound(buf);
        assertThat(kept).containsExactly(buf);
        assertThat(buf.refCnt()).isEqualTo(1);
        buf.release();
        ch.finish();
    }

    private abstract static class Generic<T> extends SimpleChannelInboundHandler<T> {
        Generic() {
            super();
        }
    }

    @Test
    void aGenericSubclassMustNameTheType() {
        assertThatThrownBy(() -> new Generic<String>() {
            @Override
            protected void messageReceived(ChannelHandlerContext ctx, String msg) {
            }
        }).isInstanceOf(IllegalStateException.class).hasMessageContaining("pass it to the");
    }
}
