package io.weir.grpc;

import io.grpc.Decompressor;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.EventExecutor;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The messages one side of a call received and its listener has not asked for yet, with the listener's demand
 * ({@code request(n)}): the DATA of the stream is cut into messages here ({@link GrpcMessageFraming}) and they wait
 * until asked for. The call reads its stream on only while {@link #isEmpty()}, so what waits here is at most one
 * read's worth of frames. A message travels to the listener's thread as a {@link ByteBuf}, or wrapped when it is
 * compressed; {@link #parse} turns it into the listener's type there.
 *
 * <p>Only used on the call's event loop, except the static methods.
 */
final class ReceivedMessages implements GrpcMessageFraming.Sink {
    /** A compressed message, decompressed by the listener's thread. */
    private record Compressed(ByteBuf message) {
    }

    private final ArrayDeque<Object> queue = new ArrayDeque<>(4);
    private final EventExecutor loop;
    private final Runnable demandAdded;
    private final AtomicInteger requestedElsewhere = new AtomicInteger();
    private final Runnable requestTask = this::requestedFromElsewhere;
    private GrpcMessageFraming framing;
    private int demand;

    /**
     * @param loop the call's event loop
     * @param demandAdded run on the loop after the listener asked for more (the call delivers what it can)
     */
    ReceivedMessages(EventExecutor loop, Runnable demandAdded) {
        this.loop = loop;
        this.demandAdded = demandAdded;
    }

    /** Starts cutting DATA into messages of at most {@code maxBytes}, compressed ones allowed or not. */
    void start(ByteBufAllocator alloc, int maxBytes, boolean compressionAllowed) {
        framing = new GrpcMessageFraming(alloc, maxBytes, compressionAllowed);
    }

    /**
     * Reads {@code data} (released here) into messages.
     *
     * @return null, or the status that ends the call for a message the framing refused (RESOURCE_EXHAUSTED above
     *         the limit, INTERNAL for a bad prefix): nothing more is read then
     */
    Status read(ByteBuf data) {
        try {
            framing.read(data, this);
            return null;
        } catch (GrpcException e) {
            return Status.fromCodeValue(e.status().code()).withDescription(e.description());
        }
    }

    @Override
    public void onMessage(ByteBuf message, boolean compressed) {
        queue.addLast(compressed ? new Compressed(message) : message);
    }

    /** Whether no message is partly read. */
    boolean isIdle() {
        return framing == null || framing.isIdle();
    }

    /** Whether no whole message waits. */
    boolean isEmpty() {
        return queue.isEmpty();
    }

    /**
     * The listener asked for {@code n} more messages ({@code request(n)}, any thread): counted at once on the event
     * loop, else handed to it (one task for any number of requests in between); then {@code demandAdded} runs.
     *
     * @throws IllegalArgumentException if {@code n} is negative
     */
    void request(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("numMessages: " + n + " (expected >= 0)");
        }
        if (loop.inEventLoop()) {
            addDemand(n);
        } else if (requestedElsewhere.getAndAdd(n) == 0) {
            // Refused only by a loop that ended, and the call with it: nothing is left to read.
            LoopTasks.tryExecute(loop, requestTask);
        }
    }

    private void requestedFromElsewhere() {
        addDemand(requestedElsewhere.getAndSet(0));
    }

    private void addDemand(int n) {
        demand = (int) Math.min((long) demand + n, Integer.MAX_VALUE);
        demandAdded.run();
    }

    /** The next message the listener asked for (the listener's thread owns it), or null. */
    Object next() {
        if (demand == 0 || queue.isEmpty()) {
            return null;
        }
        demand--;
        return queue.pollFirst();
    }

    /** Releases what waits and a partly read message; reads nothing more. */
    void release() {
        if (framing != null) {
            framing.release();
        }
        Object m;
        while ((m = queue.pollFirst()) != null) {
            releaseEvent(m);
        }
    }

    /** Whether {@code event} is a message from {@link #next()}. */
    static boolean isMessage(Object event) {
        return event instanceof ByteBuf || event instanceof Compressed;
    }

    /** Releases {@code event} if it is a message; other events hold nothing. */
    static void releaseEvent(Object event) {
        ReferenceCountUtil.release(event instanceof Compressed c ? c.message() : event);
    }

    /**
     * {@code message} (from {@link #next()}, released here) decompressed within {@code maxBytes} and parsed.
     *
     * @throws StatusRuntimeException RESOURCE_EXHAUSTED if it inflates past the limit, INTERNAL if it does not
     *         decompress or parse
     */
    static <T> T parse(Object message, MethodDescriptor.Marshaller<T> marshaller, ByteBufAllocator alloc,
            Decompressor decompressor, int maxBytes) {
        ByteBuf buf = message instanceof Compressed c ? c.message() : (ByteBuf) message;
        ByteBuf plain = null;
        try {
            if (message instanceof Compressed) {
                plain = GrpcMessageCodec.inflate(alloc, buf, decompressor, maxBytes);
                return marshaller.parse(new ByteBufMessageInputStream(plain));
            }
            return marshaller.parse(new ByteBufMessageInputStream(buf));
        } catch (StatusRuntimeException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Status.INTERNAL.withDescription("invalid message: " + e).withCause(e).asRuntimeException();
        } finally {
            buf.release();
            if (plain != null) {
                plain.release();
            }
        }
    }
}
