package io.weir.channel.unix.internal;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.WritableByteChannel;

/**
 * A {@link WritableByteChannel} over a channel's non-blocking socket, for {@link io.weir.channel.FileRegion}s that
 * can only {@link io.weir.channel.FileRegion#transferTo transfer} themselves: writes what the socket takes now
 * (possibly 0 bytes). Heap buffers are copied through a direct buffer of the allocator. {@link #close()} does
 * nothing: the socket belongs to the channel. Event loop only.
 */
public final class SocketWritableChannel implements WritableByteChannel {
    /** Largest copy of a heap buffer made for one write. */
    public static final int MAX_HEAP_COPY_BYTES = 64 * 1024;

    private final Socket socket;
    private final ByteBufAllocator alloc;

    /** A view of {@code socket} (owned by its channel) that copies heap buffers through {@code alloc}. */
    public SocketWritableChannel(Socket socket, ByteBufAllocator alloc) {
        this.socket = socket;
        this.alloc = alloc;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!socket.isOpen()) {
            throw new ClosedChannelException();
        }
        int position = src.position();
        int limit = src.limit();
        if (position == limit) {
            return 0;
        }
        int written;
        if (src.isDirect()) {
            written = socket.send(NativeBuffers.address(src), position, limit);
        } else {
            int length = Math.min(limit - position, MAX_HEAP_COPY_BYTES);
            ByteBuf copy = alloc.directBuffer(length);
            try {
                copy.writeBytes(src.duplicate().limit(position + length));
                ByteBuffer view = copy.nioBuffer(copy.readerIndex(), length);
                written = socket.send(NativeBuffers.address(view), view.position(), view.position() + length);
            } finally {
                copy.release();
            }
        }
        src.position(position + written);
        return written;
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    @Override
    public void close() {
        // The channel closes its socket.
    }
}
