package io.weir.channel.epoll;

import io.weir.channel.unix.FileDescriptor;

/**
 * A write of {@code remaining} bytes from the read end of a splice pipe, queued on the target channel of an
 * {@link EpollSplicer}; the target moves them to its socket with {@code splice(2)}. The pipe stays open until the
 * write's promise completes. Event loop only; not a message users can write.
 */
final class SpliceOut {
    final FileDescriptor pipeIn;
    int remaining;

    SpliceOut(FileDescriptor pipeIn, int remaining) {
        this.pipeIn = pipeIn;
        this.remaining = remaining;
    }

    @Override
    public String toString() {
        return "SpliceOut(" + pipeIn + ", remaining: " + remaining + ')';
    }
}
