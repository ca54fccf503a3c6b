package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.CompositeByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.channel.nio.internal.NioBufferGatherer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ChannelOutboundBufferTest {
    private static final int OVERHEAD = ChannelOutboundBuffer.ENTRY_OVERHEAD_BYTES;

    private final List<String> events = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(new RecordingHandler("h", events));
    private final ChannelOutboundBuffer buffer = ((AbstractChannel) channel).outboundBufferOrNull();
    private final NioBufferGatherer gatherer = NioBufferGatherer.ofThisThread();

    @AfterEach
    void tearDown() {
        gatherer.clear();
        buffer.close(new IOException("test over"));
        channel.finishAndReleaseAll();
    }

    private static ByteBuf buf(int size) {
        return Unpooled.buffer(size).writeZero(size);
    }

    private ChannelPromise add(ByteBuf b) {
        ChannelPromise promise = channel.newPromise();
        buffer.addMessage(b, b.readableBytes(), promise);
        return promise;
    }

    private List<String> writabilityEvents() {
        channel.runPendingTasks();
        List<String> out = new ArrayList<>();
        for (String e : events) {
            if (e.startsWith("h:writability")) {
                out.add(e);
            }
        }
        return out;
    }

    @Test
    void onlyFlushedMessagesAreVisibleToTheTransport() {
        ByteBuf a = buf(1);
        ByteBuf b = buf(2);
        ByteBuf c = buf(3);
        ChannelPromise pa = add(a);
        add(b);
        assertThat(buffer.current()).isNull();
        assertThat(buffer.isEmpty()).isTrue();
        buffer.addFlush();
        add(c);
        assertThat(buffer.size()).isEqualTo(2);
        assertThat(buffer.current()).isSameAs(a);
        assertThat(buffer.remove()).isTrue();
        assertThat(pa.isSuccess()).isTrue();
        assertThat(a.refCnt()).isZero();
        assertThat(buffer.remove()).isTrue();
        assertThat(buffer.current()).isNull();
        assertThat(buffer.remove()).isFalse();
        assertThat(c.refCnt()).isEqualTo(1);
        buffer.addFlush();
        assertThat(buffer.current()).isSameAs(c);
        assertThat(buffer.size()).isEqualTo(1);
    }

    @Test
    void pendingBytesCountMessageSizesPlusEntryOverhead() {
        add(buf(10));
        add(buf(20));
        assertThat(buffer.totalPendingWriteBytes()).isEqualTo(30 + 2L * OVERHEAD);
        buffer.addFlush();
        buffer.remove();
        assertThat(buffer.totalPendingWriteBytes()).isEqualTo(20 + OVERHEAD);
    }

    @Test
    void removeBytesRemovesWrittenBuffersAndAdvancesThePartlyWrittenOne() {
        ByteBuf a = buf(10);
        ByteBuf b = buf(20);
        ChannelProgressivePromise pa = channel.newProgressivePromise();
        List<Long> progress = new ArrayList<>();
        pa.addListener(new ChannelProgressiveFutureListener() {
            @Override
            public void operationProgressed(ChannelProgressiveFuture future, long p, long total) {
                progress.add(p);
            }

            @Override
            public void operationComplete(ChannelFuture future) {
            }
        });
        buffer.addMessage(a, 10, pa);
        ChannelPromise pb = add(b);
        buffer.addFlush();
        buffer.removeBytes(15);
        assertThat(pa.isSuccess()).isTrue();
        assertThat(progress).containsExactly(10L);
        assertThat(a.refCnt()).isZero();
        assertThat(buffer.current()).isSameAs(b);
        assertThat(b.readerIndex()).isEqualTo(5);
        assertThat(buffer.currentProgress()).isEqualTo(5);
        assertThat(pb.isDone()).isFalse();
        buffer.removeBytes(15);
        assertThat(pb.isSuccess()).isTrue();
        assertThat(buffer.isEmpty()).isTrue();
        assertThatThrownBy(() -> buffer.removeBytes(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nioBuffersGatherFlushedBuffersWithinTheLimits() throws Exception {
        add(buf(10));
        add(buf(20));
        add(buf(30));
        add(buf(40));
        buffer.addFlush();
        add(buf(50));
        ByteBuffer[] all = gatherer.gather(buffer, 1024, Long.MAX_VALUE);
        assertThat(gatherer.count()).isEqualTo(4);
        assertThat(gatherer.size()).isEqualTo(100);
        assertThat(all[0].remaining()).isEqualTo(10);
        assertThat(all[3].remaining()).isEqualTo(40);
        gatherer.gather(buffer, 2, Long.MAX_VALUE);
        assertThat(gatherer.count()).isEqualTo(2);
        assertThat(gatherer.size()).isEqualTo(30);
        gatherer.gather(buffer, 1024, 35);
        assertThat(gatherer.count()).isEqualTo(2);
        // The first buffer is always offered, even above the byte limit, so a write can make progress.
        gatherer.gather(buffer, 1024, 1);
        assertThat(gatherer.count()).isEqualTo(1);
        assertThat(gatherer.size()).isEqualTo(10);
    }

    @Test
    void nioBuffersAfterAPartialWriteStartAtTheReaderIndex() throws Exception {
        ByteBuf a = Unpooled.buffer(8).writeLong(0x0102030405060708L);
        add(a);
        buffer.addFlush();
        gatherer.gather(buffer, 16, 1024);
        buffer.removeBytes(3);
        ByteBuffer[] nio = gatherer.gather(buffer, 16, 1024);
        assertThat(gatherer.count()).isEqualTo(1);
        assertThat(nio[0].remaining()).isEqualTo(5);
        assertThat(nio[0].get(nio[0].position())).isEqualTo((byte) 4);
    }

    @Test
    void nioBuffersExpandCompositeBuffers() throws Exception {
        CompositeByteBuf composite = Unpooled.compositeBuffer();
        composite.addComponent(true, buf(3));
        composite.addComponent(true, buf(4));
        add(composite);
        buffer.addFlush();
        gatherer.gather(buffer, 16, 1024);
        assertThat(gatherer.count()).isEqualTo(2);
        assertThat(gatherer.size()).isEqualTo(7);
    }

    @Test
    void waterMarksFlipWritabilityAndFireOneEventPerFlip() {
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(OVERHEAD + 10, 2 * OVERHEAD + 100));
        add(buf(50));
        assertThat(buffer.isWritable()).isTrue();
        add(buf(60));
        assertThat(buffer.isWritable()).isFalse();
        assertThat(buffer.bytesBeforeUnwritable()).isZero();
        assertThat(buffer.bytesBeforeWritable()).isPositive();
        add(buf(1));
        assertThat(writabilityEvents()).containsExactly("h:writability(false)");
        buffer.addFlush();
        buffer.remove();
        assertThat(buffer.isWritable()).isFalse();
        buffer.remove();
        assertThat(buffer.isWritable()).isTrue();
        assertThat(buffer.bytesBeforeWritable()).isZero();
        assertThat(writabilityEvents()).containsExactly("h:writability(false)", "h:writability(true)");
        buffer.remove();
        assertThat(writabilityEvents()).hasSize(2);
    }

    @Test
    void gatheringRemovalCountsEveryBufferOnceEvenWhenAListenerWritesMeanwhile() throws Exception {
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(OVERHEAD + 10, 3 * OVERHEAD + 100));
        ChannelPromise first = add(buf(40));
        ChannelPromise second = add(buf(40));
        ChannelPromise third = add(buf(40));
        ByteBuf late = buf(5);
        // A listener that writes again while the gathering write is being accounted for.
        first.addListener(f -> buffer.addMessage(late, 5, channel.newPromise()));
        buffer.addFlush();
        assertThat(buffer.isWritable()).isFalse();
        assertThat(writabilityEvents()).containsExactly("h:writability(false)");
        gatherer.gather(buffer, 16, Long.MAX_VALUE);
        assertThat(gatherer.count()).isEqualTo(3);
        buffer.removeBytes(120);
        assertThat(List.of(first, second, third)).allMatch(ChannelPromise::isSuccess);
        assertThat(buffer.isEmpty()).isTrue();
        assertThat(buffer.totalPendingWriteBytes()).isEqualTo(5 + OVERHEAD);
        assertThat(buffer.isWritable()).isTrue();
        assertThat(writabilityEvents()).containsExactly("h:writability(false)", "h:writability(true)");
        buffer.addFlush();
        assertThat(buffer.current()).isSameAs(late);
    }

    @Test
    void flipsThatCancelOutBeforeTheEventRunsFireOnce() {
        buffer.setUserDefinedWritability(5, false);
        buffer.setUserDefinedWritability(5, true);
        assertThat(writabilityEvents()).containsExactly("h:writability(true)");
    }

    @Test
    void userDefinedWritabilityBitsMakeTheChannelUnwritable() {
        buffer.setUserDefinedWritability(1, false);
        buffer.setUserDefinedWritability(31, false);
        assertThat(buffer.isWritable()).isFalse();
        assertThat(buffer.getUserDefinedWritability(1)).isFalse();
        assertThat(buffer.getUserDefinedWritability(2)).isTrue();
        assertThat(writabilityEvents()).containsExactly("h:writability(false)");
        buffer.setUserDefinedWritability(1, true);
        assertThat(buffer.isWritable()).isFalse();
        buffer.setUserDefinedWritability(31, true);
        assertThat(buffer.isWritable()).isTrue();
        assertThat(writabilityEvents()).containsExactly("h:writability(false)", "h:writability(true)");
        assertThatThrownBy(() -> buffer.setUserDefinedWritability(0, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index: 0");
        assertThatThrownBy(() -> buffer.getUserDefinedWritability(32)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cancelledPromisesReleaseTheirMessagesAtFlush() {
        ByteBuf a = buf(10);
        ByteBuf b = buf(10);
        ChannelPromise pa = add(a);
        ChannelPromise pb = add(b);
        assertThat(pa.cancel(false)).isTrue();
        buffer.addFlush();
        assertThat(a.refCnt()).isZero();
        assertThat(buffer.totalPendingWriteBytes()).isEqualTo(10 + OVERHEAD);
        assertThat(pb.cancel(false)).isFalse();
        // The cancelled entry is still walked past by the transport, as an empty buffer.
        assertThat(((ByteBuf) buffer.current()).readableBytes()).isZero();
        buffer.remove();
        assertThat(buffer.current()).isSameAs(b);
        buffer.remove();
        assertThat(pa.isCancelled()).isTrue();
        assertThat(pb.isSuccess()).isTrue();
    }

    @Test
    void failFlushedAndCloseReleaseEverythingAndFailEveryPromise() {
        ByteBuf a = buf(1);
        ByteBuf b = buf(2);
        ChannelPromise pa = add(a);
        buffer.addFlush();
        ChannelPromise pb = add(b);
        IOException cause = new IOException("reset");
        buffer.failFlushed(cause, true);
        assertThat(pa.cause()).isSameAs(cause);
        assertThat(a.refCnt()).isZero();
        assertThat(pb.isDone()).isFalse();
        buffer.close(cause);
        assertThat(pb.cause()).isSameAs(cause);
        assertThat(b.refCnt()).isZero();
        assertThat(buffer.totalPendingWriteBytes()).isZero();
        assertThat(buffer.current()).isNull();
    }

    /** A void promise that records the failures reported to it. */
    private final class RecordingVoidPromise extends AbstractVoidChannelPromise {
        final List<String> heard = new ArrayList<>();

        RecordingVoidPromise() {
            super(channel);
        }

        @Override
        protected void failed(Throwable cause) {
            heard.add("failed " + cause.getMessage());
        }

        @Override
        public ChannelPromise unvoid() {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void aVoidPromiseHearsOfFailuresOnlyWhateverItsWritesDo() throws Exception {
        RecordingVoidPromise promise = new RecordingVoidPromise();
        ByteBuf written = buf(8);
        ByteBuf partly = buf(8);
        ByteBuf failed = buf(8);
        buffer.addMessage(written, 8, promise);
        buffer.addMessage(partly, 8, promise);
        buffer.addMessage(failed, 8, promise);
        buffer.addFlush();
        buffer.removeBytes(12);
        assertThat(written.refCnt()).isZero();
        assertThat(partly.readerIndex()).isEqualTo(4);
        assertThat(buffer.remove()).isTrue();
        assertThat(buffer.remove(new IOException("reset"))).isTrue();
        assertThat(failed.refCnt()).isZero();
        assertThat(promise.heard).containsExactly("failed reset");
        assertThat(buffer.writtenBytes()).isEqualTo(12);
    }

    @Test
    void forEachFlushedMessageVisitsOnlyFlushedOnesInOrder() throws Exception {
        ByteBuf a = buf(1);
        ByteBuf b = buf(2);
        add(a);
        add(b);
        buffer.addFlush();
        add(buf(3));
        List<Object> seen = new ArrayList<>();
        buffer.forEachFlushedMessage(msg -> seen.add(msg) && seen.size() < 5);
        assertThat(seen).containsExactly(a, b);
    }
}
