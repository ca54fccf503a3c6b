package io.weir.channel.unix.internal;

import io.weir.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The socket file a Unix domain server's bind created, which the server deletes when it closes, so a restarted
 * server can bind the same path. Nothing for an address without a path (an IP address). One per server channel;
 * event loop only. Transport internals; not for applications.
 */
public final class BoundSocketFile {
    private Path path;

    /** Remembers the file the bind to {@code address} created, if it is a {@link DomainSocketAddress}. */
    public void bound(SocketAddress address) {
        if (address instanceof DomainSocketAddress domain) {
            path = Path.of(domain.path());
        }
    }

    /**
     * Deletes the file, once.
     *
     * @return why it could not be deleted (a leftover file only: the socket itself is closed), or {@code null}
     */
    public IOException delete() {
        Path p = path;
        if (p == null) {
            return null;
        }
        path = null;
        try {
            Files.deleteIfExists(p);
            return null;
        } catch (IOException e) {
            return new IOException("failed to delete the socket file " + p, e);
        }
    }
}
