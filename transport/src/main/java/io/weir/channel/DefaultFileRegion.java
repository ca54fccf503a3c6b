package io.weir.channel;

import io.weir.channel.internal.FileRegionAccess;
import io.weir.util.AbstractReferenceCounted;
import io.weir.util.IllegalReferenceCountException;
import io.weir.util.ResourceLeakDetector;
import io.weir.util.ResourceLeakTracker;
import io.weir.util.platform.LoopLogger;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Objects;

/**
 * A {@link FileRegion} over a {@link FileChannel}, sent with {@link FileChannel#transferTo}: the kernel copies
 * the file to the socket without the bytes passing through the JVM (zero copy, where the platform has it).
 *
 * <p>Made from an open {@link FileChannel} (the region then owns it and closes it when released) or from a
 * {@link File}, which is opened on the first transfer, so that a region queued behind a slow connection does
 * not hold a file descriptor. Not thread-safe, like every {@link FileRegion}; leak-tracked like a buffer.
 */
public final class DefaultFileRegion extends AbstractReferenceCounted implements FileRegion {
    private static final LoopLogger LOGGER = LoopLogger.of(DefaultFileRegion.class);
    private static final ResourceLeakDetector<DefaultFileRegion> LEAK_DETECTOR =
            ResourceLeakDetector.newDetector(DefaultFileRegion.class);

    static {
        // Native transports send regions with sendfile(2) themselves; they reach the file and the count here.
        FileRegionAccess.install(new FileRegionAccess.Accessor() {
            @Override
            public FileChannel openChannel(DefaultFileRegion region) throws IOException {
                region.open();
                return region.channel;
            }

            @Override
            public void addTransferred(DefaultFileRegion region, long amount) {
                region.transferred += amount;
            }
        });
    }

    private final File file;
    private final long position;
    private final long count;
    private final ResourceLeakTracker<DefaultFileRegion> leak;
    private FileChannel channel;
    private long transferred;

    /**
     * A region of {@code count} bytes of {@code channel} from {@code position}. The region owns the channel
     * and closes it when its last reference is released.
     *
     * @throws NullPointerException if {@code channel} is null
     * @throws IllegalArgumentException if {@code position} or {@code count} is negative
     */
    public DefaultFileRegion(FileChannel channel, long position, long count) {
        this(null, Objects.requireNonNull(channel, "channel"), position, count);
    }

    /**
     * A region of {@code count} bytes of {@code file} from {@code position}; the file is opened for reading
     * on the first transfer (or {@link #open()}) and closed when the last reference is released.
     *
     * @throws NullPointerException if {@code file} is null
     * @throws IllegalArgumentException if {@code position} or {@code count} is negative
     */
    public DefaultFileRegion(File file, long position, long count) {
        this(Objects.requireNonNull(file, "file"), null, position, count);
    }

    private DefaultFileRegion(File file, FileChannel channel, long position, long count) {
        if (position < 0) {
            throw new IllegalArgumentException("position: " + position + " (expected: >= 0)");
        }
        if (count < 0) {
            throw new IllegalArgumentException("count: " + count + " (expected: >= 0)");
        }
        this.file = file;
        this.channel = channel;
        this.position = position;
        this.count = count;
        this.leak = LEAK_DETECTOR.track(this);
    }

    /** Whether the file is open (a region made from a {@link File} opens it lazily). */
    public boolean isOpen() {
        return channel != null;
    }

    /**
     * Opens the file now if the region was made from a {@link File} and has not opened it yet.
     *
     * @throws IOException if the file cannot be opened
     * @throws IllegalReferenceCountException if the region was released
     */
    public void open() throws IOException {
        if (refCnt() == 0) {
            throw new IllegalReferenceCountException("region released: " + this);
        }
        if (channel == null) {
            channel = new RandomAccessFile(file, "r").getChannel();
        }
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public long count() {
        return count;
    }

    @Override
    public long transferred() {
        return transferred;
    }

    @Override
    public long transferTo(WritableByteChannel target, long position) throws IOException {
        if (position < 0 || position > count) {
            throw new IllegalArgumentException("position: " + position + " (expected: 0.." + count + ')');
        }
        long remaining = count - position;
        if (remaining == 0) {
            return 0;
        }
        open();
        long written = channel.transferTo(this.position + position, remaining, target);
        if (written > 0) {
            transferred += written;
        } else if (written == 0 && channel.size() < this.position + count) {
            // transferTo() reports a file that shrank under the region as "nothing written", forever.
            throw new IOException("file shorter than the region: size " + channel.size() + ", region "
                    + this.position + '+' + count + " (" + file + ')');
        }
        return written;
    }

    @Override
    protected void deallocate() {
        FileChannel ch = channel;
        channel = null;
        if (leak != null) {
            leak.close(this);
        }
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                LOGGER.log(Level.WARNING, "Failed to close the file of a region: ", file, e);
            }
        }
    }

    @Override
    public FileRegion retain() {
        super.retain();
        return this;
    }

    @Override
    public FileRegion retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public FileRegion touch() {
        return touch(null);
    }

    @Override
    public FileRegion touch(Object hint) {
        if (leak != null) {
            leak.record(hint);
        }
        return this;
    }

    @Override
    public String toString() {
        return "DefaultFileRegion(" + (file != null ? file : channel) + ", position: " + position + ", count: "
                + count + ", transferred: " + transferred + ')';
    }
}
