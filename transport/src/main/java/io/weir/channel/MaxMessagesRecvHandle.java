package io.weir.channel;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;

/** The counting shared by Weir's receive-buffer allocators' handles. Event loop only. */
abstract class MaxMessagesRecvHandle implements RecvByteBufAllocator.Handle {
    private int maxMessagesPerRead;
    private boolean autoRead;
    private int totalMessages;
    private int totalBytesRead;
    private int lastBytesRead;
    private int attemptedBytesRead;
    private boolean bytesReported;

    @Override
    public ByteBuf allocate(ByteBufAllocator alloc) {
        return alloc.ioBuffer(guess());
    }

    @Override
    public void reset(ChannelConfig config) {
        maxMessagesPerRead = config.getMaxMessagesPerRead();
        autoRead = config.isAutoRead();
        totalMessages = 0;
        totalBytesRead = 0;
        lastBytesRead = 0;
        attemptedBytesRead = 0;
        bytesReported = false;
    }

    @Override
    public void incMessagesRead(int numMessages) {
        totalMessages += numMessages;
    }

    @Override
    public void lastBytesRead(int bytes) {
        lastBytesRead = bytes;
        bytesReported = true;
        if (bytes > 0) {
            // Saturate: a long read loop on a fast link must not wrap the total into a negative number.
            int total = totalBytesRead + bytes;
            totalBytesRead = total < 0 ? Integer.MAX_VALUE : total;
        }
    }

    @Override
    public int lastBytesRead() {
        return lastBytesRead;
    }

    @Override
    public void attemptedBytesRead(int bytes) {
        attemptedBytesRead = bytes;
    }

    @Override
    public int attemptedBytesRead() {
        return attemptedBytesRead;
    }

    /** Bytes read by the current read loop. */
    final int totalBytesRead() {
        return totalBytesRead;
    }

    @Override
    public boolean continueReading() {
        if (!autoRead || totalMessages >= maxMessagesPerRead) {
            return false;
        }
        if (!bytesReported) {
            return true;
        }
        return totalBytesRead > 0 && lastBytesRead == attemptedBytesRead;
    }

    @Override
    public void readComplete() {
    }
}
