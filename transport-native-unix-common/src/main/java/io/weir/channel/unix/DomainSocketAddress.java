package io.weir.channel.unix;

import java.io.File;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The address of a Unix domain socket: a file-system path (UTF-8 encoded, at most
 * {@value #MAX_PATH_BYTES} bytes). Immutable.
 */
public final class DomainSocketAddress extends SocketAddress {
    private static final long serialVersionUID = 1L;

    /** Longest path, in UTF-8 bytes: {@code sizeof(sockaddr_un.sun_path)} on Linux minus the terminating NUL. */
    public static final int MAX_PATH_BYTES = UnixNative.DOMAIN_PATH_MAX_BYTES - 1;

    private final String path;

    /**
     * @throws NullPointerException if {@code path} is null
     * @throws IllegalArgumentException if {@code path} is empty, longer than {@value #MAX_PATH_BYTES} UTF-8 bytes,
     *         or contains a NUL character
     */
    public DomainSocketAddress(String path) {
        Objects.requireNonNull(path, "path");
        int bytes = path.getBytes(StandardCharsets.UTF_8).length;
        if (bytes == 0 || bytes > MAX_PATH_BYTES || path.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("path: " + path + " (expected: 1-" + MAX_PATH_BYTES
                    + " UTF-8 bytes, no NUL; got " + bytes + ')');
        }
        this.path = path;
    }

    /** {@code new DomainSocketAddress(file.getPath())}. */
    public DomainSocketAddress(File file) {
        this(file.getPath());
    }

    /** The path. */
    public String path() {
        return path;
    }

    byte[] pathBytes() {
        return path.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DomainSocketAddress && ((DomainSocketAddress) o).path.equals(path);
    }

    @Override
    public int hashCode() {
        return path.hashCode();
    }

    @Override
    public String toString() {
        return path;
    }
}
