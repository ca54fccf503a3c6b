package io.weir.handler.codec;

import static io.weir.handler.codec.Inbound.buf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MessageToByteEncoderTest {

    static final class IntEncoder extends MessageToByteEncoder<Integer> {
        @Override
        protected void encode(ChannelHandlerContext ctx, Integer msg, ByteBuf out) {
            out.writeInt(msg);
        }
    }

    abstract static class TextEncoder<T extends CharSequence> extends MessageToByteEncoder<T> {
        @Override
        protected void encode(ChannelHandlerContext ctx, T msg, ByteBuf out) {
            out.writeCharSequence(msg, StandardCharsets.US_ASCII);
        }
    }

    static final class StringOnlyEncoder extends TextEncoder<String> {
    }

    @Test
    void encodesMessagesOfItsGenericTypeAndPassesOthersThrough() {
        EmbeddedChannel ch = new EmbeddedChannel(new IntEncoder());
        assertThat(ch.writeOutbound(0x01020304, "untouched")).isTrue();
        ByteBuf encoded = ch.readOutbound();
        assertThat(encoded.readInt()).isEqualTo(0x01020304);
        encoded.release();
        assertThat(ch.<Object>readOutbound()).isEqualTo("untouched");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void theTypeIsResolvedThroughGenericIntermediateClasses() {
        EmbeddedChannel ch = new EmbeddedChannel(new StringOnlyEncoder());
        StringBuilder notAString = new StringBuilder("builder");
        ch.writeOutbound("text", notAString);
        assertThat(Inbound.text(ch.readOutbound())).isEqualTo("text");
        assertThat(ch.<Object>readOutbound()).isSameAs(notAString);
        ch.finish();
    }

    @Test
    void anExplicitTypeOverridesTheGenericOne() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToByteEncoder<Object>(Long.class) {
            @Override
            protected void encode(ChannelHandlerContext ctx, Object msg, ByteBuf out) {
                out.writeLong((Long) msg);
            }
        });
        ch.writeOutbound(7L, 8);
        ByteBuf encoded = ch.readOutbound();
        assertThat(encoded.readLong()).isEqualTo(7L);
        encoded.release();
        assertThat(ch.<Object>readOutbound()).isEqualTo(8);
        ch.finish();
    }

    @Test
    void emptyOutputStillCompletesThePromiseInOrder() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToByteEncoder<String>() {
            @Override
            protected void encode(ChannelHandlerContext ctx, String msg, ByteBuf out) {
            }
        });
        ChannelFuture f = ch.writeAndFlush("nothing");
        assertThat(f.isSuccess()).isTrue();
        ByteBuf empty = ch.readOutbound();
        assertThat(empty.isReadable()).isFalse();
        empty.release();
        ch.finish();
    }

    @Test
    void emptyOutputWithTheVoidPromiseWritesNothing() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToByteEncoder<String>() {
            @Override
            protected void encode(ChannelHandlerContext ctx, String msg, ByteBuf out) {
            }
        });
        ch.writeAndFlush("nothing", ch.voidPromise());
        assertThat(ch.outboundMessages()).isEmpty();
        ch.finish();
    }

    @Test
    void aFailingEncodeFailsThePromiseAndReleasesMessageAndBuffer() {
        ByteBuf[] allocated = new ByteBuf[1];
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToByteEncoder<ByteBuf>() {
            @Override
            protected void encode(ChannelHandlerContext ctx, ByteBuf msg, ByteBuf out) {
                allocated[0] = out;
                out.writeByte(1);
                throw new IllegalStateException("cannot encode");
            }
        });
        ByteBuf msg = buf("payload");
        ChannelFuture f = ch.writeAndFlush(msg);
        assertThat(f.cause()).isInstanceOf(EncoderException.class).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(msg.refCnt()).isZero();
        assertThat(allocated[0].refCnt()).isZero();
        assertThat(ch.outboundMessages()).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void anEncoderExceptionIsNotWrappedAgain() {
        EncoderException thrown = new EncoderException("bad message");
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToByteEncoder<String>() {
            @Override
            protected void encode(ChannelHandlerContext ctx, String msg, ByteBuf out) {
                throw thrown;
            }
        });
        assertThat(ch.writeAndFlush("x").cause()).isSameAs(thrown);
        ch.finishAndReleaseAll();
    }

    @Test
    void heapBuffersWhenDirectIsNotPreferred() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToByteEncoder<Integer>(false) {
            @Override
            protected void encode(ChannelHandlerContext ctx, Integer msg, ByteBuf out) {
                out.writeInt(msg);
            }
        });
        ch.writeOutbound(1);
        ByteBuf encoded = ch.readOutbound();
        assertThat(encoded.isDirect()).isFalse();
        encoded.release();
        ch.finish();
    }

    @Test
    void allocateBufferCanSizeTheBufferFromTheMessage() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToByteEncoder<String>() {
            @Override
            protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, String msg, boolean preferDirect) {
                return ctx.alloc().heapBuffer(msg.length(), msg.length());
            }

            @Override
            protected void encode(ChannelHandlerContext ctx, String msg, ByteBuf out) {
                out.writeCharSequence(msg, StandardCharsets.US_ASCII);
            }
        });
        ch.writeOutbound("exact");
        ByteBuf encoded = ch.readOutbound();
        assertThat(encoded.capacity()).isEqualTo(5);
        assertThat(Inbound.text(encoded)).isEqualTo("exact");
        ch.finish();
        assertThatThrownBy(() -> ch.writeOutbound("closed")).isInstanceOf(java.nio.channels.ClosedChannelException.class);
    }
}
