package io.weir.handler.codec;

import static io.weir.handler.codec.Inbound.ascii;
import static io.weir.handler.codec.Inbound.buf;
import static io.weir.handler.codec.Inbound.drain;
import static io.weir.handler.codec.Inbound.feed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.CompositeByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInputShutdownEvent;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ByteToMessageDecoderTest {

    /** Emits each complete run of {@code size} bytes as a retained slice. */
    static class ChunkDecoder extends ByteToMessageDecoder {
        final int size;
        int decodeLastCalls;

        ChunkDecoder(int size) {
            this.size = size;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() >= size) {
                out.add(in.readRetainedSlice(size));
            }
        }

        @Override
        protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
            decodeLastCalls++;
            super.decodeLast(ctx, in, out);
            if (in.isReadable()) {
                out.add("rest:" + in.readCharSequence(in.readableBytes(), java.nio.charset.StandardCharsets.US_ASCII));
            }
        }

        ByteBuf cumulation() {
            return internalBuffer();
        }
    }

    static Stream<Arguments> cumulators() {
        return Stream.of(Arguments.of("merge", ByteToMessageDecoder.MERGE_CUMULATOR),
                Arguments.of("composite", ByteToMessageDecoder.COMPOSITE_CUMULATOR));
    }

    private static EmbeddedChannel channel(ByteToMessageDecoder decoder, ByteToMessageDecoder.Cumulator cumulator) {
        decoder.setCumulator(cumulator);
        return new EmbeddedChannel(decoder);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cumulators")
    void byteByByteAndWholeInputGiveTheSameFrames(String name, ByteToMessageDecoder.Cumulator cumulator) {
        byte[] input = ascii("abcdefghijklmnopqrstuvwxyz");
        List<String> expected = List.of("abc", "def", "ghi", "jkl", "mno", "pqr", "stu", "vwx");
        for (int chunk : new int[] {1, 2, 5, 7, 0}) {
            EmbeddedChannel ch = channel(new ChunkDecoder(3), cumulator);
            assertThat(feed(ch, input, chunk)).as("chunk %d", chunk).isEqualTo(expected);
            assertThat(ch.finish()).isTrue();
            assertThat(drain(ch)).containsExactly("rest:yz");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cumulators")
    void retainedFramesStayIntactWhileMoreBytesArrive(String name, ByteToMessageDecoder.Cumulator cumulator) {
        EmbeddedChannel ch = channel(new ChunkDecoder(2), cumulator);
        ch.writeInbound(buf("abc"));
        ByteBuf ab = ch.readInbound();
        for (char c = 'd'; c <= 'z'; c++) {
            ch.writeInbound(buf(String.valueOf(c)));
        }
        assertThat(Inbound.text(ab)).isEqualTo("ab");
        List<String> rest = drain(ch);
        assertThat(String.join("", rest)).isEqualTo("cdefghijklmnopqrstuvwxyz");
        ch.finishAndReleaseAll();
    }

    @Test
    void mergeCumulatorTakesTheFirstBufferAsIs() {
        ChunkDecoder decoder = new ChunkDecoder(4);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ByteBuf first = buf("abc");
        ch.writeInbound(first);
        assertThat(decoder.cumulation()).isSameAs(first);
        assertThat(decoder.actualReadableBytes()).isEqualTo(3);
        ch.writeInbound(buf("d"));
        assertThat(drain(ch)).containsExactly("abcd");
        assertThat(decoder.actualReadableBytes()).isZero();
        ch.finish();
    }

    @Test
    void mergeCumulatorCopiesACompositeIntoOneContiguousBuffer() {
        ChunkDecoder decoder = new ChunkDecoder(8);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        CompositeByteBuf composite = Unpooled.compositeBuffer();
        composite.addComponent(true, buf("ab")).addComponent(true, buf("cd"));
        ch.writeInbound(composite);
        assertThat(decoder.cumulation()).isNotInstanceOf(CompositeByteBuf.class);
        assertThat(composite.refCnt()).isZero();
        assertThat(decoder.actualReadableBytes()).isEqualTo(4);
        ch.finishAndReleaseAll();
    }

    @Test
    void compositeCumulatorAddsBuffersWithoutCopying() {
        ChunkDecoder decoder = new ChunkDecoder(8);
        EmbeddedChannel ch = channel(decoder, ByteToMessageDecoder.COMPOSITE_CUMULATOR);
        ch.writeInbound(buf("ab"));
        ch.writeInbound(buf("cd"));
        ch.writeInbound(buf("ef"));
        assertThat(decoder.cumulation()).isInstanceOf(CompositeByteBuf.class);
        assertThat(((CompositeByteBuf) decoder.cumulation()).numComponents()).isEqualTo(3);
        ch.writeInbound(buf("gh"));
        assertThat(drain(ch)).containsExactly("abcdefgh");
        ch.finish();
    }

    @Test
    void readBytesAreDiscardedAfterTheConfiguredNumberOfReads() {
        for (int discardAfterReads : new int[] {1, 100}) {
            ChunkDecoder decoder = new ChunkDecoder(4);
            decoder.setDiscardAfterReads(discardAfterReads);
            EmbeddedChannel ch = new EmbeddedChannel(decoder);
            ByteBuf first = Unpooled.buffer(8, 64).writeBytes(ascii("abcde"));
            // writeOneInbound: no channelReadComplete, which discards too.
            ch.writeOneInbound(first);
            // Taken and released: a frame still alive would share the cumulation and rightly block the discard.
            assertThat(drain(ch)).containsExactly("abcd");
            ch.writeOneInbound(buf("f"));
            assertThat(decoder.cumulation().readerIndex()).as("discardAfterReads %d", discardAfterReads)
                    .isEqualTo(discardAfterReads == 1 ? 0 : 4);
            assertThat(decoder.actualReadableBytes()).isEqualTo(2);
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void discardAfterReadsMustBePositive() {
        assertThatThrownBy(() -> new ChunkDecoder(1).setDiscardAfterReads(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
    }

    @Test
    void endOfStreamOnCloseCallsDecodeLastAndReleasesTheCumulation() {
        ChunkDecoder decoder = new ChunkDecoder(4);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ByteBuf in = buf("abcdef");
        ch.writeInbound(in);
        assertThat(drain(ch)).containsExactly("abcd");
        assertThat(ch.finish()).isTrue();
        assertThat(drain(ch)).containsExactly("rest:ef");
        assertThat(decoder.decodeLastCalls).isEqualTo(1);
        assertThat(in.refCnt()).isZero();
    }

    @Test
    void inputShutdownCallsDecodeLastOnceWhileTheChannelStaysOpen() {
        ChunkDecoder decoder = new ChunkDecoder(4);
        List<Object> events = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(decoder, new ChannelHandler() {
            @Override
            public void channelShutdown(ChannelHandlerContext ctx, io.weir.channel.ChannelShutdownEvent event) {
                events.add(event);
            }
        });
        ByteBuf in = buf("abcdef");
        ch.writeInbound(in);
        assertThat(drain(ch)).containsExactly("abcd");
        ch.pipeline().fireChannelShutdown(ChannelInputShutdownEvent.INSTANCE);
        assertThat(drain(ch)).containsExactly("rest:ef");
        assertThat(events).containsExactly(ChannelInputShutdownEvent.INSTANCE);
        assertThat(ch.isOpen()).isTrue();
        assertThat(in.refCnt()).isZero();
        assertThat(ch.finish()).isFalse();
        assertThat(decoder.decodeLastCalls).isEqualTo(1);
    }

    @Test
    void leftoverBytesAreHandedOnWhenTheDecoderIsRemoved() {
        ChunkDecoder decoder = new ChunkDecoder(4);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(buf("abcdef"));
        assertThat(drain(ch)).containsExactly("abcd");
        ch.pipeline().remove(decoder);
        assertThat(drain(ch)).containsExactly("ef");
        assertThat(decoder.actualReadableBytes()).isZero();
        ch.writeInbound(buf("gh"));
        assertThat(drain(ch)).containsExactly("gh");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aDecoderRemovingItselfHandsTheRestOnAfterItsMessage() {
        ByteToMessageDecoder decoder = new ByteToMessageDecoder() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
                if (in.readableBytes() >= 2) {
                    out.add(in.readRetainedSlice(2));
                    ctx.pipeline().remove(this);
                }
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(buf("HIrest of the stream"));
        assertThat(drain(ch)).containsExactly("HI", "rest of the stream");
        assertThat(ch.pipeline().names()).doesNotContain("decoder");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void closingTheChannelFromInsideDecodeEndsTheLoopAndReleasesTheCumulationOnce() {
        ChunkDecoder decoder = new ChunkDecoder(2) {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
                super.decode(ctx, in, out);
                if (!out.isEmpty() && Inbound.text(((ByteBuf) out.get(0)).retainedDuplicate()).equals("!!")) {
                    // EmbeddedChannel.close() runs the close tasks, channelInactive included, before it returns.
                    ctx.channel().close();
                }
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ByteBuf in = buf("ab!!cdef");
        ch.writeInbound(in);
        assertThat(ch.isOpen()).isFalse();
        // The end of input ran inside the decode call that closed, so its frames may overtake that call's.
        assertThat(drain(ch)).containsExactlyInAnyOrder("ab", "!!", "cd", "ef");
        assertThat(in.refCnt()).isZero();
        assertThat(decoder.decodeLastCalls).isEqualTo(1);
        ch.finishAndReleaseAll();
    }

    @Test
    void singleDecodeModeDecodesOneMessagePerRead() {
        ChunkDecoder decoder = new ChunkDecoder(2);
        decoder.setSingleDecode(true);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(buf("aabbcc"));
        assertThat(drain(ch)).containsExactly("aa");
        assertThat(decoder.actualReadableBytes()).isEqualTo(4);
        ch.writeInbound(buf("d"));
        assertThat(drain(ch)).containsExactly("bb");
        ch.finishAndReleaseAll();
    }

    @Test
    void aDecodeThatProducesWithoutReadingIsReportedInsteadOfLoopingForever() {
        EmbeddedChannel ch = new EmbeddedChannel(new ByteToMessageDecoder() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
                out.add("phantom");
            }
        });
        ByteBuf in = buf("x");
        assertThatThrownBy(() -> ch.writeInbound(in)).isInstanceOf(DecoderException.class)
                .hasMessageContaining("without reading");
        assertThat(drain(ch)).containsExactly("phantom");
        // The end of input runs the loop again on the same byte, with the same verdict.
        assertThatThrownBy(ch::finishAndReleaseAll).isInstanceOf(DecoderException.class);
        drain(ch);
        assertThat(in.refCnt()).isZero();
    }

    @Test
    void exceptionsAreWrappedInDecoderExceptionButNotTwice() {
        RuntimeException[] toThrow = {new IllegalStateException("boom")};
        ByteToMessageDecoder decoder = new ByteToMessageDecoder() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
                in.skipBytes(1);
                throw toThrow[0];
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        assertThatThrownBy(() -> ch.writeInbound(buf("ab"))).isInstanceOf(DecoderException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        CorruptedFrameException corrupted = new CorruptedFrameException("bad");
        toThrow[0] = corrupted;
        assertThatThrownBy(() -> ch.writeInbound(buf("c"))).isSameAs(corrupted);
        assertThatThrownBy(ch::finishAndReleaseAll).isSameAs(corrupted);
    }

    @Test
    void theCumulationIsReleasedOnCloseAfterADecodeFailed() {
        EmbeddedChannel ch = new EmbeddedChannel(new ByteToMessageDecoder() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
                throw new IllegalArgumentException("refused");
            }

            @Override
            protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            }
        });
        ByteBuf in = buf("abc");
        assertThatThrownBy(() -> ch.writeInbound(in)).isInstanceOf(DecoderException.class);
        assertThat(in.refCnt()).isEqualTo(1);
        assertThatThrownBy(ch::finish).isInstanceOf(DecoderException.class);
        assertThat(in.refCnt()).isZero();
    }

    @Test
    void theOutputListGoesBackToThePoolAfterEachRead() {
        CodecOutputList top = CodecOutputList.newInstance();
        top.recycle();
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkDecoder(1));
        ch.writeInbound(buf("abc"));
        assertThat(drain(ch)).containsExactly("a", "b", "c");
        // The pool is a stack: the decoder took the top list and gave it back, emptied.
        CodecOutputList again = CodecOutputList.newInstance();
        try {
            assertThat(again).isSameAs(top).isEmpty();
            assertThat(again.insertSinceRecycled()).isFalse();
        } finally {
            again.recycle();
        }
        ch.finish();
    }

    @Test
    void otherMessagesPassThrough() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkDecoder(4));
        ch.writeInbound("not bytes");
        assertThat(ch.<Object>readInbound()).isEqualTo("not bytes");
        ch.finish();
    }

    @Test
    void aReadLoopThatDecodedNothingAsksForMoreWhenAutoReadIsOff() {
        int[] reads = {0};
        ChannelHandler readCounter = new ChannelHandler() {
            @Override
            public void read(ChannelHandlerContext ctx) {
                reads[0]++;
                ctx.read();
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(readCounter, new ChunkDecoder(4));
        ch.config().setAutoRead(false);
        reads[0] = 0;
        ch.writeInbound(buf("ab"));
        assertThat(reads[0]).as("partial message: the decoder asks for more").isEqualTo(1);
        ch.writeInbound(buf("cd"));
        assertThat(reads[0]).as("a message went on: reading is the application's call").isEqualTo(1);
        assertThat(drain(ch)).containsExactly("abcd");
        ch.finish();
    }

    @Test
    void sharableDecodersAreRefused() {
        assertThatThrownBy(SharableDecoder::new).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Sharable");
    }

    @ChannelHandler.Sharable
    static final class SharableDecoder extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        }
    }
}
