package io.weir.handler.ssl;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.handler.ssl.internal.TlsRecords;
import javax.net.ssl.SSLException;

/**
 * The inbound bytes one {@link SslHandler} keeps between reads: the start of a record split across reads (never more
 * than that one record, checked on its header before it is buffered), or, while delegated tasks run on an executor,
 * whatever arrives meanwhile (at most {@link SslHandler#MAX_HELD_BYTES_DURING_TASKS}). The held buffer is pooled
 * direct and owned here until {@link #take} or {@link #completeRecord} hands it on. Only used from the channel's
 * event loop.
 */
final class HeldRecord {
    private ByteBuf held;

    /** Whether anything is held. */
    boolean isHolding() {
        return held != null;
    }

    /** Hands the held buffer (or null) to the caller, who releases it. */
    ByteBuf take() {
        ByteBuf b = held;
        held = null;
        return b;
    }

    /** Holds {@code buf} (ownership passes here); nothing may be held already. */
    void restore(ByteBuf buf) {
        held = buf;
    }

    /** Releases what is held. */
    void release() {
        if (held != null) {
            held.release();
            held = null;
        }
    }

    /**
     * Moves every readable byte of {@code in} behind what is held, while delegated tasks run.
     *
     * @throws SSLException once more than {@link SslHandler#MAX_HELD_BYTES_DURING_TASKS} would be held
     */
    void hold(ByteBufAllocator alloc, ByteBuf in) throws SSLException {
        int size = held == null ? 0 : held.readableBytes();
        if (size + in.readableBytes() > SslHandler.MAX_HELD_BYTES_DURING_TASKS) {
            throw new SSLException("more than " + SslHandler.MAX_HELD_BYTES_DURING_TASKS
                    + " bytes arrived while the handshake's delegated tasks ran");
        }
        if (held == null) {
            held = alloc.directBuffer(in.readableBytes());
        }
        held.writeBytes(in);
    }

    /**
     * Moves bytes from {@code in} into the held partial record until it is complete, and returns it (the caller
     * owns and releases it; nothing is held any more); returns null if {@code in} ran out first (everything it had
     * is now held).
     *
     * @throws NotSslRecordException if the held header is not TLS or announces a record over the limit
     */
    ByteBuf completeRecord(ByteBuf in, boolean tls13) throws NotSslRecordException {
        ByteBuf h = held;
        if (h.readableBytes() < TlsRecords.HEADER_LENGTH) {
            int n = Math.min(TlsRecords.HEADER_LENGTH - h.readableBytes(), in.readableBytes());
            h.writeBytes(in, n);
            if (h.readableBytes() < TlsRecords.HEADER_LENGTH) {
                return null;
            }
        }
        int length = checkedRecordLength(h, h.readerIndex(), tls13);
        int missing = length - h.readableBytes();
        if (missing > 0) {
            int n = Math.min(missing, in.readableBytes());
            h.ensureWritable(n);
            h.writeBytes(in, n);
            if (n < missing) {
                return null;
            }
        }
        held = null;
        return h;
    }

    /**
     * Holds the partial record left in {@code in} (all of its readable bytes) in a buffer sized for that one record.
     *
     * @throws NotSslRecordException if its header is not TLS or announces a record over the limit
     */
    void keep(ByteBufAllocator alloc, ByteBuf in, boolean tls13) throws NotSslRecordException {
        int left = in.readableBytes();
        int capacity = left >= TlsRecords.HEADER_LENGTH ? checkedRecordLength(in, in.readerIndex(), tls13)
                : TlsRecords.HEADER_LENGTH;
        ByteBuf b = alloc.directBuffer(capacity);
        b.writeBytes(in);
        held = b;
    }

    /**
     * The length (header included) of the record at {@code offset}, checked against the protocol's limit.
     *
     * @throws NotSslRecordException if the header is not TLS or the record is too long
     */
    static int checkedRecordLength(ByteBuf buf, int offset, boolean tls13) throws NotSslRecordException {
        int length = TlsRecords.recordLength(buf, offset);
        if (length == TlsRecords.NOT_TLS) {
            throw new NotSslRecordException("not a TLS record header: " + TlsRecords.headerHex(buf, offset));
        }
        // RFC 8446 §5.2 and RFC 5246 §6.2.3: the largest ciphertext the negotiated protocol allows.
        int max = tls13 ? TlsRecords.MAX_TLS13_RECORD_LENGTH : TlsRecords.MAX_TLS12_RECORD_LENGTH;
        if (length - TlsRecords.HEADER_LENGTH > max) {
            throw new NotSslRecordException("TLS record of " + (length - TlsRecords.HEADER_LENGTH)
                    + " bytes, the limit is " + max, length - TlsRecords.HEADER_LENGTH, max);
        }
        return length;
    }
}
