package io.weir.channel.nio;

import io.weir.channel.IoEvent;
import io.weir.channel.IoRegistration;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectableChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** A test handle on the source end of a {@link Pipe}: records what the I/O handler tells it. */
public final class PipeHandle implements NioIoHandle {
    private final Pipe pipe;
    private final boolean drain;
    /** Every event, in order. */
    public final BlockingQueue<NioIoEvent> events = new LinkedBlockingQueue<>();
    /** Text read by the handle, one entry per read that found bytes (only when draining). */
    public final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    /** How often {@link #close()} was called. */
    public final AtomicInteger closes = new AtomicInteger();
    /** Runs on the loop after each event is recorded; may be null. */
    public volatile Consumer<IoRegistration> onEvent;

    /**
     * @param drain whether each readable event reads everything available (otherwise the pipe stays readable
     *        and, NIO being level-triggered, keeps reporting so while interest in reading lasts)
     */
    public PipeHandle(boolean drain) throws IOException {
        this.pipe = Pipe.open();
        this.drain = drain;
        pipe.source().configureBlocking(false);
    }

    @Override
    public SelectableChannel selectableChannel() {
        return pipe.source();
    }

    @Override
    public void handle(IoRegistration registration, IoEvent event) {
        NioIoEvent nioEvent = (NioIoEvent) event;
        if (drain && nioEvent.isReadable()) {
            ByteBuffer buf = ByteBuffer.allocate(256);
            StringBuilder sb = new StringBuilder();
            try {
                int n;
                while ((n = pipe.source().read(buf)) > 0) {
                    sb.append(new String(buf.array(), 0, n, StandardCharsets.US_ASCII));
                    buf.clear();
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            if (sb.length() > 0) {
                received.add(sb.toString());
            }
        }
        events.add(nioEvent);
        Consumer<IoRegistration> hook = onEvent;
        if (hook != null) {
            hook.accept(registration);
        }
    }

    /** Writes {@code text} into the sink end, making the source readable. */
    public void write(String text) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
        while (buf.hasRemaining()) {
            pipe.sink().write(buf);
        }
    }

    /** Whether the source end (the registered channel) is open. */
    public boolean isOpen() {
        return pipe.source().isOpen();
    }

    /** Closes the source channel directly, behind the I/O handler's back. */
    public void closeChannel() throws IOException {
        pipe.source().close();
    }

    @Override
    public void close() throws IOException {
        closes.incrementAndGet();
        pipe.source().close();
    }

    /** Closes both ends; for test cleanup. */
    public void closePipe() throws IOException {
        pipe.sink().close();
        pipe.source().close();
    }
}
