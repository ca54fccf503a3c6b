package io.weir.handler.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelProgressiveFuture;
import io.weir.channel.ChannelProgressiveFutureListener;
import io.weir.channel.ChannelProgressivePromise;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChunkedWriteHandlerTest {

    @TempDir
    Path tmp;

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    /** Drains the outbound queue, checking each message's size, and returns the concatenated bytes. */
    private static byte[] drain(EmbeddedChannel ch, List<Integer> sizes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Object msg;
        while ((msg = ch.readOutbound()) != null) {
            ByteBuf buf = (ByteBuf) msg;
            if (sizes != null && buf.isReadable()) {
                sizes.add(buf.readableBytes());
            }
            byte[] b = new byte[buf.readableBytes()];
            buf.readBytes(b);
            out.writeBytes(b);
            buf.release();
        }
        return out.toByteArray();
    }

    /** Swallows flushes until {@link #releaseOnce()} lets exactly what is queued go. */
    static final class FlushGate implements ChannelHandler {
        private ChannelHandlerContext ctx;
        boolean open;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            if (open) {
                ctx.flush();
            }
        }

        void releaseOnce() {
            ctx.flush();
        }
    }

    /** Remembers every progress report. */
    static final class ProgressRecorder implements ChannelProgressiveFutureListener {
        final List<String> reports = new ArrayList<>();

        @Override
        public void operationProgressed(ChannelProgressiveFuture future, long progress, long total) {
            reports.add(progress + "/" + total);
        }

        @Override
        public void operationComplete(ChannelFuture future) {
            reports.add(future.isSuccess() ? "done" : "failed");
        }
    }

    /** An input that records closing and can be made to fail. */
    static final class ScriptedInput implements ChunkedInput<ByteBuf> {
        final int chunks;
        final int failAt;
        int read;
        boolean closed;

        ScriptedInput(int chunks, int failAt) {
            this.chunks = chunks;
            this.failAt = failAt;
        }

        @Override
        public boolean isEndOfInput() {
            return closed || read >= chunks;
        }

        @Override
        public void close() {
            closed = true;
        }

        @Override
        public ByteBuf readChunk(ByteBufAllocator allocator) throws IOException {
            if (read == failAt) {
                throw new IOException("disk on fire");
            }
            if (isEndOfInput()) {
                return null;
            }
            read++;
            return allocator.buffer(100).writeZero(100);
        }

        @Override
        public long length() {
            return chunks * 100L;
        }

        @Override
        public long progress() {
            return read * 100L;
        }
    }

    @Test
    void streamIsWrittenInChunksWithProgressAndClosedAtTheEnd() throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        boolean[] closed = new boolean[1];
        InputStream in = new ByteArrayInputStream(bytes(10)) {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        ChunkedStream input = new ChunkedStream(in, 3);
        ChannelProgressivePromise promise = ch.newProgressivePromise();
        ProgressRecorder recorder = new ProgressRecorder();
        promise.addListener(recorder);
        ch.writeAndFlush(input, promise);
        ch.runPendingTasks();

        List<Integer> sizes = new ArrayList<>();
        assertThat(drain(ch, sizes)).isEqualTo(bytes(10));
        assertThat(sizes).containsExactly(3, 3, 3, 1);
        assertThat(promise.isSuccess()).isTrue();
        assertThat(closed[0]).isTrue();
        assertThat(input.transferredBytes()).isEqualTo(10);
        assertThat(recorder.reports).containsExactly("3/-1", "6/-1", "9/-1", "10/-1", "done");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void transferPausesWhileUnwritableAndResumesOnWritabilityChange() {
        FlushGate gate = new FlushGate();
        EmbeddedChannel ch = new EmbeddedChannel(gate, new ChunkedWriteHandler());
        // One 100-byte chunk plus the entry overhead is above the high water mark.
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1, 150));
        ScriptedInput input = new ScriptedInput(3, -1);
        ChannelProgressivePromise promise = ch.newProgressivePromise();
        ProgressRecorder recorder = new ProgressRecorder();
        promise.addListener(recorder);
        ch.writeAndFlush(input, promise);
        ch.runPendingTasks();

        assertThat(input.read).isEqualTo(1);
        assertThat(ch.isWritable()).isFalse();
        for (int expected = 2; expected <= 3; expected++) {
            gate.releaseOnce();
            ch.runPendingTasks();
            assertThat(input.read).isEqualTo(expected);
            assertThat(promise.isDone()).isFalse();
        }
        gate.releaseOnce();
        ch.runPendingTasks();
        assertThat(promise.isSuccess()).isTrue();
        assertThat(input.closed).isTrue();
        assertThat(recorder.reports).containsExactly("100/300", "200/300", "300/300", "done");
        assertThat(drain(ch, null)).hasSize(300);
        gate.open = true;
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void failingInputIsClosedItsPromiseFailedAndLaterMessagesStillGo() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        ScriptedInput input = new ScriptedInput(5, 2);
        ChannelFuture inputFuture = ch.write(input);
        ChannelFuture after = ch.write(Unpooled.copiedBuffer("after", StandardCharsets.US_ASCII));
        ch.flush();
        ch.runPendingTasks();

        assertThat(inputFuture.isDone()).isTrue();
        assertThat(inputFuture.cause()).isInstanceOf(IOException.class).hasMessage("disk on fire");
        assertThat(input.closed).isTrue();
        assertThat(after.isSuccess()).isTrue();
        byte[] written = drain(ch, null);
        assertThat(written).hasSize(205);
        assertThat(new String(written, 200, 5, StandardCharsets.US_ASCII)).isEqualTo("after");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void plainMessagesKeepTheirOrderAroundInputs() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        ch.write(Unpooled.copiedBuffer("<", StandardCharsets.US_ASCII));
        ch.write(new ChunkedStream(new ByteArrayInputStream("body".getBytes(StandardCharsets.US_ASCII)), 2));
        ch.write(Unpooled.copiedBuffer(">", StandardCharsets.US_ASCII));
        ch.flush();
        assertThat(new String(drain(ch, null), StandardCharsets.US_ASCII)).isEqualTo("<body>");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void closingTheChannelClosesQueuedInputsAndFailsTheirPromises() {
        FlushGate gate = new FlushGate();
        EmbeddedChannel ch = new EmbeddedChannel(gate, new ChunkedWriteHandler());
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1, 150));
        ScriptedInput first = new ScriptedInput(4, -1);
        ScriptedInput second = new ScriptedInput(4, -1);
        ChannelFuture f1 = ch.writeAndFlush(first);
        ByteBuf plain = Unpooled.copiedBuffer("plain", StandardCharsets.US_ASCII);
        ChannelFuture f2 = ch.writeAndFlush(plain);
        ChannelFuture f3 = ch.writeAndFlush(second);
        ch.runPendingTasks();
        assertThat(first.read).isEqualTo(1);

        ch.close();
        assertThat(first.closed).isTrue();
        assertThat(second.closed).isTrue();
        assertThat(second.read).isZero();
        assertThat(f1.cause()).isNotNull();
        assertThat(f2.cause()).isInstanceOf(ClosedChannelException.class);
        assertThat(f3.cause()).isInstanceOf(ClosedChannelException.class);
        assertThat(plain.refCnt()).isZero();
        ch.finishAndReleaseAll();
    }

    @Test
    void removingTheHandlerReleasesQueuedMessages() {
        ChunkedWriteHandler handler = new ChunkedWriteHandler();
        EmbeddedChannel ch = new EmbeddedChannel(handler);
        ByteBuf queued = Unpooled.copiedBuffer("queued", StandardCharsets.US_ASCII);
        ChannelFuture f = ch.write(queued);
        ch.pipeline().remove(handler);
        assertThat(queued.refCnt()).isZero();
        assertThat(f.cause()).isInstanceOf(IllegalStateException.class);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void chunkedFileWritesTheRegionAndReportsItsLength() throws Exception {
        byte[] content = bytes(100);
        File file = Files.write(tmp.resolve("data"), content).toFile();

        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        ChunkedFile whole = new ChunkedFile(new RandomAccessFile(file, "r"), 7);
        assertThat(whole.length()).isEqualTo(100);
        List<Integer> sizes = new ArrayList<>();
        ch.writeAndFlush(whole);
        assertThat(drain(ch, sizes)).isEqualTo(content);
        assertThat(sizes).hasSize(15).allSatisfy(size -> assertThat(size).isLessThanOrEqualTo(7));
        assertThat(whole.isEndOfInput()).isTrue();

        ChunkedFile region = new ChunkedFile(new RandomAccessFile(file, "r"), 10, 20, 8);
        ChannelProgressivePromise promise = ch.newProgressivePromise();
        ch.writeAndFlush(region, promise);
        byte[] expected = new byte[20];
        System.arraycopy(content, 10, expected, 0, 20);
        assertThat(drain(ch, null)).isEqualTo(expected);
        assertThat(promise.isSuccess()).isTrue();
        assertThat(region.progress()).isEqualTo(20);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void chunkedNioFileWritesTheRegionWithPositionalReads() throws Exception {
        byte[] content = bytes(1000);
        Path path = Files.write(tmp.resolve("nio"), content);
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        FileChannel fc = FileChannel.open(path);
        ChunkedNioFile input = new ChunkedNioFile(fc, 100, 850, 256);
        ChannelFuture f = ch.writeAndFlush(input);
        List<Integer> sizes = new ArrayList<>();
        byte[] expected = new byte[850];
        System.arraycopy(content, 100, expected, 0, 850);
        assertThat(drain(ch, sizes)).isEqualTo(expected);
        assertThat(sizes).containsExactly(256, 256, 256, 82);
        assertThat(f.isSuccess()).isTrue();
        assertThat(fc.isOpen()).isFalse();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void chunkedNioFileFailsWhenTheFileIsShorterThanTheRegion() throws Exception {
        Path path = Files.write(tmp.resolve("short"), bytes(10));
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        ChannelFuture f = ch.writeAndFlush(new ChunkedNioFile(FileChannel.open(path), 0, 50, 32));
        assertThat(f.cause()).isInstanceOf(java.io.EOFException.class);
        ch.finishAndReleaseAll();
    }

    @Test
    void chunkedNioStreamDetectsTheEndOfAChannel() throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        ChunkedNioStream input = new ChunkedNioStream(Channels.newChannel(new ByteArrayInputStream(bytes(50))), 16);
        ChannelFuture f = ch.writeAndFlush(input);
        assertThat(drain(ch, null)).isEqualTo(bytes(50));
        assertThat(f.isSuccess()).isTrue();
        assertThat(input.transferredBytes()).isEqualTo(50);
        assertThat(input.isEndOfInput()).isTrue();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void badChunkSizesAreRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> new ChunkedStream(new ByteArrayInputStream(new byte[0]), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chunkSize: 0");
    }
}
