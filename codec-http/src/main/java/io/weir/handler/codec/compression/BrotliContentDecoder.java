package io.weir.handler.codec.compression;

import com.aayushatharva.brotli4j.decoder.DecoderJNI;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * {@code br} (RFC 7932) through brotli4j's native decoder. Compressed bytes are copied into the decoder's native
 * input buffer; decoded bytes are taken from its window (at most 16 MiB, the largest standard brotli window, so
 * the native memory of one body is bounded whatever the input) and handed to the sink in pieces of
 * {@value ContentDecoder#MAX_PIECE_BYTES} bytes, so that a limit stops a bomb one piece past it.
 */
final class BrotliContentDecoder implements ContentDecoder {
    /** Native input buffer size. */
    static final int INPUT_BUFFER_BYTES = 16 * 1024;

    private DecoderJNI.Wrapper decoder;
    private final ByteBuffer input;
    private boolean anyInput;
    private boolean done;

    BrotliContentDecoder() {
        try {
            decoder = new DecoderJNI.Wrapper(INPUT_BUFFER_BYTES);
        } catch (IOException e) {
            throw new IllegalStateException("could not create a brotli decoder (out of native memory?)", e);
        }
        input = decoder.getInputBuffer();
    }

    @Override
    public void decode(ByteBuf in, ByteBufAllocator alloc, Sink sink) {
        while (in.isReadable()) {
            if (done) {
                throw new DecompressionException("data after the end of the brotli stream");
            }
            anyInput = true;
            int n = Math.min(in.readableBytes(), input.capacity());
            input.clear().limit(n);
            in.readBytes(input);
            decoder.push(n);
            run(alloc, sink);
        }
    }

    /** Runs the decoder over its pushed input, passing on what it produces, until it needs more input or ends. */
    private void run(ByteBufAllocator alloc, Sink sink) {
        for (;;) {
            switch (decoder.getStatus()) {
                case NEEDS_MORE_OUTPUT -> emit(decoder.pull(), alloc, sink);
                case OK -> decoder.push(0);
                case NEEDS_MORE_INPUT -> {
                    if (!decoder.hasOutput()) {
                        return;
                    }
                    emit(decoder.pull(), alloc, sink);
                }
                case DONE -> {
                    if (decoder.hasOutput()) {
                        emit(decoder.pull(), alloc, sink);
                    } else {
                        done = true;
                        return;
                    }
                }
                // The binding reports bytes after the end of the stream as an error too.
                case ERROR -> throw new DecompressionException("corrupt brotli data, or data after its end");
                default -> throw new IllegalStateException(decoder.getStatus().name());
            }
        }
    }

    /** Copies the decoder's output (valid only until its next call) into pieces the sink takes. */
    private static void emit(ByteBuffer produced, ByteBufAllocator alloc, Sink sink) {
        while (produced.hasRemaining()) {
            int n = Math.min(produced.remaining(), MAX_PIECE_BYTES);
            ByteBuf piece = alloc.buffer(n, n);
            try {
                int limit = produced.limit();
                produced.limit(produced.position() + n);
                piece.writeBytes(produced);
                produced.limit(limit);
            } catch (Throwable t) {
                piece.release();
                throw t;
            }
            sink.add(piece);
        }
    }

    @Override
    public void finish() {
        if (anyInput && !done) {
            throw new DecompressionException("compressed body ended before the end of its brotli stream");
        }
    }

    @Override
    public void close() {
        if (decoder != null) {
            DecoderJNI.Wrapper d = decoder;
            decoder = null;
            d.destroy();
        }
    }
}
