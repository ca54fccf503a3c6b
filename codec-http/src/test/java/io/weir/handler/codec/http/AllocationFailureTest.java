package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.AbstractByteBufAllocator;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.weir.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.weir.handler.codec.http.websocketx.WebSocketConfig;
import io.weir.handler.codec.http.websocketx.WebSocketFrameDecoder;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Running out of memory is one connection's problem: a buffer that cannot be allocated while a request or a frame
 * is being decoded ends that connection with the protocol's answer (503 on HTTP/1.1, close code 1011 on a
 * WebSocket), never passes the error on as unhandled, and loses no byte silently.
 */
class AllocationFailureTest {

    @Test
    void anHttpConnectionThatCannotGetMemoryIsAnswered503AndClosed() {
        AtomicInteger failures = new AtomicInteger();
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec());
        ch.config().setAllocator(new FailingAllocator(failures));
        ch.writeInbound(ascii("GET /a HTTP/1.1\r\nHost: x\r\nX-Long: "));
        // The rest of the head needs the kept bytes and the new ones in one buffer, which cannot be had.
        failures.set(1);
        ch.writeInbound(ascii("yyyyyyyy\r\n\r\n"));
        ch.runPendingTasks();
        assertThat((Object) ch.readInbound()).as("no request decoded from a broken head").isNull();
        ByteBuf response = ch.readOutbound();
        assertThat(response).as("the answer").isNotNull();
        String text = response.toString(StandardCharsets.US_ASCII);
        response.release();
        assertThat(text).startsWith("HTTP/1.1 503 ").contains("connection: close");
        assertThat(ch.isOpen()).isFalse();
        ch.checkException();
        ch.finishAndReleaseAll();
    }

    @Test
    void aWebSocketThatCannotGetMemoryIsClosedWith1011() {
        AtomicInteger failures = new AtomicInteger();
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameDecoder(true, new WebSocketConfig()));
        ch.config().setAllocator(new FailingAllocator(failures));
        byte[] frame = new byte[6 + 100];
        frame[0] = (byte) 0x82;
        frame[1] = (byte) (0x80 | 100);
        ch.writeInbound(Unpooled.wrappedBuffer(frame, 0, 50));
        failures.set(1);
        ch.writeInbound(Unpooled.wrappedBuffer(frame, 50, frame.length - 50));
        ch.runPendingTasks();
        assertThat((Object) ch.readInbound()).as("no frame from a broken payload").isNull();
        Object close = ch.readOutbound();
        assertThat(close).isInstanceOf(CloseWebSocketFrame.class);
        assertThat(((CloseWebSocketFrame) close).statusCode()).isEqualTo(WebSocketCloseStatus.INTERNAL_SERVER_ERROR);
        ReferenceCountUtil.release(close);
        assertThat(ch.isOpen()).isFalse();
        ch.checkException();
        ch.finishAndReleaseAll();
    }

    private static ByteBuf ascii(String s) {
        // Read-only and exactly full: keeping it means copying it into a new buffer.
        return Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.US_ASCII)).asReadOnly();
    }

    /** Heap buffers, except that the next {@code failures} allocations throw as exhausted direct memory does. */
    private static final class FailingAllocator extends AbstractByteBufAllocator {
        private final AtomicInteger failures;

        FailingAllocator(AtomicInteger failures) {
            super(false);
            this.failures = failures;
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new OutOfMemoryError("Cannot reserve " + initialCapacity + " bytes of direct buffer memory");
            }
            return Unpooled.buffer(initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return newHeapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }
}
