package io.weir.handler.codec.compression;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * gzip (RFC 1952, several members allowed) or HTTP "deflate" through {@link Inflater}. "deflate" is meant to
 * be zlib (RFC 1950) but some servers send raw deflate (RFC 1951); the first two bytes tell which:
 *
 * <pre>
 *   zlib: | CMF: CINFO(4) CM=8(4) | FLG: FLEVEL(2) FDICT(1) FCHECK(5) |  with (CMF * 256 + FLG) % 31 == 0
 * </pre>
 *
 * The gzip header is parsed here byte by byte, so it may be split across chunks anywhere; the trailer's CRC-32
 * and length are verified.
 */
final class InflateContentDecoder implements ContentDecoder {
    private static final int GZIP_FIXED_HEADER_BYTES = 10;
    private static final int GZIP_TRAILER_BYTES = 8;
    private static final int FHCRC = 0x02;
    private static final int FEXTRA = 0x04;
    private static final int FNAME = 0x08;
    private static final int FCOMMENT = 0x10;
    private static final int FRESERVED = 0xE0;

    private enum State { DETECT, GZIP_FIXED, GZIP_XLEN, GZIP_EXTRA, GZIP_NAME, GZIP_COMMENT, GZIP_HCRC, INFLATE,
        GZIP_TRAILER, END }

    private final boolean gzip;
    private Inflater inflater;
    private final CRC32 crc;
    private State state;
    /** Header or trailer bytes gathered so far; the zlib/raw detection keeps its first byte here. */
    private final byte[] scratch = new byte[GZIP_FIXED_HEADER_BYTES];
    private int scratchCount;
    private int flags;
    private int skip;
    private boolean anyInput;

    InflateContentDecoder(boolean gzip) {
        this.gzip = gzip;
        this.crc = gzip ? new CRC32() : null;
        this.state = gzip ? State.GZIP_FIXED : State.DETECT;
        if (gzip) {
            inflater = new Inflater(true);
        }
    }

    @Override
    public void decode(ByteBuf in, ByteBufAllocator alloc, Sink sink) {
        if (in.isReadable()) {
            anyInput = true;
        }
        while (in.isReadable()) {
            switch (state) {
                case DETECT -> detect(in, alloc, sink);
                case GZIP_FIXED -> {
                    scratch[scratchCount++] = in.readByte();
                    if (scratchCount == GZIP_FIXED_HEADER_BYTES) {
                        checkGzipHeader();
                    }
                }
                case GZIP_XLEN -> {
                    scratch[scratchCount++] = in.readByte();
                    if (scratchCount == 2) {
                        skip = (scratch[0] & 0xFF) | (scratch[1] & 0xFF) << 8;
                        state = State.GZIP_EXTRA;
                    }
                }
                case GZIP_EXTRA -> {
                    int n = Math.min(skip, in.readableBytes());
                    in.skipBytes(n);
                    skip -= n;
                    if (skip == 0) {
                        afterExtra();
                    }
                }
                case GZIP_NAME, GZIP_COMMENT -> {
                    if (in.readByte() == 0) {
                        if (state == State.GZIP_NAME) {
                            afterName();
                        } else {
                            afterComment();
                        }
                    }
                }
                case GZIP_HCRC -> {
                    in.skipBytes(1);
                    if (--skip == 0) {
                        state = State.INFLATE;
                    }
                }
                case INFLATE -> inflate(in, alloc, sink);
                case GZIP_TRAILER -> {
                    scratch[scratchCount++] = in.readByte();
                    if (scratchCount == GZIP_TRAILER_BYTES) {
                        checkGzipTrailer();
                    }
                }
                case END -> {
                    if (gzip) {
                        startGzipMember();
                    } else {
                        throw new DecompressionException("data after the end of the deflate stream");
                    }
                }
                default -> throw new IllegalStateException(state.name());
            }
        }
    }

    @Override
    public void finish() {
        boolean complete = state == State.END || !anyInput;
        if (!complete) {
            throw new DecompressionException("compressed body ended before the end of its "
                    + (gzip ? "gzip" : "deflate") + " stream (in state " + state + ')');
        }
    }

    @Override
    public void close() {
        if (inflater != null) {
            inflater.end();
            inflater = null;
        }
    }

    private void detect(ByteBuf in, ByteBufAllocator alloc, Sink sink) {
        if (scratchCount == 0) {
            scratch[scratchCount++] = in.readByte();
            if (!in.isReadable()) {
                return;
            }
        }
        int cmf = scratch[0] & 0xFF;
        int flg = in.getUnsignedByte(in.readerIndex());
        boolean zlib = (cmf & 0x0F) == 8 && (cmf >>> 4) <= 7 && ((cmf << 8) | flg) % 31 == 0;
        inflater = new Inflater(!zlib);
        state = State.INFLATE;
        scratchCount = 0;
        // The first byte was already taken from the input: feed it on its own first.
        inflateFrom(ByteBuffer.wrap(scratch, 0, 1), alloc, sink);
    }

