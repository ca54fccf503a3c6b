package io.weir.handler.codec.socksx;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * SOCKS handlers on an {@link EmbeddedChannel}, fed reads and drained: the messages and payload bytes they passed
 * on (in order), the bytes they wrote, and the exception they raised. {@link #finish()} closes the channel and
 * checks that every buffer fed in was released.
 */
public final class SocksFeed {
    public final EmbeddedChannel ch;
    private final List<ByteBuf> inputs = new ArrayList<>();
    private final List<Object> messages = new ArrayList<>();
    private final ByteArrayOutputStream payload = new ByteArrayOutputStream();
    /** 'M' for a message, 'B' for bytes, in the order they came out. */
    private final StringBuilder order = new StringBuilder();
    private Throwable failure;

    public SocksFeed(ChannelHandler... handlers) {
        ch = new EmbeddedChannel(handlers);
    }

    public static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** Writes each array as one read, stopping at the first exception, then drains what came out. */
    public SocksFeed write(byte[]... reads) {
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
    public SocksFeed writeByteByByte(byte[] data) {
        for (byte b : data) {
            write(new byte[] {b});
        }
        return this;
    }

    /** Writes {@code data} in reads of {@code step} bytes. */
    public SocksFeed writeInSteps(byte[] data, int step) {
        for (int i = 0; i < data.length; i += step) {
            write(java.util.Arrays.copyOfRange(data, i, Math.min(data.length, i + step)));
        }
        return this;
    }

    /** Writes {@code msg} from the tail of the pipeline, flushes, and returns every byte that reached the head. */
    public byte[] writeOutbound(Object msg) {
        ch.writeOutbound(msg);
        return outbound();
    }

    /** The bytes written out so far, taken. */
    public byte[] outbound() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            try {
                out.writeBytes(ByteBufUtil.getBytes(b));
            } finally {
                b.release();
            }
        }
        return out.toByteArray();
    }

    private void drain() {
        for (Object o; (o = ch.readInbound()) != null; ) {
            if (o instanceof ByteBuf b) {
                try {
                    payload.writeBytes(ByteBufUtil.getBytes(b));
                } finally {
                    b.release();
                }
                order.append('B');
            } else {
                messages.add(o);
                order.append('M');
            }
        }
    }

    public List<Object> messages() {
        return messages;
    }

    /** The only message passed on, which must be a {@code type}. */
    public <T> T message(Class<T> type) {
        assertThat(failure).as("exception").isNull();
        assertThat(messages).as("messages passed on").hasSize(1);
        assertThat(messages.get(0)).isInstanceOf(type);
        return type.cast(messages.get(0));
    }

    public byte[] payload() {
        return payload.toByteArray();
    }

    public String order() {
        return order.toString();
    }

    public Throwable failure() {
        return failure;
    }

    public boolean inPipeline(ChannelHandler handler) {
        return ch.pipeline().context(handler) != null;
    }

    /**
     * Checks that the input was refused for {@code reason} the way every refusal goes (stackless, nothing after it
     * passed on, later bytes discarded), finishes, and returns the refusal.
     */
    public SocksProtocolException refusedFor(SocksProtocolException.Reason reason) {
        assertThat(failure).as("the decoder's refusal").isInstanceOf(SocksProtocolException.class);
        SocksProtocolException e = (SocksProtocolException) failure;
        assertThat(e.reason()).as(e.getMessage()).isEqualTo(reason);
        assertThat(e.getStackTrace()).as("stackless: a peer provokes it at will").isEmpty();
        assertThat(payload.size()).as("bytes passed on").isZero();
        int before = messages.size();
        // Whatever comes after a refusal is discarded, not decoded.
        failure = null;
        write(hex("05 01 00 01 7f 00 00 01 00 50"));
        assertThat(failure).isNull();
        assertThat(messages).hasSize(before);
        assertThat(payload.size()).isZero();
        finish();
        return e;
    }

    /** Closes the channel and checks that every buffer fed in was released. */
    public void finish() {
        ch.finishAndReleaseAll();
        for (ByteBuf in : inputs) {
            assertThat(in.refCnt()).as("an input buffer's reference count after close").isZero();
        }
    }
}
