package io.weir.channel;

import io.weir.util.ReferenceCounted;
import java.io.IOException;
import java.nio.channels.WritableByteChannel;

/**
 * A part of a file to send as is, written to a channel in place of a buffer. Transports that can send it
 * without copying it through user space (NIO's {@link java.nio.channels.FileChannel#transferTo}) do so; a
 * region written with a {@link ChannelProgressivePromise} reports its progress to it.
 *
 * <p><b>Ownership.</b> A region is reference counted like a buffer: writing it hands it to the channel, which
 * releases it once it is sent or the write failed; releasing the last reference closes the file if the region
 * opened it.
 *
 * <p><b>Threads.</b> A region is written by one channel's event loop at a time; it is not thread-safe.
 */
public interface FileRegion extends ReferenceCounted {

    /** The offset in the file where the region starts. */
    long position();

    /** How many bytes of the region were sent so far. */
    long transferred();

    /** The length of the region in bytes. */
    long count();

    /**
     * Sends bytes of the region starting {@code position} bytes into it (normally {@link #transferred()}),
     * as many as {@code target} takes now, and adds them to {@link #transferred()}.
     *
     * @return the bytes sent, 0 if {@code target} took none or nothing is left
     * @throws IllegalArgumentException if {@code position} is outside {@code [0, count()]}
     * @throws IOException if reading the file or writing to {@code target} failed, or the file is now shorter
     *         than the region
     */
    long transferTo(WritableByteChannel target, long position) throws IOException;

    @Override
    FileRegion retain();

    @Override
    FileRegion retain(int increment);

    @Override
    FileRegion touch();

    @Override
    FileRegion touch(Object hint);
}