    private void checkGzipHeader() {
        if ((scratch[0] & 0xFF) != 0x1f || (scratch[1] & 0xFF) != 0x8b) {
            throw new DecompressionException("not gzip: bad magic bytes");
        }
        if (scratch[2] != 8) {
            throw new DecompressionException("unsupported gzip compression method " + scratch[2]);
        }
        flags = scratch[3] & 0xFF;
        if ((flags & FRESERVED) != 0) {
            throw new DecompressionException("reserved gzip flags set: 0x" + Integer.toHexString(flags));
        }
        scratchCount = 0;
        if ((flags & FEXTRA) != 0) {
            state = State.GZIP_XLEN;
        } else {
            afterExtra();
        }
    }

    private void afterExtra() {
        scratchCount = 0;
        if ((flags & FNAME) != 0) {
            state = State.GZIP_NAME;
        } else {
            afterName();
        }
    }

    private void afterName() {
        if ((flags & FCOMMENT) != 0) {
            state = State.GZIP_COMMENT;
        } else {
            afterComment();
        }
    }

    private void afterComment() {
        if ((flags & FHCRC) != 0) {
            skip = 2;
            state = State.GZIP_HCRC;
        } else {
            state = State.INFLATE;
        }
    }

    private void checkGzipTrailer() {
        long expectedCrc = readIntLE(0);
        long expectedSize = readIntLE(4);
        if (expectedCrc != crc.getValue()) {
            throw new DecompressionException("gzip CRC-32 mismatch: trailer says 0x" + Long.toHexString(expectedCrc)
                    + ", content is 0x" + Long.toHexString(crc.getValue()));
        }
        if (expectedSize != (inflater.getBytesWritten() & 0xFFFFFFFFL)) {
            throw new DecompressionException("gzip length mismatch: trailer says " + expectedSize + ", content is "
                    + (inflater.getBytesWritten() & 0xFFFFFFFFL) + " (mod 2^32)");
        }
        scratchCount = 0;
        state = State.END;
    }

    private long readIntLE(int at) {
        return (scratch[at] & 0xFFL) | (scratch[at + 1] & 0xFFL) << 8 | (scratch[at + 2] & 0xFFL) << 16
                | (scratch[at + 3] & 0xFFL) << 24;
    }

    private void startGzipMember() {
        // RFC 1952 §2.2: a gzip file is a series of members.
        inflater.reset();
        crc.reset();
        scratchCount = 0;
        state = State.GZIP_FIXED;
    }

    private void inflate(ByteBuf in, ByteBufAllocator alloc, Sink sink) {
        ByteBuffer input = in.nioBuffer(in.readerIndex(), in.readableBytes());
        int start = input.position();
        try {
            inflateFrom(input, alloc, sink);
        } finally {
            in.skipBytes(input.position() - start);
        }
    }

    /** Inflates until {@code input} is used up or the stream ends; {@code input}'s position shows what was used. */
    private void inflateFrom(ByteBuffer input, ByteBufAllocator alloc, Sink sink) {
        inflater.setInput(input);
        ByteBuf piece = null;
        try {
            for (;;) {
                if (piece == null) {
                    piece = alloc.buffer(MAX_PIECE_BYTES, MAX_PIECE_BYTES);
                }
                int at = piece.writerIndex();
                int n = inflater.inflate(piece.nioBuffer(at, piece.writableBytes()));
                if (n > 0) {
                    piece.writerIndex(at + n);
                    if (crc != null) {
                        crc.update(piece.nioBuffer(at, n));
                    }
                }
                if (!piece.isWritable()) {
                    ByteBuf full = piece;
                    piece = null;
                    sink.add(full);
                }
                if (inflater.finished()) {
                    state = gzip ? State.GZIP_TRAILER : State.END;
                    scratchCount = 0;
                    break;
                }
                if (inflater.needsDictionary()) {
                    throw new DecompressionException("deflate streams with a preset dictionary are not supported");
                }
                if (inflater.needsInput()) {
                    break;
                }
            }
            if (piece != null && piece.isReadable()) {
                ByteBuf rest = piece;
                piece = null;
                sink.add(rest);
            }
        } catch (DataFormatException e) {
            throw new DecompressionException("corrupt " + (gzip ? "gzip" : "deflate") + " data: " + e.getMessage(),
                    e);
        } finally {
            if (piece != null) {
                piece.release();
            }
        }
    }
}
