package io.weir.channel.kqueue;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.IovArray;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.NativeBuffers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Test helper: loopback socket pairs, whose non-blocking connect and accept wait on a private kqueue (a one-shot
 * filter and a {@code kevent} timeout; no sleeping), and small writes.
 */
final class KQueueSockets {
    /** How long any test waits for readiness before failing. */
    static final long TIMEOUT_NANOS = 10_000_000_000L;

    private KQueueSockets() {
    }

    /** A listening socket on an ephemeral loopback port. */
    static Socket listener() throws IOException {
        Socket server = Socket.newSocketStream();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        server.listen(128);
        return server;
    }

    /** {@code {client, accepted}}: a connected pair over loopback; the caller closes both. */
    static Socket[] connectedPair(Socket listener) throws IOException {
        return connectedPair(listener, Socket.newSocketStream());
    }

    /** {@code {client, accepted}}: {@code client} connected to {@code listener}; the caller closes both. */
    static Socket[] connectedPair(Socket listener, Socket client) throws IOException {
        try {
            if (!client.connect(listener.localAddress())) {
                await(client, Native.EVFILT_WRITE);
                if (!client.finishConnect()) {
                    throw new AssertionError("connect did not finish after writability");
                }
            }
            await(listener, Native.EVFILT_READ);
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

    /** Blocks until {@code filter} fires for {@code fd}, through a kqueue of its own. */
    static void await(FileDescriptor fd, short filter) throws IOException {
        int kq = Native.kqueueCreate();
        if (kq < 0) {
            throw new AssertionError("kqueue: " + kq);
        }
        FileDescriptor kqueue = new FileDescriptor(kq);
        try {
            // Deleted again before the kqueue closes: libkqueue would keep it otherwise.
            int res = Native.keventChange(kq, fd.intValue(), filter, Native.EV_ADD, 0);
            if (res < 0) {
                throw new AssertionError("kevent(EV_ADD): " + res);
            }
            ByteBuffer event = ByteBuffer.allocateDirect(Native.sizeofKEvent());
            int ready = Native.keventWait(kq, NativeBuffers.address(event), 1, TIMEOUT_NANOS);
            Native.keventChange(kq, fd.intValue(), filter, Native.EV_DELETE, 0);
            if (ready <= 0) {
                throw new AssertionError("filter " + filter + " of " + fd + " did not fire: " + ready);
            }
        } finally {
            kqueue.close();
        }
    }

    /** Writes {@code text} (ASCII) to {@code to} with one writev from direct memory. */
    static void write(Socket to, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        ByteBuf buf = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
        try (IovArray iov = new IovArray()) {
            iov.add(buf);
            if (to.writev(iov) != bytes.length) {
                throw new AssertionError("short write to " + to);
            }
        } finally {
            buf.release();
        }
    }
}
