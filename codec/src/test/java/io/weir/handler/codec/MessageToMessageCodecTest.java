package io.weir.handler.codec;

import static io.weir.handler.codec.Inbound.ascii;
import static io.weir.handler.codec.Inbound.buf;
import static io.weir.handler.codec.Inbound.drain;
import static io.weir.handler.codec.Inbound.feed;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessageToMessageCodecTest {

    static final class NumberCodec extends MessageToMessageCodec<String, Integer> {
        @Override
        protected void decode(ChannelHandlerContext ctx, String msg, List<Object> out) {
            out.add(Integer.valueOf(msg));
        }

        @Override
        protected void encode(ChannelHandlerContext ctx, Integer msg, List<Object> out) {
            out.add(msg.toString());
        }
    }

    static final class IntCodec extends ByteToMessageCodec<Integer> {
        @Override
        protected void encode(ChannelHandlerContext ctx, Integer msg, ByteBuf out) {
            out.writeInt(msg);
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() >= 4) {
                out.add(in.readInt());
            }
        }
    }

    @Test
    void messageCodecDecodesAndEncodesItsTypesAndPassesOthersThrough() {
        EmbeddedChannel ch = new EmbeddedChannel(new NumberCodec());
        ch.writeInbound("42", 3.5);
        assertThat(ch.<Object>readInbound()).isEqualTo(42);
        assertThat(ch.<Object>readInbound()).isEqualTo(3.5);
        ch.writeOutbound(7, 'c');
        assertThat(ch.<Object>readOutbound()).isEqualTo("7");
        assertThat(ch.<Object>readOutbound()).isEqualTo('c');
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void decoderMayProduceNothingOrSeveralMessages() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToMessageDecoder<String>() {
            @Override
            protected void decode(ChannelHandlerContext ctx, String msg, List<Object> out) {
                for (String part : msg.split(",")) {
                    if (!part.isEmpty()) {
                        out.add(part);
                    }
                }
            }
        });
        ch.writeInbound("a,b,c", ",");
        assertThat(drain(ch)).containsExactly("a", "b", "c");
        ch.finish();
    }

    @Test
    void decoderReleasesWhatItDecodedFrom() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToMessageDecoder<ByteBuf>() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
                out.add(msg.readableBytes());
            }
        });
        ByteBuf in = buf("four");
        ch.writeInbound(in);
        assertThat(ch.<Object>readInbound()).isEqualTo(4);
        assertThat(in.refCnt()).isZero();
        ch.finish();
    }

    @Test
    void decoderAsksForMoreWhenAutoReadIsOffAndNothingCameOut() {
        int[] reads = {0};
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelHandler() {
            @Override
            public void read(ChannelHandlerContext ctx) {
                reads[0]++;
                ctx.read();
            }
        }, new MessageToMessageDecoder<String>() {
            @Override
            protected void decode(ChannelHandlerContext ctx, String msg, List<Object> out) {
                if (!msg.equals("swallow")) {
                    out.add(msg);
                }
            }
        });
        ch.config().setAutoRead(false);
        reads[0] = 0;
        ch.writeInbound("swallow");
        assertThat(reads[0]).isEqualTo(1);
        ch.writeInbound("keep");
        assertThat(reads[0]).isEqualTo(1);
        assertThat(drain(ch)).containsExactly("keep");
        ch.finish();
    }

    @Test
    void encoderWithSeveralResultsCompletesThePromiseWhenAllAreWritten() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToMessageEncoder<String>() {
            @Override
            protected void encode(ChannelHandlerContext ctx, String msg, List<Object> out) {
                for (String part : msg.split(",")) {
                    out.add(part);
                }
            }
        });
        ChannelFuture f = ch.writeAndFlush("x,y,z");
        assertThat(f.isSuccess()).isTrue();
        assertThat(List.<Object>of(ch.readOutbound(), ch.readOutbound(), ch.readOutbound()))
                .containsExactly("x", "y", "z");
        ch.finish();
    }

    @Test
    void encoderWithSeveralResultsFailsThePromiseWhenOneWriteFails() {
        IllegalStateException refused = new IllegalStateException("refused");
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelHandler() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                if ("bad".equals(msg)) {
                    promise.setFailure(refused);
                } else {
                    ctx.write(msg, promise);
                }
            }
        }, new MessageToMessageEncoder<String>() {
            @Override
            protected void encode(ChannelHandlerContext ctx, String msg, List<Object> out) {
                out.add("good");
                out.add("bad");
            }
        });
        ChannelFuture f = ch.writeAndFlush("both");
        assertThat(f.cause()).isSameAs(refused);
        assertThat(ch.<Object>readOutbound()).isEqualTo("good");
        ch.finishAndReleaseAll();
    }

    @Test
    void encoderThatProducesNothingFailsTheWrite() {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToMessageEncoder<String>() {
            @Override
            protected void encode(ChannelHandlerContext ctx, String msg, List<Object> out) {
            }
        });
        ChannelFuture f = ch.writeAndFlush("lost");
        assertThat(f.cause()).isInstanceOf(EncoderException.class).hasMessageContaining("at least one message");
        ch.finishAndReleaseAll();
    }

    @Test
    void encoderReleasesItsResultsWhenItFails() {
        ByteBuf[] produced = new ByteBuf[1];
        EmbeddedChannel ch = new EmbeddedChannel(new MessageToMessageEncoder<String>() {
            @Override
            protected void encode(ChannelHandlerContext ctx, String msg, List<Object> out) {
                produced[0] = buf(msg);
                out.add(produced[0]);
                throw new IllegalArgumentException("half done");
            }
        });
        ChannelFuture f = ch.writeAndFlush("partial");
        assertThat(f.cause()).isInstanceOf(EncoderException.class).hasCauseInstanceOf(IllegalArgumentException.class);
        assertThat(produced[0].refCnt()).isZero();
        ch.finishAndReleaseAll();
    }

    @Test
    void byteToMessageCodecDecodesFragmentedBytesAndEncodesItsType() {
        EmbeddedChannel ch = new EmbeddedChannel(new IntCodec());
        ch.writeOutbound(258, "other");
        ByteBuf encoded = ch.readOutbound();
        assertThat(encoded.readableBytes()).isEqualTo(4);
        assertThat(encoded.getInt(0)).isEqualTo(258);
        encoded.release();
        assertThat(ch.<Object>readOutbound()).isEqualTo("other");
        byte[] input = {0, 0, 1, 2, 0, 0, 0, 9, 7};
        ch.writeInbound(Inbound.buf(new byte[] {0, 0}));
        ch.writeInbound(Inbound.buf(new byte[] {1, 2, 0, 0, 0}));
        ch.writeInbound(Inbound.buf(new byte[] {9, 7}));
        assertThat(List.<Object>of(ch.readInbound(), ch.readInbound())).containsExactly(258, 9);
        assertThat(input).hasSize(9);
        ch.pipeline().removeFirst();
        assertThat(Inbound.text(ch.readInbound())).isEqualTo("\u0007");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void byteToMessageCodecRunsDecodeLastAtTheEnd() {
        EmbeddedChannel ch = new EmbeddedChannel(new ByteToMessageCodec<Integer>() {
            @Override
            protected void encode(ChannelHandlerContext ctx, Integer msg, ByteBuf out) {
                out.writeInt(msg);
            }

            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            }

            @Override
            protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
                out.add("last:" + in.readableBytes());
                in.skipBytes(in.readableBytes());
            }
        });
        assertThat(feed(ch, ascii("abc"), 1)).isEmpty();
        assertThat(ch.finish()).isTrue();
        assertThat(ch.<Object>readInbound()).isEqualTo("last:3");
    }
}
