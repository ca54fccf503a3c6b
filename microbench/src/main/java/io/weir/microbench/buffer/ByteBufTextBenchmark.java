package io.weir.microbench.buffer;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Text in and out of a heap buffer: {@code ByteBufUtil.writeUtf8} and {@code writeAscii} of a 64-char string,
 * once pure ASCII and once mixed (2- and 3-byte UTF-8 chars and a surrogate pair), into a reused buffer cleared
 * every op; and {@code getCharSequence} of 64 ASCII bytes. Weir against Netty; the JDK case encodes with
 * {@code String.getBytes} and puts the array into a reused {@link ByteBuffer}, and decodes with
 * {@code new String(bytes, US_ASCII)} straight from a heap ByteBuffer's array.
 *
 * <p>Cases are separate methods rather than a {@code @Param} for the text, so that the decoding case, which has
 * no text parameter, runs once.
 */
public class ByteBufTextBenchmark extends AbstractMicrobenchmark {
    /** Room for the mixed string's worst case (3 bytes per char) without the buffers growing. */
    private static final int CAPACITY_BYTES = 256;
    private static final String ASCII = "GET /index.html HTTP/1.1 Host: example.com Accept: text/plain ok";
    /** 64 chars, 79 UTF-8 bytes: ü ß ö ï é (2 bytes), – 价 格 € (3 bytes), U+1F600 (a surrogate pair, 4 bytes). */
    private static final String MIXED = "Gr\u00fc\u00dfe aus K\u00f6ln \u2013 na\u00efve caf\u00e9, \u4ef7\u683c"
            + " \u20ac12, emoji \uD83D\uDE00 ok; all done now!!";
    private static final int DECODE_BYTES = 64;

    private io.weir.buffer.ByteBuf weir;
    private io.netty.buffer.ByteBuf netty;
    private ByteBuffer jdk;
    private io.weir.buffer.ByteBuf weirText;
    private io.netty.buffer.ByteBuf nettyText;
    private ByteBuffer jdkText;

    @Setup
    public void setup() {
        if (ASCII.length() != 64 || MIXED.length() != 64) {
            throw new IllegalStateException("texts must be 64 chars: " + ASCII.length() + ", " + MIXED.length());
        }
        weir = io.weir.buffer.Unpooled.buffer(CAPACITY_BYTES, CAPACITY_BYTES);
        netty = io.netty.buffer.Unpooled.buffer(CAPACITY_BYTES, CAPACITY_BYTES);
        jdk = ByteBuffer.allocate(CAPACITY_BYTES);
        byte[] ascii = ASCII.getBytes(StandardCharsets.US_ASCII);
        weirText = io.weir.buffer.Unpooled.buffer(DECODE_BYTES, DECODE_BYTES).writeBytes(ascii);
        nettyText = io.netty.buffer.Unpooled.buffer(DECODE_BYTES, DECODE_BYTES).writeBytes(ascii);
        jdkText = ByteBuffer.wrap(ascii.clone());
    }

    @TearDown
    public void tearDown() {
        weir.release();
        netty.release();
        weirText.release();
        nettyText.release();
    }

    // ---- UTF-8, ASCII text ----

    @Benchmark
    public int weirWriteUtf8Ascii() {
        return io.weir.buffer.ByteBufUtil.writeUtf8(weir.clear(), ASCII);
    }

    @Benchmark
    public int nettyWriteUtf8Ascii() {
        return io.netty.buffer.ByteBufUtil.writeUtf8(netty.clear(), ASCII);
    }

    @Benchmark
    public int jdkWriteUtf8Ascii() {
        return jdk.clear().put(ASCII.getBytes(StandardCharsets.UTF_8)).position();
    }

    // ---- UTF-8, mixed text ----

    @Benchmark
    public int weirWriteUtf8Mixed() {
        return io.weir.buffer.ByteBufUtil.writeUtf8(weir.clear(), MIXED);
    }

    @Benchmark
    public int nettyWriteUtf8Mixed() {
        return io.netty.buffer.ByteBufUtil.writeUtf8(netty.clear(), MIXED);
    }

    @Benchmark
    public int jdkWriteUtf8Mixed() {
        return jdk.clear().put(MIXED.getBytes(StandardCharsets.UTF_8)).position();
    }

    // ---- one byte per char ----
    // Both frameworks write chars above 0xFF as '?' and the rest as their low byte, which is ISO-8859-1, so the
    // JDK case encodes with ISO_8859_1 (US_ASCII would also replace 0x80-0xFF).

    @Benchmark
    public int weirWriteAsciiAscii() {
        return io.weir.buffer.ByteBufUtil.writeAscii(weir.clear(), ASCII);
    }

    @Benchmark
    public int nettyWriteAsciiAscii() {
        return io.netty.buffer.ByteBufUtil.writeAscii(netty.clear(), ASCII);
    }

    @Benchmark
    public int jdkWriteAsciiAscii() {
        return jdk.clear().put(ASCII.getBytes(StandardCharsets.ISO_8859_1)).position();
    }

    @Benchmark
    public int weirWriteAsciiMixed() {
        return io.weir.buffer.ByteBufUtil.writeAscii(weir.clear(), MIXED);
    }

    @Benchmark
    public int nettyWriteAsciiMixed() {
        return io.netty.buffer.ByteBufUtil.writeAscii(netty.clear(), MIXED);
    }

    @Benchmark
    public int jdkWriteAsciiMixed() {
        return jdk.clear().put(MIXED.getBytes(StandardCharsets.ISO_8859_1)).position();
    }

    // ---- decoding 64 ASCII bytes ----
    // Weir and Netty both return an AsciiString over a fresh copy of the bytes; the JDK builds a String, which
    // also copies (and checks the bytes are ASCII to pick the compact Latin-1 form).

    @Benchmark
    public CharSequence weirGetCharSequence() {
        return weirText.getCharSequence(0, DECODE_BYTES, StandardCharsets.US_ASCII);
    }

    @Benchmark
    public CharSequence nettyGetCharSequence() {
        return nettyText.getCharSequence(0, DECODE_BYTES, StandardCharsets.US_ASCII);
    }

    @Benchmark
    public CharSequence jdkGetCharSequence() {
        ByteBuffer b = jdkText;
        return new String(b.array(), b.arrayOffset(), DECODE_BYTES, StandardCharsets.US_ASCII);
    }
}
