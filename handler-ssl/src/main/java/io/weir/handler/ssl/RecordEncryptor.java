package io.weir.handler.ssl;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.handler.ssl.internal.PendingPlaintext;
import io.weir.handler.ssl.internal.TlsRecords;
import io.weir.util.concurrent.FastThreadLocal;
import java.nio.ByteBuffer;
import java.util.Arrays;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * The outbound half of one {@link SslHandler}: queues plaintext writes (owning each buffer until it is encrypted or
 * failed), holds the channel unwritable through {@link SslHandler#PENDING_PLAINTEXT_WRITABILITY_INDEX} while more
 * than the high water mark waits, and encrypts the queue into records of up to 16 KiB, gathering several writes
 * into one record and completing their promises when that record was written. Only used from the channel's event
 * loop.
 */
final class RecordEncryptor {
    /** Room added to a record's plaintext for header, IV, MAC or tag and padding (RFC 5246 §6.2.3). */
    private static final int MAX_RECORD_OVERHEAD_BYTES = 512;
    /** Engine buffers gathered per wrap: with 16 KiB records, 64 buffers of 256 bytes fill one. */
    private static final int MAX_WRAP_SOURCES = 64;

    /**
     * The engine's sources for one wrap, shared by every handler on the thread: filled and cleared within
     * {@link #wrapRecord}, where nothing but the engine runs.
     */
    private static final FastThreadLocal<ByteBuffer[]> WRAP_SOURCES = new FastThreadLocal<>() {
        @Override
        protected ByteBuffer[] initialValue() {
            return new ByteBuffer[MAX_WRAP_SOURCES];
        }
    };

    private final PendingPlaintext pending = new PendingPlaintext();
    private boolean heldUnwritable;
    private int recordBufferSize;

    /** Whether no write waits. */
    boolean isEmpty() {
        return pending.isEmpty();
    }

    /** Queues {@code buf} (ownership passes here) with {@code promise}, holding the channel unwritable if needed. */
    void add(ChannelHandlerContext ctx, ByteBuf buf, ChannelPromise promise) {
        pending.add(buf, promise);
        if (!heldUnwritable
                && pending.readableBytes() > ctx.channel().config().getWriteBufferWaterMark().high()) {
            heldUnwritable = true;
            ctx.channel().setUserDefinedWritability(SslHandler.PENDING_PLAINTEXT_WRITABILITY_INDEX, false);
        }
    }

    /** Makes the channel writable again once what waits fell to the low water mark. */
    void updateWritability(ChannelHandlerContext ctx) {
        if (heldUnwritable
                && pending.readableBytes() <= ctx.channel().config().getWriteBufferWaterMark().low()) {
            heldUnwritable = false;
            ctx.channel().setUserDefinedWritability(SslHandler.PENDING_PLAINTEXT_WRITABILITY_INDEX, true);
        }
    }

    /** Releases every queued write and fails its promise with {@code cause}. */
    void releaseAndFail(Throwable cause) {
        pending.releaseAndFail(cause);
    }

    /** Forgets the record buffer size, so that the negotiated session's packet size replaces the handshake's. */
    void resetRecordBufferSize() {
        recordBufferSize = 0;
    }

    /**
     * The capacity of a buffer one record is encrypted into. The JDK engine refuses (BUFFER_OVERFLOW) any
     * destination smaller than the session's packet size, whatever the plaintext, so asking for less would only
     * cost a second allocation and a copy.
     */
    int recordBufferSize(SSLEngine engine) {
        int size = recordBufferSize;
        if (size == 0) {
            size = Math.max(engine.getSession().getPacketBufferSize(),
                    TlsRecords.MAX_PLAINTEXT_LENGTH + MAX_RECORD_OVERHEAD_BYTES);
            recordBufferSize = size;
        }
        return size;
    }

    /** If only empty writes wait, completes them and returns true: there is nothing to encrypt. */
    boolean completeEmptyWrites() {
        if (pending.isEmpty() || pending.readableBytes() != 0) {
            return false;
        }
        while (!pending.isEmpty() && pending.readableBytes() == 0) {
            int done = pending.consume(0);
            ChannelPromise[] promises = new ChannelPromise[done];
            for (int i = 0; i < done; i++) {
                promises[i] = pending.completed(i);
            }
            for (ChannelPromise p : promises) {
                p.trySuccess();
            }
        }
        return true;
    }

    /**
     * Encrypts up to 16 KiB from the head of the queue into {@code out} (ownership passes here) and writes the
     * record without flushing; returns the engine's result, or null if the engine was closed (every queued write
     * is then failed).
     */
    SSLEngineResult wrapRecord(ChannelHandlerContext ctx, SSLEngine engine, ByteBuf out) throws SSLException {
        ByteBuffer[] wrapSources = WRAP_SOURCES.get();
        int sources = pending.fill(wrapSources, TlsRecords.MAX_PLAINTEXT_LENGTH);
        SSLEngineResult result;
        try {
            for (;;) {
                result = engine.wrap(wrapSources, 0, sources,
                        out.internalNioBuffer(out.writerIndex(), out.writableBytes()));
                if (result.getStatus() != SSLEngineResult.Status.BUFFER_OVERFLOW) {
                    break;
                }
                out.ensureWritable(engine.getSession().getPacketBufferSize());
            }
        } catch (Throwable t) {
            out.release();
            throw t;
        } finally {
            Arrays.fill(wrapSources, 0, sources, null);
        }
        if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
            out.release();
            pending.releaseAndFail(new SSLException("the TLS session was closed before the data was sent"));
            return null;
        }
        out.writerIndex(out.writerIndex() + result.bytesProduced());
        writeRecord(ctx, out, pending.consume(result.bytesConsumed()));
        return result;
    }

    private void writeRecord(ChannelHandlerContext ctx, ByteBuf out, int done) {
        if (done == 0) {
            ctx.write(out);
        } else if (done == 1) {
            ctx.write(out, pending.completed(0));
        } else {
            ChannelPromise[] promises = new ChannelPromise[done];
            for (int i = 0; i < done; i++) {
                promises[i] = pending.completed(i);
            }
            ctx.write(out).addListener(new PromiseFanOut(promises));
        }
    }
}
