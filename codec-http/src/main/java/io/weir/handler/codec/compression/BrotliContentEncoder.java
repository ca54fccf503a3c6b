package io.weir.handler.codec.compression;

import com.aayushatharva.brotli4j.encoder.Encoder;
import com.aayushatharva.brotli4j.encoder.EncoderJNI;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * {@code br} (RFC 7932) through brotli4j's native encoder. Input is copied into the encoder's native input
 * buffer (the JNI binding reads nowhere else) and the output is copied out of the encoder's own storage, which
 * stays valid only until the next call. Each chunk ends with a flush, so everything given so far decodes.
 * One native encoder per body: brotli4j cannot reset one, and {@link #close()} frees it.
 */
final class BrotliContentEncoder extends AbstractContentEncoder {
    /** Native input buffer size: large enough that a 16 KiB chunk goes in with one JNI call. */
    static final int MAX_INPUT_BUFFER_BYTES = 32 * 1024;
    /** Room reserved per flush for block headers when the output size is first guessed. */
    private static final int FLUSH_OVERHEAD_BYTES = 64;

    private EncoderJNI.Wrapper encoder;
    private final ByteBuffer input;

    /**
     * An encoder for one body; {@code knownLength} (or -1) lets a small full response use a window no larger than
     * itself, which is what brotli's one-shot API does and saves the encoder's memory.
     */
    BrotliContentEncoder(CompressionOptions.Brotli options, long knownLength) {
        int window = options.windowBits();
        int inputBytes = MAX_INPUT_BUFFER_BYTES;
        if (knownLength >= 0) {
            int needed = 64 - Long.numberOfLeadingZeros(Math.max(1, knownLength - 1));
            window = Math.max(CompressionOptions.Brotli.MIN_WINDOW_BITS, Math.min(window, needed));
            inputBytes = (int) Math.max(1, Math.min(inputBytes, knownLength));
        }
        try {
            encoder = new EncoderJNI.Wrapper(inputBytes, options.quality(), window, Encoder.Mode.GENERIC);
        } catch (IOException e) {
            throw new IllegalStateException("could not create a brotli encoder (out of native memory?)", e);
        }
        input = encoder.getInputBuffer();
    }

    @Override
    ByteBuf newEncodeOutput(ByteBufAllocator alloc, int length) {
        return alloc.buffer(length / 2 + FLUSH_OVERHEAD_BYTES);
    }

    @Override
    void encodeInto(ByteBuf in, ByteBuf out, ByteBufAllocator alloc) {
        while (in.isReadable()) {
            int n = Math.min(in.readableBytes(), input.capacity());
            input.clear().limit(n);
            in.readBytes(input);
            // The last piece of the chunk is pushed with FLUSH: one call both compresses and flushes it.
            EncoderJNI.Operation op = in.isReadable() ? EncoderJNI.Operation.PROCESS : EncoderJNI.Operation.FLUSH;
            encoder.push(op, n);
            drain(op, out);
        }
    }

    @Override
    ByteBuf newFinishOutput(ByteBufAllocator alloc) {
        return alloc.buffer(FLUSH_OVERHEAD_BYTES);
    }

    @Override
    void finishInto(ByteBuf out) {
        do {
            encoder.push(EncoderJNI.Operation.FINISH, 0);
            drain(EncoderJNI.Operation.FINISH, out);
        } while (!encoder.isFinished());
    }

    /** Moves everything the encoder produced into {@code out}, feeding it the rest of its input as it asks. */
    private void drain(EncoderJNI.Operation op, ByteBuf out) {
        for (;;) {
            if (!encoder.isSuccess()) {
                throw new IllegalStateException("brotli encoder failed");
            }
            if (encoder.hasMoreOutput()) {
                ByteBuffer produced = encoder.pull();
                out.writeBytes(produced);
            } else if (encoder.hasRemainingInput()) {
                encoder.push(op, 0);
            } else {
                return;
            }
        }
    }

    @Override
    public void close() {
        if (encoder != null) {
            EncoderJNI.Wrapper e = encoder;
            encoder = null;
            e.destroy();
        }
    }
}
