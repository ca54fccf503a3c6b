package io.weir.handler.codec.haproxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link HAProxyMessageDecoder} on an {@link EmbeddedChannel}, fed reads and drained: what it passed on (the
 * messages and the payload bytes, in order), and the exception it raised. {@link #finish()} closes the channel and
 * checks that every buffer fed in was released.
 */
final class DecoderFeed {
    final HAProxyMessageDecoder decoder;
    final EmbeddedChannel ch;
    private final List<ByteBuf> inputs = new ArrayList<>();
    private final List<HAProxyMessage> messages = new ArrayList<>();
    private final ByteArrayOutputStream payload = new ByteArrayOutputStream();
    /** The order things came out: 'M' for a message, 'B' for a buffer. */
    private final StringBuilder order = new StringBuilder();
    private Throwable failure;

    DecoderFeed() {
        this(new HAProxyDecoderConfig());
    }

    DecoderFeed(HAProxyDecoderConfig config) {
        decoder = new HAProxyMessageDecoder(config);
        ch = new EmbeddedChannel(decoder);
    }

    /** Writes each array as one read, stopping at the first exception, then drains what came out. */
    DecoderFeed write(byte[]... reads) {
        for (byte[] read : reads) {
            if (failure != null || !ch.isOpen()) {
                break;
            }
            ByteBuf in = Unpooled.copiedBuffer(read);
            inputs.add(in);
            try {
                ch.writeInbound(in);
            } catch (Throwable t) {
                failure = t;
            }
        }
        drain();
        return this;
    }

    /** Writes {@code data} one byte per read. */
    DecoderFeed writeByteByByte(byte[] data) {
        for (int i = 0; i < data.length; i++) {
            write(new byte[] {data[i]});
        }
        return this;
    }

    /** Moves the channel's clock and runs what became due, keeping an exception it raises. */
    DecoderFeed advanceMillis(long millis) {
        ch.advanceTimeBy(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
        try {
            ch.checkException();
        } catch (Throwable t) {
            if (failure == null) {
                failure = t;
            }
        }
        drain();
        return this;
    }

    private void drain() {
        for (Object o; (o = ch.readInbound()) != null; ) {
            if (o instanceof HAProxyMessage m) {
                messages.add(m);
                order.append('M');
            } else {
                ByteBuf b = (ByteBuf) o;
                try {
                    payload.writeBytes(ByteBufUtil.getBytes(b));
                } finally {
                    b.release();
                }
                order.append('B');
            }
        }
    }

    /** The only message passed on; fails if there is not exactly one. */
    HAProxyMessage message() {
        assertThat(messages).as("messages passed on").hasSize(1);
        return messages.get(0);
    }

    List<HAProxyMessage> messages() {
        return messages;
    }

    byte[] payload() {
        return payload.toByteArray();
    }

    String payloadText() {
        return payload.toString(StandardCharsets.ISO_8859_1);
    }

    String order() {
        return order.toString();
    }

    Throwable failure() {
        return failure;
    }

    /** The exception raised, which must be an {@link HAProxyProtocolException}. */
    HAProxyProtocolException refusal() {
        assertThat(failure).as("the decoder's refusal").isInstanceOf(HAProxyProtocolException.class);
        return (HAProxyProtocolException) failure;
    }

    /**
     * Checks that the decoder refused the input for {@code reason} the way every refusal goes (stackless, the
     * connection closed, nothing passed on, no address set), finishes, and returns the refusal.
     */
    HAProxyProtocolException refusedFor(HAProxyProtocolException.Reason reason) {
        HAProxyProtocolException e = refusal();
        assertThat(e.reason()).as(e.getMessage()).isEqualTo(reason);
        assertThat(e.getStackTrace()).as("stackless: a peer provokes it at will").isEmpty();
        assertThat(ch.isOpen()).as("closed").isFalse();
        assertThat(messages).isEmpty();
        assertThat(payload.size()).as("bytes passed on").isZero();
        assertThat(ch.hasAttr(HAProxyMessageDecoder.SOURCE_ADDRESS)).isFalse();
        finish();
        return e;
    }

    boolean decoderInPipeline() {
        return ch.pipeline().context(decoder) != null;
    }

    /** Closes the channel and checks that every buffer fed in was released. */
    void finish() {
        ch.finishAndReleaseAll();
        for (ByteBuf in : inputs) {
            assertThat(in.refCnt()).as("an input buffer's reference count after close").isZero();
        }
    }
}
