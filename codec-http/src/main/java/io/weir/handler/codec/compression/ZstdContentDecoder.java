package io.weir.handler.codec.compression;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDirectBufferDecompressingStreamNoFinalizer;
import com.github.luben.zstd.ZstdIOException;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * {@code zstd} (RFC 8878; one or more frames) through zstd-jni's streaming decoder. Frames asking for a window
 * over 8 MiB are refused (RFC 9659 §3 lets HTTP decoders do so), which bounds the native memory of one body
 * whatever the input. zstd-jni works on direct memory only: heap input is staged through a pooled direct buffer
 * and output is written into direct pieces of {@value ContentDecoder#MAX_PIECE_BYTES} bytes, so that a limit
 * stops a bomb one piece past it.
 */
final class ZstdContentDecoder implements ContentDecoder {
    /** Heap input is staged through direct memory in pieces of at most this size. */
    static final int STAGING_BYTES = 16 * 1024;

    private Stream stream;
    private boolean anyInput;

    ZstdContentDecoder() {
        stream = newStream();
    }

    private static Stream newStream() {
        Stream s = new Stream();
        try {
            s.setLongMax(CompressionOptions.Zstd.MAX_WINDOW_LOG);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw new IllegalStateException("could not configure a zstd decoder", e);
        }
        return s;
    }

    @Override
    public void decode(ByteBuf in, ByteBufAllocator alloc, Sink sink) {
        int length = in.readableBytes();
        if (length == 0) {
            return;
        }
        anyInput = true;
        if (in.isDirect() && in.nioBufferCount() == 1) {
            ByteBuffer src = in.nioBuffer(in.readerIndex(), length);
            int start = src.position();
            try {
                decodeFrom(src, alloc, sink);
            } finally {
                in.skipBytes(src.position() - start);
            }
            return;
        }
        ByteBuf staging = alloc.directBuffer(Math.min(length, STAGING_BYTES));
        try {
            while (in.isReadable()) {
                int n = Math.min(in.readableBytes(), staging.capacity());
                staging.clear();
                in.readBytes(staging, n);
                decodeFrom(staging.nioBuffer(0, n), alloc, sink);
            }
        } finally {
            staging.release();
        }
    }

    /** Decodes all of {@code src}, passing output on piece by piece, until the input is used and nothing is held. */
    private void decodeFrom(ByteBuffer src, ByteBufAllocator alloc, Sink sink) {
        for (;;) {
            if (!stream.hasRemaining()) {
                if (!src.hasRemaining()) {
                    return;
                }
                // zstd-jni's stream stops for good after a frame that ended with its input; a body may hold more
                // frames (RFC 8878 §3), so the next one gets a fresh stream.
                stream.close();
                stream = null;
                stream = newStream();
            }
            stream.feed(src);
            ByteBuf piece = alloc.directBuffer(MAX_PIECE_BYTES, MAX_PIECE_BYTES);
            int produced;
            try {
                produced = stream.read(piece.nioBuffer(0, MAX_PIECE_BYTES));
            } catch (ZstdIOException e) {
                piece.release();
                if (e.getErrorCode() == Zstd.errFrameParameterWindowTooLarge()) {
                    throw new DecompressionException("zstd frame needs a window over "
                            + (1 << CompressionOptions.Zstd.MAX_WINDOW_LOG) + " bytes, refused as RFC 9659 §3 allows",
                            e);
                }
                throw new DecompressionException("corrupt zstd data: " + e.getMessage(), e);
            } catch (IOException e) {
                piece.release();
                throw new DecompressionException("corrupt zstd data: " + e.getMessage(), e);
            } catch (Throwable t) {
                piece.release();
                throw t;
            }
            if (produced > 0) {
                piece.writerIndex(produced);
                sink.add(piece);
            } else {
                piece.release();
            }
            // A full piece may mean more output is held inside zstd even when the input is used up.
            if (!src.hasRemaining() && produced < MAX_PIECE_BYTES) {
                return;
            }
        }
    }

    @Override
    public void finish() {
        if (anyInput && stream.hasRemaining()) {
            throw new DecompressionException("compressed body ended before the end of its zstd frame");
        }
    }

    @Override
    public void close() {
        if (stream != null) {
            Stream s = stream;
            stream = null;
            s.close();
        }
    }

    /** zstd-jni's direct-buffer stream, fed one caller-owned input buffer at a time. */
    private static final class Stream extends ZstdDirectBufferDecompressingStreamNoFinalizer {
        Stream() {
            super(ByteBuffer.allocateDirect(0));
        }

        void feed(ByteBuffer src) {
            source = src;
        }
    }
}
