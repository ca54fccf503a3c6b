package io.weir.handler.codec.compression;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;

/**
 * {@code zstd} (RFC 8878, window capped as RFC 9659 §3 requires) through zstd-jni's streaming API: one frame per
 * body, each chunk ended with a flush so that everything given so far decodes. zstd-jni reads and writes only
 * direct memory, so output goes to direct buffers and heap input is staged through a pooled direct buffer.
 *
 * <p>Like the zlib encoders, one native context serves every response of a channel (setting one up costs more
 * than compressing a small body); {@link #end()} frees it.
 */
final class ZstdContentEncoder extends AbstractContentEncoder {
    /** Heap input is staged through direct memory in pieces of at most this size. */
    static final int STAGING_BYTES = 64 * 1024;
    /** Room for block headers and the frame header/epilogue beyond the input. */
    private static final int OVERHEAD_BYTES = 64;

    private final CompressionOptions.Zstd options;
    /** The empty input that END is called with; per instance since zstd-jni writes its position. */
    private final ByteBuffer noInput = ByteBuffer.allocateDirect(0);
    private ZstdCompressCtx ctx;
    private boolean inUse;
    /** Whether the frame was ended: closing otherwise must reset the context before the next body. */
    private boolean frameEnded;

    ZstdContentEncoder(CompressionOptions.Zstd options) {
        this.options = options;
        this.ctx = new ZstdCompressCtx();
        configure();
    }

    private void configure() {
        ctx.setLevel(options.level());
        int windowLog = options.windowLog();
        if (windowLog == CompressionOptions.Zstd.AUTO_WINDOW_LOG && options.level() > 19) {
            // Levels 20..22 default to 32..128 MiB windows; RFC 9659 allows 8 MiB.
            windowLog = CompressionOptions.Zstd.MAX_WINDOW_LOG;
        }
        if (windowLog != CompressionOptions.Zstd.AUTO_WINDOW_LOG) {
            ctx.setWindowLog(windowLog);
        }
    }

    /** Takes the encoder for a body of {@code knownLength} bytes (or -1); false if busy or ended. */
    boolean acquire(long knownLength) {
        if (inUse || ctx == null) {
            return false;
        }
        inUse = true;
        frameEnded = false;
        if (knownLength >= 0) {
            // A known size goes into the frame header and lets zstd size its tables to the body.
            ctx.setPledgedSrcSize(knownLength);
        }
        return true;
    }

    @Override
    ByteBuf newEncodeOutput(ByteBufAllocator alloc, int length) {
        return alloc.directBuffer(length + (length >>> 7) + OVERHEAD_BYTES);
    }

    @Override
    void encodeInto(ByteBuf in, ByteBuf out, ByteBufAllocator alloc) {
        int length = in.readableBytes();
        if (length == 0) {
            return;
        }
        if (in.isDirect() && in.nioBufferCount() == 1) {
            ByteBuffer src = in.nioBuffer(in.readerIndex(), length);
            compress(src, out, EndDirective.FLUSH);
            in.skipBytes(length);
            return;
        }
        ByteBuf staging = alloc.directBuffer(Math.min(length, STAGING_BYTES));
        try {
            while (in.isReadable()) {
                int n = Math.min(in.readableBytes(), staging.capacity());
                staging.clear();
                in.readBytes(staging, n);
                ByteBuffer src = staging.nioBuffer(0, n);
                compress(src, out, in.isReadable() ? EndDirective.CONTINUE : EndDirective.FLUSH);
            }
        } finally {
            staging.release();
        }
    }

    @Override
    ByteBuf newFinishOutput(ByteBufAllocator alloc) {
        return alloc.directBuffer(OVERHEAD_BYTES);
    }

    @Override
    void finishInto(ByteBuf out) {
        compress(noInput, out, EndDirective.END);
        frameEnded = true;
    }

    /** Compresses all of {@code src}, then keeps calling until the directive is complete, growing {@code out}. */
    private void compress(ByteBuffer src, ByteBuf out, EndDirective directive) {
        for (;;) {
            out.ensureWritable(OVERHEAD_BYTES);
            ByteBuffer dst = out.nioBuffer(out.writerIndex(), out.writableBytes());
            int before = dst.position();
            boolean done = ctx.compressDirectByteBufferStream(dst, src, directive);
            out.writerIndex(out.writerIndex() + dst.position() - before);
            if (!src.hasRemaining() && (done || directive == EndDirective.CONTINUE)) {
                return;
            }
        }
    }

    /** Makes the context ready for the next body; a body left unfinished is dropped. */
    @Override
    public void close() {
        if (inUse && !frameEnded && ctx != null) {
            // Also drops a pledged size that was never used, which would fail the next body.
            ctx.reset();
            configure();
        }
        inUse = false;
    }

    /** Frees the native context; the encoder cannot be used again. */
    void end() {
        if (ctx != null) {
            ZstdCompressCtx c = ctx;
            ctx = null;
            c.close();
        }
    }
}
