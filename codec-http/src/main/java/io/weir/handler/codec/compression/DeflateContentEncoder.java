package io.weir.handler.codec.compression;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * gzip (RFC 1952) or zlib "deflate" (RFC 1950) through {@link Deflater}, working on the buffers' NIO views so
 * that direct buffers are compressed without a copy into a byte array.
 *
 * <pre>
 *   gzip member: | 1F 8B | CM=08 | FLG=0 | MTIME (4) | XFL | OS=FF | deflate data ... | CRC32 (LE) | ISIZE (LE) |
 * </pre>
 */
final class DeflateContentEncoder extends AbstractContentEncoder {
    private static final byte[] GZIP_HEADER = {0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, (byte) 0xff};
    private static final int GZIP_TRAILER_BYTES = 8;
    /** Room for a sync-flush marker and block headers beyond the stored-block worst case. */
    private static final int FLUSH_OVERHEAD_BYTES = 64;

    private final Deflater deflater;
    private final CRC32 crc;
    private boolean headerWritten;
    private boolean ended;
    private boolean inUse;

    DeflateContentEncoder(int level, boolean gzip) {
        deflater = new Deflater(level, gzip);
        crc = gzip ? new CRC32() : null;
    }

    @Override
    ByteBuf newEncodeOutput(ByteBufAllocator alloc, int length) {
        return alloc.buffer(worstCase(length) + headerBytes());
    }

    @Override
    void encodeInto(ByteBuf in, ByteBuf out, ByteBufAllocator alloc) {
        writeHeaderOnce(out);
        int length = in.readableBytes();
        if (length > 0) {
            ByteBuffer input = in.nioBuffer(in.readerIndex(), length);
            if (crc != null) {
                crc.update(input.duplicate());
            }
            deflater.setInput(input);
            in.skipBytes(length);
            drain(out, Deflater.SYNC_FLUSH);
        }
    }

    @Override
    ByteBuf newFinishOutput(ByteBufAllocator alloc) {
        return alloc.buffer(FLUSH_OVERHEAD_BYTES + headerBytes() + GZIP_TRAILER_BYTES);
    }

    @Override
    void finishInto(ByteBuf out) {
        writeHeaderOnce(out);
        deflater.finish();
        while (!deflater.finished()) {
            out.ensureWritable(FLUSH_OVERHEAD_BYTES);
            deflateInto(out, Deflater.NO_FLUSH);
        }
        if (crc != null) {
            out.ensureWritable(GZIP_TRAILER_BYTES);
            out.writeIntLE((int) crc.getValue());
            out.writeIntLE((int) deflater.getBytesRead());
        }
    }

    /**
     * Makes the encoder ready for the next body. zlib's set-up (about 256 KiB of state) costs more than
     * compressing a small body, so one encoder serves every response of a channel.
     */
    @Override
    public void close() {
        if (inUse && !ended) {
            deflater.reset();
            if (crc != null) {
                crc.reset();
            }
            headerWritten = false;
        }
        inUse = false;
    }

    /** Takes the encoder for a body; false if it is busy or ended. */
    boolean acquire() {
        if (inUse || ended) {
            return false;
        }
        inUse = true;
        return true;
    }

    /** Frees zlib's memory; the encoder cannot be used again. */
    void end() {
        if (!ended) {
            ended = true;
            deflater.end();
        }
    }

    private int headerBytes() {
        return crc != null && !headerWritten ? GZIP_HEADER.length : 0;
    }

    private void writeHeaderOnce(ByteBuf out) {
        if (crc != null && !headerWritten) {
            out.writeBytes(GZIP_HEADER);
            headerWritten = true;
        }
    }

    /** Deflates until the flush is complete: a call that fills less than the space given has flushed all. */
    private void drain(ByteBuf out, int flush) {
        for (;;) {
            out.ensureWritable(FLUSH_OVERHEAD_BYTES);
            int space = out.writableBytes();
            int written = deflateInto(out, flush);
            if (written < space && deflater.needsInput()) {
                return;
            }
        }
    }

    private int deflateInto(ByteBuf out, int flush) {
        int space = out.writableBytes();
        ByteBuffer target = out.nioBuffer(out.writerIndex(), space);
        int written = deflater.deflate(target, flush);
        out.writerIndex(out.writerIndex() + written);
        return written;
    }

    /** Incompressible input grows by 5 bytes per 16 KiB stored block, plus the flush marker. */
    private static int worstCase(int length) {
        return length + (length >>> 12) + FLUSH_OVERHEAD_BYTES;
    }
}
