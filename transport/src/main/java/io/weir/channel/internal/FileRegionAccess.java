package io.weir.channel.internal;

import io.weir.channel.DefaultFileRegion;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * What a native transport needs of a {@link DefaultFileRegion} to send it with {@code sendfile(2)} itself: the
 * region's open file and a way to count what was sent. {@link DefaultFileRegion} keeps both private; it installs
 * its accessor here when its class initializes, so neither JNI nor reflection reads its fields by name. Event
 * loop only, like every {@link io.weir.channel.FileRegion}.
 */
public final class FileRegionAccess {
    /** The region side, installed by {@link DefaultFileRegion}'s static initializer. */
    public interface Accessor {
        /** The region's file, opened now if the region was made from a {@link java.io.File}. */
        FileChannel openChannel(DefaultFileRegion region) throws IOException;

        /** Adds {@code amount} bytes sent by the transport to the region's transferred count. */
        void addTransferred(DefaultFileRegion region, long amount);
    }

    // Written once, by DefaultFileRegion's class initializer; a caller holding a region has seen that run.
    private static volatile Accessor accessor;

    private FileRegionAccess() {
    }

    /**
     * Installs the region side; only {@link DefaultFileRegion} calls it, once.
     *
     * @throws IllegalStateException if an accessor is installed already
     */
    public static void install(Accessor regionSide) {
        Objects.requireNonNull(regionSide, "regionSide");
        if (accessor != null) {
            throw new IllegalStateException("file region accessor installed already");
        }
        accessor = regionSide;
    }

    /**
     * The open file of {@code region} (opening it if it was made from a file).
     *
     * @throws IOException if the file cannot be opened
     * @throws io.weir.util.IllegalReferenceCountException if the region was released
     */
    public static FileChannel openChannel(DefaultFileRegion region) throws IOException {
        return accessor(region).openChannel(region);
    }

    /** Counts {@code amount} bytes the transport sent from {@code region}, as its own transfer would. */
    public static void addTransferred(DefaultFileRegion region, long amount) {
        accessor(region).addTransferred(region, amount);
    }

    private static Accessor accessor(DefaultFileRegion region) {
        Objects.requireNonNull(region, "region");
        // Holding an instance means the class was initialized, and with it the accessor installed.
        return accessor;
    }
}
