package io.weir.channel.uring;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.IoEvent;
import io.weir.channel.IoRegistration;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A test handle over a blocking eventfd, owning 8 bytes of direct memory it lends to the reads it submits. It logs
 * what it hears in order ({@code "complete op=22 res=8 data=7"}, {@code "unregistered"}, {@code "close"}) and
 * notes any completion that arrives after {@link #unregistered()}, when a real handle would have freed the memory.
 */
final class EventFdHandle implements IoUringIoHandle {
    static final long SENTINEL = 0x5eed_5eed_5eed_5eedL;
    private static final long TIMEOUT_SECONDS = 10;

    final FileDescriptor fd;
    final ByteBuffer buffer = ByteBuffer.allocateDirect(Long.BYTES).order(ByteOrder.nativeOrder());
    final long bufferAddress = Native.bufferAddress(buffer);
    final List<String> log = new CopyOnWriteArrayList<>();
    final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    private volatile boolean freed;
    private volatile boolean touchedAfterFree;

    EventFdHandle() throws IOException {
        int res = Native.blockingEventFd();
        if (res < 0) {
            throw Errors.newIoException("eventfd", res);
        }
        fd = new FileDescriptor(res);
        buffer.putLong(0, SENTINEL);
    }

    /** A read of the eventfd's counter into this handle's memory. */
    IoUringIoOps read(short data) {
        return IoUringIoOps.newRead(fd.intValue(), bufferAddress, Long.BYTES, -1, data);
    }

    void write(long value) throws IOException {
        int res = Native.eventFdWrite(fd.intValue(), value);
        if (res < 0) {
            throw Errors.newIoException("write(eventfd)", res);
        }
    }

    @Override
    public void handle(IoRegistration registration, IoEvent event) {
        IoUringIoEvent e = (IoUringIoEvent) event;
        if (freed) {
            touchedAfterFree = true;
        }
        record("complete op=" + e.opcode() + " res=" + e.res() + " data=" + e.data());
    }

    @Override
    public void unregistered() {
        freed = true;
        record("unregistered");
    }

    @Override
    public void close() throws IOException {
        record("close");
        fd.close();
    }

    private void record(String entry) {
        log.add(entry);
        events.add(entry);
    }

    String next() throws InterruptedException {
        String event = events.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(event).as("an event within " + TIMEOUT_SECONDS + " s; so far " + log).isNotNull();
        return event;
    }

    boolean touchedAfterFree() {
        return touchedAfterFree;
    }
}
