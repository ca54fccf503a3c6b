package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.internal.Http2TestFrames.EMPTY_SETTINGS;
import static io.weir.handler.codec.http2.internal.Http2TestFrames.bytes;
import static io.weir.handler.codec.http2.internal.Http2TestFrames.feed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Settings;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Golden bytes per frame type (typed from RFC 9113 §6), read back by the reader, and the writer's argument checks. */
class Http2FrameWriterTest {

    private final ContextCapture capture = new ContextCapture();
    private final EmbeddedChannel channel = new EmbeddedChannel(capture);
    private final Http2FrameWriter writer = new Http2FrameWriter();

    @AfterEach
    void tearDown() {
        channel.finishAndReleaseAll();
    }

    private ChannelHandlerContext ctx() {
        return capture.ctx;
    }

    /** Flushes and drains the written buffers, releasing them. */
    private List<ByteBuf> drainRetained() {
        return capture.flushAndTake(channel);
    }

    private String written() {
        StringBuilder hex = new StringBuilder();
        for (ByteBuf b : drainRetained()) {
            hex.append(ByteBufUtil.hexDump(b));
            b.release();
        }
        return hex.toString();
    }

    private static ByteBuf buf(String hex) {
        return Unpooled.wrappedBuffer(bytes(hex));
    }

    static Stream<Arguments> goldens() {
        return Stream.of(
            golden("DATA", (w, c) -> w.writeData(c, 1, buf("68656c6c6f"), 0, true, c.newPromise()),
                    "000005 00 01 00000001 68656c6c6f", "DATA s=1 pad=0 end=true data=68656c6c6f"),
            golden("DATA, padded", (w, c) -> w.writeData(c, 3, buf("686921"), 4, false, c.newPromise()),
                    "000007 00 08 00000003 03 686921 000000", "DATA s=3 pad=4 end=false data=686921"),
            golden("DATA, Pad Length only", (w, c) -> w.writeData(c, 3, buf(""), 1, true, c.newPromise()),
                    "000001 00 09 00000003 00", "DATA s=3 pad=1 end=true data="),
            golden("HEADERS", (w, c) -> w.writeHeaders(c, 1, buf("828684"), 0, true, c.newPromise()),
                    "000003 01 05 00000001 828684",
                    "HEADERS s=1 pad=0 end=true prio=false dep=0 w=16 ex=false block=828684"),
            golden("HEADERS, priority, padded",
                    (w, c) -> w.writeHeaders(c, 3, buf("8286"), 3, false, true, 1, 256, true, c.newPromise()),
                    "00000a 01 2c 00000003 02 80000001 ff 8286 0000",
                    "HEADERS s=3 pad=3 end=false prio=true dep=1 w=256 ex=true block=8286"),
            golden("PRIORITY", (w, c) -> w.writePriority(c, 3, 1, 16, false, c.newPromise()),
                    "000005 02 00 00000003 00000001 0f", "PRIORITY s=3 dep=1 w=16 ex=false"),
            golden("RST_STREAM", (w, c) -> w.writeRstStream(c, 1, Http2Error.CANCEL.code(), c.newPromise()),
                    "000004 03 00 00000001 00000008", "RST_STREAM s=1 code=8"),
            golden("SETTINGS", (w, c) -> w.writeSettings(c,
                    new Http2Settings().initialWindowSize(65535).maxConcurrentStreams(100), c.newPromise()),
                    "00000c 04 00 00000000 0003 00000064 0004 0000ffff",
                    "SETTINGS Http2Settings{MAX_CONCURRENT_STREAMS=100, INITIAL_WINDOW_SIZE=65535}"),
            golden("SETTINGS, 32-bit value", (w, c) -> w.writeSettings(c,
                    new Http2Settings().maxHeaderListSize(0xffff_ffffL), c.newPromise()),
                    "000006 04 00 00000000 0006 ffffffff",
                    "SETTINGS Http2Settings{MAX_HEADER_LIST_SIZE=4294967295}"),
            golden("SETTINGS ACK", (w, c) -> w.writeSettingsAck(c, c.newPromise()),
                    "000000 04 01 00000000", "SETTINGS_ACK"),
            golden("PING", (w, c) -> w.writePing(c, false, 0x0102030405060708L, c.newPromise()),
                    "000008 06 00 00000000 0102030405060708", "PING 102030405060708"),
            golden("PING ACK", (w, c) -> w.writePing(c, true, -1L, c.newPromise()),
                    "000008 06 01 00000000 ffffffffffffffff", "PING_ACK ffffffffffffffff"),
            golden("PUSH_PROMISE", (w, c) -> w.writePushPromise(c, 1, 2, buf("8287"), 0, c.newPromise()),
                    "000006 05 04 00000001 00000002 8287", "PUSH_PROMISE s=1 promised=2 pad=0 block=8287"),
            golden("PUSH_PROMISE, padded", (w, c) -> w.writePushPromise(c, 1, 4, buf("8287"), 2, c.newPromise()),
                    "000008 05 0c 00000001 01 00000004 8287 00", "PUSH_PROMISE s=1 promised=4 pad=2 block=8287"),
            golden("GOAWAY", (w, c) -> w.writeGoAway(c, 5, 0, buf("62796521"), c.newPromise()),
                    "00000c 07 00 00000000 00000005 00000000 62796521", "GOAWAY last=5 code=0 debug=bye!"),
            golden("WINDOW_UPDATE", (w, c) -> w.writeWindowUpdate(c, 0, 65536, c.newPromise()),
                    "000004 08 00 00000000 00010000", "WINDOW_UPDATE s=0 inc=65536"),
            golden("WINDOW_UPDATE, max", (w, c) -> w.writeWindowUpdate(c, 7, Integer.MAX_VALUE, c.newPromise()),
                    "000004 08 00 00000007 7fffffff", "WINDOW_UPDATE s=7 inc=2147483647"),
            golden("PRIORITY_UPDATE", (w, c) -> w.writePriorityUpdate(c, 1, "u=3,i", c.newPromise()),
                    "000009 10 00 00000000 00000001 753d332c69", "PRIORITY_UPDATE s=1 value=u=3,i"),
            golden("extension frame", (w, c) -> w.writeFrame(c, 0xfa, 7, 5, buf("010203"), c.newPromise()),
                    "000003 fa 07 00000005 010203", "UNKNOWN type=250 s=5 flags=7 payload=010203"));
    }

