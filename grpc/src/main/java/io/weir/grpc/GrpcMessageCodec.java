package io.weir.grpc;

import io.grpc.Compressor;
import io.grpc.Decompressor;
import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.Status;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.util.concurrent.FastThreadLocal;
import io.weir.util.concurrent.FastThreadLocalThread;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A gRPC message between grpc-java's marshallers and the wire, for both sides of a call: {@link #encode} writes a
 * marshalled message behind its 5-octet prefix (compressed or not), {@link #inflate} decompresses a received one
 * within a limit. Stateless; any thread.
 */
final class GrpcMessageCodec {
    private static final int INFLATE_CHUNK_BYTES = 8192;
    /**
     * Known-length messages up to this size, serialized on an event loop, go through the loop's scratch array:
     * protobuf writes a whole message into an array it is given in one pass, where draining it into a stream costs
     * a new encoder and a new array per message. Larger ones, and any serialized on other threads, are drained.
     */
    static final int SCRATCH_BYTES = 16 * 1024;
    private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[SCRATCH_BYTES];
        }
    };

    private GrpcMessageCodec() {
    }

    /**
     * {@code in} (a marshaller's stream, closed here) behind its prefix, compressed with {@code compressor} if not
     * null. A protobuf stream knows its length and drains into a buffer of that size, copied once.
     *
     * @throws ByteBufMessageOutputStream.MessageTooLargeException once the message passes {@code limit} octets
     *         (compressed size when compressing)
     * @throws IOException if the marshaller's stream or the compressor fails
     */
    static ByteBuf encode(ByteBufAllocator alloc, InputStream in, Compressor compressor, int limit)
            throws IOException {
        int known = compressor == null && in instanceof KnownLength ? in.available() : -1;
        ByteBuf buf = alloc.buffer(GrpcMessageFraming.HEADER_BYTES + Math.max(known, 0));
        try {
            append(buf, in, compressor, known, limit);
            return buf;
        } catch (Throwable t) {
            buf.release();
            throw t;
        }
    }

    /**
     * Appends {@code in} (closed here) behind its prefix to {@code buf}, compressed with {@code compressor} if not
     * null; {@code known} is the length {@code in} announced ({@link KnownLength}, uncompressed), or -1. If it
     * throws, {@code buf} is left as it was.
     *
     * @throws ByteBufMessageOutputStream.MessageTooLargeException once the message passes {@code limit} octets
     * @throws IOException if the marshaller's stream or the compressor fails
     */
    static void append(ByteBuf buf, InputStream in, Compressor compressor, int known, int limit)
            throws IOException {
        int start = buf.writerIndex();
        try {
            buf.writeZero(GrpcMessageFraming.HEADER_BYTES);
            ByteBufMessageOutputStream out = new ByteBufMessageOutputStream(buf, limit);
            if (compressor != null) {
                try (OutputStream compressing = compressor.compress(out)) {
                    copy(in, compressing);
                }
            } else if (known > 0 && known <= SCRATCH_BYTES && Thread.currentThread() instanceof FastThreadLocalThread) {
                copyThroughScratch(in, out, known);
            } else {
                copy(in, out);
            }
            buf.setByte(start, compressor != null ? 1 : 0);
            buf.setInt(start + 1, buf.writerIndex() - start - GrpcMessageFraming.HEADER_BYTES);
        } catch (Throwable t) {
            buf.writerIndex(start);
            throw t;
        } finally {
            in.close();
        }
    }

    /**
     * Reads the {@code known} octets {@code in} announced into the loop's scratch array with one {@code read} (a
     * protobuf message serializes itself straight into it), then copies them on; whatever the stream still has past
     * its announced length follows the usual way, so a wrong length costs speed, not bytes.
     */
    private static void copyThroughScratch(InputStream in, OutputStream out, int known) throws IOException {
        byte[] scratch = SCRATCH.get();
        int n = 0;
        while (n < known) {
            int r = in.read(scratch, n, known - n);
            if (r < 0) {
                break;
            }
            n += r;
        }
        out.write(scratch, 0, n);
        if (n == known) {
            int next = in.read();
            if (next >= 0) {
                out.write(next);
                copy(in, out);
            }
        }
    }

    private static void copy(InputStream in, OutputStream out) throws IOException {
        if (in instanceof Drainable drainable) {
            drainable.drainTo(out);
        } else {
            in.transferTo(out);
        }
    }

    /**
     * {@code compressed} (left to the caller to release) decompressed, stopping as soon as it passes {@code limit}
     * octets: a small message that inflates to gigabytes costs at most the limit.
     *
     * @throws io.grpc.StatusRuntimeException RESOURCE_EXHAUSTED past the limit, INTERNAL if it does not decompress
     */
    static ByteBuf inflate(ByteBufAllocator alloc, ByteBuf compressed, Decompressor decompressor, int limit) {
        ByteBuf out = alloc.buffer(Math.min(limit, Math.max(256, compressed.readableBytes() * 2)));
        try (InputStream in = decompressor.decompress(new ByteBufMessageInputStream(compressed))) {
            byte[] chunk = new byte[INFLATE_CHUNK_BYTES];
            int n;
            while ((n = in.read(chunk)) > 0) {
                if ((long) out.readableBytes() + n > limit) {
                    throw Status.RESOURCE_EXHAUSTED.withDescription("message inflates past " + limit + " bytes")
                            .asRuntimeException();
                }
                out.writeBytes(chunk, 0, n);
            }
            return out;
        } catch (IOException e) {
            out.release();
            throw Status.INTERNAL.withDescription("message not decompressed: " + e).asRuntimeException();
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }
}
