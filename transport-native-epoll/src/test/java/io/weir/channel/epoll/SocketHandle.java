package io.weir.channel.epoll;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.IoEvent;
import io.weir.channel.IoRegistration;
import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.IovArray;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A socket as an {@link EpollIoHandle} that queues every event it hears and counts its closing. */
final class SocketHandle implements EpollIoHandle {
    final Socket socket;
    final BlockingQueue<EpollIoEvent> events = new LinkedBlockingQueue<>();
    final CountDownLatch closed = new CountDownLatch(1);

    SocketHandle(Socket socket) {
        this.socket = socket;
    }

    @Override
    public FileDescriptor fd() {
        return socket;
    }

    @Override
    public void handle(IoRegistration registration, IoEvent event) {
        events.add((EpollIoEvent) event);
    }

    @Override
    public void close() throws IOException {
        socket.close();
        closed.countDown();
    }

    /** The next event, failing the test if none comes within the readiness timeout. */
    EpollIoEvent nextEvent() throws InterruptedException {
        EpollIoEvent event = events.poll(Readiness.TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        if (event == null) {
            throw new AssertionError("no event for " + socket + " within " + Readiness.TIMEOUT_MILLIS + " ms");
        }
        return event;
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