    private interface Write {
        void write(Http2FrameWriter writer, ChannelHandlerContext ctx);
    }

    private static Arguments golden(String name, Write write, String hex, String event) {
        return Arguments.of(name, write, hex.replace(" ", ""), event);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldens")
    void writesGoldenFrameThatReadsBack(String name, Write write, String hex, String event) throws Exception {
        write.write(writer, ctx());
        String out = written();
        assertThat(out).isEqualTo(hex);
        RecordingFrameListener listener = new RecordingFrameListener();
        Http2FrameReader reader = new Http2FrameReader(false, listener);
        assertThat(feed(reader, EMPTY_SETTINGS + out)).isZero();
        assertThat(listener.events).containsExactly("SETTINGS Http2Settings{}", event);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldens")
    void writesTheSameGoldenFrameWhenCoalescing(String name, Write write, String hex, String event) {
        Http2FrameWriter coalescing = new Http2FrameWriter().coalesce(true);
        writer.writeSettingsAck(ctx(), ctx().voidPromise());
        write.write(coalescing, ctx());
        coalescing.writeSettingsAck(ctx(), ctx().voidPromise());
        coalescing.drain();
        assertThat(written()).isEqualTo("000000040100000000" + hex + "000000040100000000");
    }

    @Test
    void largeDataIsHandedOnWithoutACopy() {
        ByteBuf data = Unpooled.buffer(2000).writeZero(2000);
        writer.writeData(ctx(), 1, data, 0, false, ctx().newPromise());
        List<ByteBuf> out = drainRetained();
        try {
            assertThat(out).hasSize(2);
            assertThat(ByteBufUtil.hexDump(out.get(0))).isEqualTo("0007d0000000000001");
            assertThat(out.get(1)).isSameAs(data);
        } finally {
            out.forEach(ByteBuf::release);
        }
    }

    @Test
    void smallDataIsCopiedBehindItsHeaderInOneBuffer() {
        writer.writeData(ctx(), 1, buf("00".repeat(Http2FrameWriter.DEFAULT_DATA_COPY_THRESHOLD_BYTES)), 0, true,
                ctx().newPromise());
        List<ByteBuf> out = drainRetained();
        try {
            assertThat(out).singleElement().satisfies(b -> assertThat(b.readableBytes())
                    .isEqualTo(9 + Http2FrameWriter.DEFAULT_DATA_COPY_THRESHOLD_BYTES));
        } finally {
            out.forEach(ByteBuf::release);
        }
    }

    @Test
    void copyThresholdZeroHandsEvenTinyPayloadsOn() {
        ByteBuf data = buf("6869");
        writer.dataCopyThresholdBytes(0).writeData(ctx(), 1, data, 0, true, ctx().newPromise());
        List<ByteBuf> out = drainRetained();
        try {
            assertThat(out).hasSize(2);
            assertThat(ByteBufUtil.hexDump(out.get(0))).isEqualTo("000002000100000001");
            assertThat(out.get(1)).isSameAs(data);
        } finally {
            out.forEach(ByteBuf::release);
        }
        assertThatThrownBy(() -> writer.dataCopyThresholdBytes(-1)).hasMessageContaining("-1");
    }

    @Test
    void headerBlockLargerThanMaxFrameSizeIsSplitIntoContinuations() throws Exception {
        byte[] block = new byte[40_000];
        for (int i = 0; i < block.length; i++) {
            block[i] = (byte) i;
        }
        writer.writeHeaders(ctx(), 5, Unpooled.wrappedBuffer(block), 10, true, true, 3, 32, false,
                ctx().newPromise());
        List<ByteBuf> out = drainRetained();
        assertThat(out).hasSize(1);
        ByteBuf frames = out.get(0);
        try {
            // HEADERS: padding 10 + priority 5 + fragment fills 16384; then 16384 + the rest in CONTINUATIONs.
            int first = 16384 - 10 - 5;
            assertThat(frameHeaderAt(frames, 0)).isEqualTo("004000 01 29 00000005");
            int second = 9 + 16384;
            assertThat(frameHeaderAt(frames, second)).isEqualTo("004000 09 00 00000005");
            int third = second + 9 + 16384;
            int rest = block.length - first - 16384;
            assertThat(frameHeaderAt(frames, third)).isEqualTo(String.format("%06x 09 04 00000005", rest));
            assertThat(frames.readableBytes()).isEqualTo(third + 9 + rest);

            RecordingFrameListener listener = new RecordingFrameListener();
            Http2FrameReader reader = new Http2FrameReader(false, listener).maxHeaderBlockBytes(block.length);
            feed(reader, EMPTY_SETTINGS);
            reader.read(frames);
            assertThat(listener.events).containsExactly("SETTINGS Http2Settings{}",
                    "HEADERS s=5 pad=10 end=true prio=true dep=3 w=32 ex=false block=" + ByteBufUtil.hexDump(block));
        } finally {
            frames.release();
        }
    }

    @Test
    void pushPromiseBlockFollowsThePeersRaisedMaxFrameSize() throws Exception {
        writer.maxFrameSize(20_000);
        writer.writePushPromise(ctx(), 1, 2, Unpooled.wrappedBuffer(new byte[30_000]), 0, ctx().newPromise());
        List<ByteBuf> out = drainRetained();
        ByteBuf frames = out.get(0);
        try {
            assertThat(frameHeaderAt(frames, 0)).isEqualTo("004e20 05 00 00000001");
            assertThat(frameHeaderAt(frames, 9 + 20_000))
                    .isEqualTo(String.format("%06x 09 04 00000001", 30_000 - (20_000 - 4)));
        } finally {
            frames.release();
        }
    }

    private static String frameHeaderAt(ByteBuf frames, int index) {
        String hex = ByteBufUtil.hexDump(frames, index, 9);
        return hex.substring(0, 6) + " " + hex.substring(6, 8) + " " + hex.substring(8, 10) + " " + hex.substring(10);
    }

    @Test
    void emptyHeaderBlockIsOneFrame() {
        writer.writeHeaders(ctx(), 1, Unpooled.buffer(0), 0, false, ctx().newPromise());
        assertThat(written()).isEqualTo("000000010400000001");
    }

    static Stream<Arguments> badArguments() {
        return Stream.of(
            bad("DATA on stream 0", (w, c, b) -> w.writeData(c, 0, b, 0, false, c.newPromise()), "streamId: 0"),
            bad("DATA padding 257", (w, c, b) -> w.writeData(c, 1, b, 257, false, c.newPromise()), "padding: 257"),
            bad("DATA padding -1", (w, c, b) -> w.writeData(c, 1, b, -1, false, c.newPromise()), "padding: -1"),
            bad("DATA beyond max frame size", (w, c, b) -> w.writeData(c, 1,
                    b.writeZero(16384), 1, false, c.newPromise()), "16385"),
            bad("HEADERS on stream -1", (w, c, b) -> w.writeHeaders(c, -1, b, 0, false, c.newPromise()),
                    "streamId: -1"),
            bad("HEADERS depending on itself", (w, c, b) -> w.writeHeaders(c, 3, b, 0, false, true, 3, 16, false,
                    c.newPromise()), "streamDependency: 3"),
            bad("HEADERS weight 0", (w, c, b) -> w.writeHeaders(c, 3, b, 0, false, true, 1, 0, false,
                    c.newPromise()), "weight: 0"),
            bad("HEADERS weight 257", (w, c, b) -> w.writeHeaders(c, 3, b, 0, false, true, 1, 257, false,
                    c.newPromise()), "weight: 257"),
            bad("PUSH_PROMISE of odd stream", (w, c, b) -> w.writePushPromise(c, 1, 3, b, 0, c.newPromise()),
                    "promisedStreamId: 3"),
            bad("PUSH_PROMISE of stream 0", (w, c, b) -> w.writePushPromise(c, 1, 0, b, 0, c.newPromise()),
                    "promisedStreamId: 0"),
            bad("GOAWAY last stream -1", (w, c, b) -> w.writeGoAway(c, -1, 0, b, c.newPromise()),
                    "lastStreamId: -1"),
            bad("GOAWAY error code 2^32", (w, c, b) -> w.writeGoAway(c, 1, 1L << 32, b, c.newPromise()),
                    "errorCode: 4294967296"),
            bad("extension type 256", (w, c, b) -> w.writeFrame(c, 256, 0, 0, b, c.newPromise()),
                    "frameType: 256"),
            bad("extension flags 256", (w, c, b) -> w.writeFrame(c, 1, 256, 0, b, c.newPromise()), "flags: 256"));
    }

    private interface BadWrite {
        void write(Http2FrameWriter writer, ChannelHandlerContext ctx, ByteBuf buf);
    }

    private static Arguments bad(String name, BadWrite write, String message) {
        return Arguments.of(name, write, message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badArguments")
    void badArgumentIsRefusedWithItsValueAndTheBufferReleased(String name, BadWrite write, String message) {
        ByteBuf buf = Unpooled.buffer(16);
        assertThatThrownBy(() -> write.write(writer, ctx(), buf)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
        assertThat(buf.refCnt()).isZero();
        assertThat(written()).isEmpty();
    }

    @Test
    void controlFrameArgumentsAreChecked() {
        ChannelHandlerContext c = ctx();
        List<Consumer<ChannelHandlerContext>> calls = List.of(
                x -> writer.writeWindowUpdate(x, 1, 0, x.newPromise()),
                x -> writer.writeWindowUpdate(x, 1, -5, x.newPromise()),
                x -> writer.writeWindowUpdate(x, -1, 1, x.newPromise()),
                x -> writer.writeRstStream(x, 0, 8, x.newPromise()),
                x -> writer.writeRstStream(x, 1, -1, x.newPromise()),
                x -> writer.writePriority(x, 0, 1, 16, false, x.newPromise()),
                x -> writer.writePriority(x, 1, -1, 16, false, x.newPromise()),
                x -> writer.writePriorityUpdate(x, 0, "u=1", x.newPromise()));
        List<String> messages = List.of("windowSizeIncrement: 0", "windowSizeIncrement: -5", "streamId: -1",
                "streamId: 0", "errorCode: -1", "streamId: 0", "streamDependency: -1", "streamId: 0");
        for (int i = 0; i < calls.size(); i++) {
            Consumer<ChannelHandlerContext> call = calls.get(i);
            assertThatThrownBy(() -> call.accept(c)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(messages.get(i));
        }
        assertThatThrownBy(() -> writer.maxFrameSize(16383)).hasMessageContaining("16383");
        assertThat(written()).isEmpty();
    }

    @Test
    void goAwayDebugDataIsCopiedAndReleased() {
        ByteBuf debug = Unpooled.copiedBuffer("too many resets", StandardCharsets.US_ASCII);
        writer.writeGoAway(ctx(), 7, Http2Error.ENHANCE_YOUR_CALM.code(), debug, ctx().newPromise());
        assertThat(debug.refCnt()).isZero();
        assertThat(written()).startsWith("00001707000000000000000007" + "0000000b");
    }
}
