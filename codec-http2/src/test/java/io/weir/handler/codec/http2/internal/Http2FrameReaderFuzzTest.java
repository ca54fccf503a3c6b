package io.weir.handler.codec.http2.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2Settings;

/**
 * Fuzz target for {@link Http2FrameReader}. Run as a plain test it replays the corpus under
 * {@code src/test/resources/io/weir/handler/codec/http2/internal/Http2FrameReaderFuzzTestInputs/read/}; with
 * {@code JAZZER_FUZZ=1} Jazzer mutates it.
 *
 * <p>The first input byte picks the side (bit 0: server, which gets the client preface prepended), whether an
 * empty SETTINGS frame is prepended (bit 1, so mutations start past the first-frame rule), small limits (bit 2)
 * and the read size (bits 3..7: 1..32 octets per read, 0 meaning all at once). Invariants: only
 * {@link Http2Exception} escapes; after a connection error no frame is delivered; every DATA region lies inside
 * the readable part of the buffer; no payload or header block exceeds the limits; nothing leaks (the leak detector
 * runs at PARANOID).
 */
class Http2FrameReaderFuzzTest {

    private static final class CheckingListener extends RecordingFrameListener {
        private final Http2FrameReader[] reader = new Http2FrameReader[1];
        int delivered;

        private void seen() {
            assertThat(reader[0].isFailed()).isFalse();
            delivered++;
        }

        private void block(ByteBuf headerBlock) {
            seen();
            assertThat(headerBlock.readableBytes()).isLessThanOrEqualTo(reader[0].maxHeaderBlockBytes());
        }

        @Override
        public void onData(int streamId, ByteBuf data, int index, int length, int padding, boolean endStream) {
            seen();
            assertThat(streamId).isPositive();
            assertThat(index).isGreaterThanOrEqualTo(0);
            assertThat(length).isGreaterThanOrEqualTo(0);
            assertThat(index + length).isLessThanOrEqualTo(data.writerIndex());
            assertThat(length + padding).isLessThanOrEqualTo(reader[0].maxFrameSize());
            assertThat(padding).isBetween(0, 256);
        }

        @Override
        public void onHeaders(int streamId, ByteBuf headerBlock, int padding, boolean endStream, boolean hasPriority,
                int streamDependency, int weight, boolean exclusive) {
            block(headerBlock);
            assertThat(streamDependency).isNotEqualTo(streamId);
            assertThat(weight).isBetween(1, 256);
        }

        @Override
        public void onDiscardedHeaderBlock(int streamId, ByteBuf headerBlock) {
            block(headerBlock);
        }

        @Override
        public void onPushPromise(int streamId, int promisedStreamId, ByteBuf headerBlock, int padding) {
            block(headerBlock);
            assertThat(promisedStreamId).isPositive().isEven();
        }

        @Override
        public void onSettings(Http2Settings settings) {
            seen();
            for (int id = 1; id <= Http2Settings.MAX_KNOWN_ID; id++) {
                if (settings.has(id)) {
                    assertThat(Http2Settings.violation(id, settings.get(id, 0))).isNull();
                }
            }
        }

        @Override
        public void onWindowUpdate(int streamId, int windowSizeIncrement) {
            seen();
            assertThat(windowSizeIncrement).isPositive();
        }

        @Override
        public void onPriority(int streamId, int streamDependency, int weight, boolean exclusive) {
            seen();
            assertThat(streamDependency).isNotEqualTo(streamId);
        }

        @Override
        public void onPing(long data) {
            seen();
        }

        @Override
        public void onGoAway(int lastStreamId, long errorCode, ByteBuf debugData) {
            seen();
            assertThat(lastStreamId).isGreaterThanOrEqualTo(0);
        }
    }

    @FuzzTest(maxDuration = "30s")
    void read(byte[] data) {
        if (data.length == 0) {
            return;
        }
        int mode = data[0] & 0xff;
        boolean server = (mode & 1) != 0;
        CheckingListener listener = new CheckingListener();
        Http2FrameReader reader = new Http2FrameReader(server, listener);
        listener.reader[0] = reader;
        if ((mode & 4) != 0) {
            reader.maxHeaderBlockBytes(64).maxContinuationFrames(2);
        }
        int chunk = mode >>> 3; // 0: everything in one read
        ByteBuf cumulation = Unpooled.buffer();
        try {
            if (server) {
                cumulation.writeBytes(Http2Frames.connectionPreface());
            }
            if ((mode & 2) != 0) {
                cumulation.writeBytes(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0});
            }
            int from = 1;
            boolean connectionError = false;
            while (from < data.length && !connectionError) {
                int n = chunk == 0 ? data.length - from : Math.min(chunk, data.length - from);
                cumulation.writeBytes(data, from, n);
                from += n;
                try {
                    reader.read(cumulation);
                } catch (Http2Exception e) {
                    assertThat(e.getMessage()).isNotBlank();
                    connectionError = e.isConnectionError();
                    assertThat(reader.isFailed()).isEqualTo(connectionError);
                }
                cumulation.discardReadBytes();
            }
            if (connectionError) {
                int before = listener.delivered;
                cumulation.writeBytes(new byte[] {0, 0, 8, 6, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8});
                try {
                    reader.read(cumulation);
                } catch (Http2Exception e) {
                    throw new AssertionError("a failed reader threw again", e);
                }
                assertThat(listener.delivered).isEqualTo(before);
            }
        } finally {
            reader.close();
            cumulation.release();
        }
        assertThat(reader.isHeaderBlockOpen()).isFalse();
    }
}
