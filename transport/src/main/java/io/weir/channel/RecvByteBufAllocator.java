package io.weir.channel;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;

/**
 * Decides how large a buffer each read asks for and when a read loop should stop. A transport gets one
 * {@link Handle} per channel and drives it through each read event:
 * <pre>
 *   handle.reset(config);
 *   do {
 *       ByteBuf buf = handle.allocate(alloc);
 *       handle.attemptedBytesRead(buf.writableBytes());
 *       handle.lastBytesRead(readInto(buf));        // message channels skip the byte calls
 *       if (handle.lastBytesRead() &lt;= 0) { buf.release(); break; }
 *       handle.incMessagesRead(1);
 *       pipeline.fireChannelRead(buf);
 *   } while (handle.continueReading());
 *   handle.readComplete();
 *   pipeline.fireChannelReadComplete();
 * </pre>
 * Allocators are immutable and thread-safe; a handle belongs to one channel and is used only on its event loop.
 */
public interface RecvByteBufAllocator {

    /** A new handle for one channel. */
    Handle newHandle();

    /** The per-channel state of a read loop. Event loop only. */
    interface Handle {

        /** A buffer for the next read, sized by {@link #guess()}; the caller owns it. */
        ByteBuf allocate(ByteBufAllocator alloc);

        /** How many bytes the next read should ask for. */
        int guess();

        /**
         * Starts a read loop: clears the counters and takes the channel's current
         * {@linkplain ChannelConfig#getMaxMessagesPerRead() message limit} and auto-read setting.
         */
        void reset(ChannelConfig config);

        /** Counts messages delivered by the current read loop. */
        void incMessagesRead(int numMessages);

        /** Records the bytes the last read returned (negative: end of stream). */
        void lastBytesRead(int bytes);

        /** The bytes the last read returned. */
        int lastBytesRead();

        /** Records how many bytes the last read could have returned (the buffer's writable bytes). */
        void attemptedBytesRead(int bytes);

        /** How many bytes the last read could have returned. */
        int attemptedBytesRead();

        /**
         * Whether the read loop should go on: auto-read is on, fewer messages than the limit were read, and
         * (for byte reads) the last read filled its buffer, which hints that more data is waiting. Channels
         * that read messages rather than bytes never report bytes and are limited by the message count only.
         */
        boolean continueReading();

        /** Ends the read loop; adaptive allocators learn from it. */
        void readComplete();
    }
}
