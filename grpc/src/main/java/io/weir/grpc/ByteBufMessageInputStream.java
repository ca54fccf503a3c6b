package io.weir.grpc;

import io.grpc.KnownLength;
import io.weir.buffer.ByteBuf;

/**
 * A message's bytes as the {@link java.io.InputStream} grpc-java's marshallers and decompressors read. It says its
 * length ({@link KnownLength}), so that protobuf sizes its buffer once, and {@link #readAllBytes()} copies into one
 * array of the exact size (the JDK's default reads into 8 KiB chunks and copies again, 9 KiB for a 1 KiB message). Reads move the buffer's reader index; the
 * caller keeps ownership of the buffer and releases it after the stream is read. Not thread-safe.
 */
final class ByteBufMessageInputStream extends java.io.InputStream implements KnownLength {
    private final ByteBuf buf;

    ByteBufMessageInputStream(ByteBuf buf) {
        this.buf = buf;
    }

    @Override
    public int read() {
        return buf.isReadable() ? buf.readUnsignedByte() : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        int n = Math.min(len, buf.readableBytes());
        if (n == 0) {
            return -1;
        }
        buf.readBytes(b, off, n);
        return n;
    }

    @Override
    public byte[] readAllBytes() {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    @Override
    public byte[] readNBytes(int len) {
        if (len < 0) {
            throw new IllegalArgumentException("len: " + len + " (expected >= 0)");
        }
        byte[] bytes = new byte[Math.min(len, buf.readableBytes())];
        buf.readBytes(bytes);
        return bytes;
    }

    @Override
    public long skip(long n) {
        int skipped = (int) Math.min(Math.max(n, 0), buf.readableBytes());
        buf.skipBytes(skipped);
        return skipped;
    }

    @Override
    public int available() {
        return buf.readableBytes();
    }
}
