package io.weir.grpc;

import io.weir.buffer.ByteBuf;

/**
 * Writes into a {@link ByteBuf}, which grows as needed: where grpc-java's marshallers and compressors write a
 * response message. Stops with a {@link MessageTooLargeException} once more than {@code limit} bytes were written,
 * so that a service's runaway message is not buffered whole. The caller owns the buffer. Not thread-safe.
 */
final class ByteBufMessageOutputStream extends java.io.OutputStream {
    private final ByteBuf buf;
    private final int limitIndex;

    /** Appends to {@code buf}, at most {@code limit} bytes after its current writer index. */
    ByteBufMessageOutputStream(ByteBuf buf, int limit) {
        this.buf = buf;
        long end = (long) buf.writerIndex() + limit;
        this.limitIndex = (int) Math.min(end, Integer.MAX_VALUE);
    }

    @Override
    public void write(int b) {
        check(1);
        buf.writeByte(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        check(len);
        buf.writeBytes(b, off, len);
    }

    private void check(int len) {
        if ((long) buf.writerIndex() + len > limitIndex) {
            throw new MessageTooLargeException();
        }
    }

    /** More bytes than the limit were written. No stack trace: it is a size, not a bug. */
    static final class MessageTooLargeException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MessageTooLargeException() {
            super("message larger than the limit", null, false, false);
        }
    }
}
