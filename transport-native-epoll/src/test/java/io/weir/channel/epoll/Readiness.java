package io.weir.channel.epoll;

import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.NativeBuffers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Test helper: blocks on readiness of one descriptor through a private epoll set (no sleeping), and builds
 * connected loopback socket pairs.
 */
public final class Readiness {
    /** How long any test waits for readiness before failing. */
    public static final int TIMEOUT_MILLIS = 10_000;

    private Readiness() {
    }

    /** Blocks until {@code fd} is readable (or has an error or hang-up pending). */
    public static void awaitReadable(FileDescriptor fd) {
        await(fd, EpollIoOps.IN_BIT);
    }

    /** Blocks until {@code fd} is writable (or has an error or hang-up pending). */
    public static void awaitWritable(FileDescriptor fd) {
        await(fd, EpollIoOps.OUT_BIT);
    }

    private static void await(FileDescriptor fd, int events) {
        Epoll.ensureAvailability();
        int epfd = Native.epollCreate();
        if (epfd < 0) {
            throw new AssertionError("epoll_create1: " + epfd);
        }
        try {
            int res = Native.epollCtl(epfd, Native.EPOLL_CTL_ADD, fd.intValue(), events);
            if (res < 0) {
                throw new AssertionError("epoll_ctl: " + res);
            }
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocateDirect(Native.sizeofEpollEvent());
            int ready = Native.epollWait(epfd, NativeBuffers.address(buffer), 1, TIMEOUT_MILLIS);
            if (ready <= 0) {
                throw new AssertionError("no readiness of " + fd + " within " + TIMEOUT_MILLIS + " ms: " + ready);
            }
        } finally {
            try {
                new FileDescriptor(epfd).close();
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }
    }

    /** A listening socket on an ephemeral loopback port. */
    public static Socket listener() throws IOException {
        Socket server = Socket.newSocketStream();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        server.listen(128);
        return server;
    }

    /** {@code {client, accepted}}: a connected pair over loopback; the caller closes both. */
    public static Socket[] connectedPair(Socket listener) throws IOException {
        Socket client = Socket.newSocketStream();
        try {
            if (!client.connect(listener.localAddress())) {
                awaitWritable(client);
                if (!client.finishConnect()) {
                    throw new AssertionError("connect did not finish after writability");
                }
            }
            awaitReadable(listener);
            Socket accepted = listener.accept();
            if (accepted == null) {
                throw new AssertionError("no connection to accept");
            }
            return new Socket[] {client, accepted};
        } catch (IOException | RuntimeException | Error e) {
            client.close();
            throw e;
        }
    }
}
