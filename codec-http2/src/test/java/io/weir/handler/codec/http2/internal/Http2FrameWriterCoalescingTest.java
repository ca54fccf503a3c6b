package io.weir.handler.codec.http2.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.AbstractVoidChannelPromise;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2Settings;
import io.weir.handler.codec.http2.internal.hpack.HpackEncoder;
import io.weir.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The writer with {@link Http2FrameWriter#coalesce(boolean)} on, as a connection uses it. */
class Http2FrameWriterCoalescingTest {

    /** Between the writer and the channel: records each write's promise, and refuses writes when told to. */
    private static final class WriteRecorder implements ChannelHandler {
        final List<ChannelPromise> promises = new ArrayList<>();
        IOException refusal;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            promises.add(promise);
            if (refusal != null) {
                ReferenceCountUtil.release(msg);
                promise.tryFailure(refusal);
            } else {
                ctx.write(msg, promise);
            }
        }
    }

    /** A stream channel's kind of promise: void, and told of a failure only. */
    private static final class FailureRecordingVoidPromise extends AbstractVoidChannelPromise {
        final List<Throwable> failures = new ArrayList<>();

        FailureRecordingVoidPromise(Channel channel) {
            super(channel);
        }

        @Override
        protected void failed(Throwable cause) {
            failures.add(cause);
        }

        @Override
        public ChannelPromise unvoid() {
            throw new UnsupportedOperationException();
        }
    }

    private final WriteRecorder recorder = new WriteRecorder();
    private final ContextCapture capture = new ContextCapture();
    private final EmbeddedChannel channel = new EmbeddedChannel(recorder, capture);
    private final Http2FrameWriter writer = new Http2FrameWriter().coalesce(true);

    @AfterEach
    void tearDown() {
        writer.discard(new ClosedChannelException());
        channel.finishAndReleaseAll();
    }

    private ChannelHandlerContext ctx() {
        return capture.ctx;
    }

    /** Drains the writer, flushes, and takes the messages written. */
    private List<ByteBuf> flushed() {
        writer.drain();
        return capture.flushAndTake(channel);
    }

    private static String hex(List<ByteBuf> out) {
        StringBuilder hex = new StringBuilder();
        for (ByteBuf b : out) {
            hex.append(ByteBufUtil.hexDump(b));
        }
        return hex.toString();
    }

    private static void release(List<ByteBuf> out) {
        out.forEach(ByteBuf::release);
    }

    @Test
    void smallFramesGoDownAsOneMessageInTheirOrder() {
        writer.writeSettingsAck(ctx(), ctx().voidPromise());
        writer.writePing(ctx(), true, 7, ctx().voidPromise());
        writer.writeData(ctx(), 1, Unpooled.wrappedBuffer(new byte[] {1, 2}), 0, true, ctx().voidPromise());
        assertThat(channel.outboundMessages()).isEmpty();
        assertThat(writer.coalescedBytes()).isEqualTo(9 + 17 + 11);
        List<ByteBuf> out = flushed();
        try {
            assertThat(out).hasSize(1);
            assertThat(hex(out)).isEqualTo("000000040100000000" + "000008060100000000" + "0000000000000007"
                    + "000002000100000001" + "0102");
            assertThat(writer.coalescedBytes()).isZero();
        } finally {
            release(out);
        }
    }

    @Test
    void headersEncodedInPlaceAreTheFramesOfASeparatelyEncodedBlock() {
        Http2Headers small = new Http2Headers().status("200").add("content-type", "text/plain")
                .add("x-request", "a".repeat(300));
        // Larger than the peer's max frame size: encoded apart and split into HEADERS + CONTINUATION.
        Http2Headers large = new Http2Headers().status("200").add("x-large", "b".repeat(20_000));
        HpackEncoder inPlace = new HpackEncoder();
        HpackEncoder apart = new HpackEncoder();
        Http2FrameWriter plain = new Http2FrameWriter();
        for (Http2Headers headers : List.of(small, small, large)) {
            writer.writeHeaders(ctx(), 3, headers, inPlace, true, ctx().voidPromise());
            List<ByteBuf> got = flushed();
            ByteBuf block = Unpooled.buffer();
            apart.encode(headers, block);
            plain.writeHeaders(ctx(), 3, block, 0, true, ctx().voidPromise());
            List<ByteBuf> expected = flushed();
            try {
                assertThat(hex(got)).isEqualTo(hex(expected));
            } finally {
                release(got);
                release(expected);
            }
        }
    }

    @Test
    void everyPromiseCompletesWhenTheBatchIsWritten() {
        ChannelPromise first = ctx().newPromise();
        ChannelPromise second = ctx().newPromise();
        writer.writeRstStream(ctx(), 1, 8, first);
        writer.writeRstStream(ctx(), 3, 8, second);
        assertThat(first.isDone()).isFalse();
        assertThat(second.isDone()).isFalse();
        release(flushed());
        assertThat(first.isSuccess()).isTrue();
        assertThat(second.isSuccess()).isTrue();
    }

    @Test
    void aBatchOfVoidPromisesIsWrittenWithAVoidPromiseThatTellsEachOfAFailure() {
        FailureRecordingVoidPromise first = new FailureRecordingVoidPromise(channel);
        FailureRecordingVoidPromise second = new FailureRecordingVoidPromise(channel);
        writer.writeRstStream(ctx(), 1, 8, first);
        writer.writeRstStream(ctx(), 3, 8, first);
        writer.writeRstStream(ctx(), 5, 8, second);
        recorder.refusal = new IOException("refused");
        assertThat(flushed()).isEmpty();
        assertThat(recorder.promises).singleElement().satisfies(p -> assertThat(p.isVoid()).isTrue());
        // The same promise twice in a row is told once.
        assertThat(first.failures).containsExactly(recorder.refusal);
        assertThat(second.failures).containsExactly(recorder.refusal);
    }

    @Test
    void aBatchOfOneStreamsFramesIsWrittenWithThatStreamsVoidPromise() {
        FailureRecordingVoidPromise stream = new FailureRecordingVoidPromise(channel);
        writer.writeRstStream(ctx(), 1, 8, stream);
        writer.writeRstStream(ctx(), 3, 8, stream);
        recorder.refusal = new IOException("refused");
        assertThat(flushed()).isEmpty();
        // No promise of the batch's own: the frames' one void promise goes down with it and hears of the failure.
        assertThat(recorder.promises).containsExactly(stream);
        assertThat(stream.failures).containsExactly(recorder.refusal);
    }

    @Test
    void aFailedBatchFailsEveryKindOfPromiseInIt() {
        FailureRecordingVoidPromise stream = new FailureRecordingVoidPromise(channel);
        ChannelPromise plain = ctx().newPromise();
        List<Throwable> fired = new ArrayList<>();
        channel.pipeline().addLast(new ChannelHandler() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                fired.add(cause);
            }
        });
        writer.writePing(ctx(), true, 1, stream);
        writer.writePing(ctx(), true, 2, plain);
        writer.writePing(ctx(), true, 3, ctx().voidPromise());
        recorder.refusal = new IOException("refused");
        assertThat(flushed()).isEmpty();
        assertThat(recorder.promises).singleElement().satisfies(p -> assertThat(p.isVoid()).isFalse());
        assertThat(plain.cause()).isSameAs(recorder.refusal);
        assertThat(stream.failures).containsExactly(recorder.refusal);
        // The channel's void promise reports through the pipeline, as a frame written alone with it would.
        assertThat(fired).containsExactly(recorder.refusal);
    }

    @Test
    void discardReleasesTheBatchAndFailsItsPromises() {
        ChannelPromise promise = ctx().newPromise();
        writer.writePing(ctx(), false, 1, promise);
        ClosedChannelException cause = new ClosedChannelException();
        writer.discard(cause);
        assertThat(promise.cause()).isSameAs(cause);
        assertThat(writer.coalescedBytes()).isZero();
        assertThat(flushed()).isEmpty();
    }

    @Test
    void aFrameTooLargeForTheBatchFollowsWhatWasCoalescedBeforeIt() {
        writer.writeSettingsAck(ctx(), ctx().voidPromise());
        writer.maxFrameSize(Http2FrameWriter.BATCH_CAPACITY_BYTES * 2);
        ByteBuf block = Unpooled.buffer().writeZero(Http2FrameWriter.BATCH_CAPACITY_BYTES + 1);
        writer.writeHeaders(ctx(), 1, block, 0, true, ctx().voidPromise());
        writer.writePing(ctx(), true, 1, ctx().voidPromise());
        List<ByteBuf> out = flushed();
        try {
            assertThat(out).hasSize(3);
            assertThat(ByteBufUtil.hexDump(out.get(0))).isEqualTo("000000040100000000");
            assertThat(out.get(1).readableBytes()).isEqualTo(9 + Http2FrameWriter.BATCH_CAPACITY_BYTES + 1);
            assertThat(out.get(1).getByte(3)).isEqualTo((byte) Http2Frames.HEADERS);
            assertThat(out.get(2).getByte(3)).isEqualTo((byte) Http2Frames.PING);
        } finally {
            release(out);
        }
    }

    @Test
    void largeDataEndsTheBatchWithItsHeaderAndFollowsWithoutACopy() {
        writer.writeSettingsAck(ctx(), ctx().voidPromise());
        ByteBuf data = Unpooled.buffer(4000).writeZero(4000);
        writer.writeData(ctx(), 1, data, 0, false, ctx().voidPromise());
        List<ByteBuf> out = flushed();
        try {
            assertThat(out).hasSize(2);
            assertThat(ByteBufUtil.hexDump(out.get(0))).isEqualTo("000000040100000000" + "000fa0000000000001");
            assertThat(out.get(1)).isSameAs(data);
        } finally {
            release(out);
        }
    }

    @Test
    void dataUpToTheCoalescedCopyLimitIsCopiedIntoTheBatch() {
        ByteBuf data = Unpooled.buffer().writeZero(Http2FrameWriter.COALESCED_DATA_COPY_BYTES);
        writer.writeData(ctx(), 1, data, 0, false, ctx().voidPromise());
        assertThat(data.refCnt()).isZero();
        writer.writeRstStream(ctx(), 1, 8, ctx().voidPromise());
        List<ByteBuf> out = flushed();
        try {
            assertThat(out).singleElement().satisfies(b -> assertThat(b.readableBytes())
                    .isEqualTo(9 + Http2FrameWriter.COALESCED_DATA_COPY_BYTES + 13));
        } finally {
            release(out);
        }
    }

    @Test
    void aBatchIsFullAtItsCapacity() {
        int pings = Http2FrameWriter.BATCH_CAPACITY_BYTES / 17 + 1;
        for (int i = 0; i < pings; i++) {
            writer.writePing(ctx(), true, i, ctx().voidPromise());
        }
        List<ByteBuf> out = flushed();
        try {
            assertThat(out).hasSize(2);
            assertThat(out.get(0).readableBytes()).isEqualTo(Http2FrameWriter.BATCH_CAPACITY_BYTES / 17 * 17);
            assertThat(out.get(1).readableBytes()).isEqualTo(17);
        } finally {
            release(out);
        }
    }

    @Test
    void theBatchIsPassedOnOnceItReachesWhatTheChannelTakesBelowItsHighWaterMark() {
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(32, 64));
        for (int i = 0; i < 3; i++) {
            writer.writePing(ctx(), true, i, ctx().voidPromise());
        }
        assertThat(writer.coalescedBytes()).isEqualTo(3 * 17);
        assertThat(channel.isWritable()).isTrue();
        // The fourth PING takes the batch past the 64 octets the channel takes: it is passed on, the channel
        // counts it and turns unwritable, as it would have without coalescing.
        writer.writePing(ctx(), true, 3, ctx().voidPromise());
        assertThat(writer.coalescedBytes()).isZero();
        assertThat(channel.isWritable()).isFalse();
        // Unwritable, each frame is passed on as it comes: nothing is held back from the count.
        writer.writePing(ctx(), true, 4, ctx().voidPromise());
        assertThat(writer.coalescedBytes()).isZero();
        List<ByteBuf> out = flushed();
        try {
            assertThat(out).hasSize(2);
            assertThat(out.get(0).readableBytes()).isEqualTo(4 * 17);
        } finally {
            release(out);
        }
    }

    @Test
    void writeOnlyPeerCannotMakeAFewOctetsHoldAWholeBatch() {
        // Ping flood against a peer that never reads: each read ends in a flush of one small answer. What the
        // channel queues must be about what it counts, not a batch's capacity per answer.
        List<ByteBuf> out = new ArrayList<>();
        try {
            for (int i = 0; i < 100; i++) {
                writer.writePing(ctx(), true, i, ctx().voidPromise());
                out.addAll(flushed());
            }
            assertThat(out).hasSize(100);
            for (ByteBuf b : out) {
                assertThat(b.readableBytes()).isEqualTo(17);
                assertThat(b.capacity()).isLessThanOrEqualTo(64);
            }
        } finally {
            release(out);
        }
    }

    @Test
    void refusedFrameLeavesTheBatchAsItWas() {
        writer.writeSettingsAck(ctx(), ctx().voidPromise());
        Http2Settings settings = new Http2Settings();
        writer.writeSettings(ctx(), settings, ctx().voidPromise());
        int before = writer.coalescedBytes();
        ByteBuf block = Unpooled.buffer().writeZero(10);
        // Stream id 0: refused before anything is written.
        assertThatThrownBy(() -> writer.writeHeaders(ctx(), 0, block, 0, true, ctx().voidPromise()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(block.refCnt()).isZero();
        assertThat(writer.coalescedBytes()).isEqualTo(before);
        List<ByteBuf> out = flushed();
        try {
            assertThat(hex(out)).isEqualTo("000000040100000000" + "000000040000000000");
        } finally {
            release(out);
        }
    }

    @Test
    void nothingIsCoalescedOnAnInactiveChannel() {
        channel.close();
        ChannelPromise promise = channel.newPromise();
        writer.writePing(ctx(), true, 1, promise);
        assertThat(writer.coalescedBytes()).isZero();
        assertThat(promise.isDone()).isTrue();
        assertThat(promise.isSuccess()).isFalse();
    }

    @Test
    void turningCoalescingOffPassesTheBatchOn() {
        writer.writePing(ctx(), true, 1, ctx().voidPromise());
        writer.coalesce(false);
        assertThat(writer.coalescedBytes()).isZero();
        writer.writePing(ctx(), true, 2, ctx().voidPromise());
        List<ByteBuf> out = flushed();
        try {
            assertThat(out).hasSize(2);
        } finally {
            release(out);
        }
    }
}
