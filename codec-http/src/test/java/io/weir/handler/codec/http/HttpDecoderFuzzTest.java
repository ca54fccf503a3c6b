package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzz targets for the request and response decoders and the server codec. Run as plain tests they replay the
 * corpus under {@code src/test/resources/io/weir/handler/codec/http/HttpDecoderFuzzTestInputs/<method>/}; with
 * {@code JAZZER_FUZZ=1} Jazzer mutates it. Invariants: nothing escapes but a failed DecoderResult, a failure is the
 * last object, no buffer outlives the channel (the leak detector runs at PARANOID too), and decoding always ends.
 *
 * <p>The first input byte picks how the rest is cut into reads and whether line endings are lenient, so the
 * fuzzer also explores fragmentation.
 */
class HttpDecoderFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void requestDecoder(byte[] data) {
        decodeAndCheck(data, true);
    }

    @FuzzTest(maxDuration = "30s")
    void responseDecoder(byte[] data) {
        decodeAndCheck(data, false);
    }

    @FuzzTest(maxDuration = "30s")
    void serverCodec(byte[] data) {
        if (data.length == 0) {
            return;
        }
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(config(data[0])));
        List<ByteBuf> inputs = feed(ch, data);
        List<Object> seen = new ArrayList<>();
        for (Object o; (o = ch.readInbound()) != null; ) {
            seen.add(o);
        }
        StringBuilder answer = new StringBuilder();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            answer.append(((ByteBuf) o).toString(StandardCharsets.ISO_8859_1));
            ReferenceCountUtil.release(o);
        }
        boolean open = ch.isOpen();
        boolean rejectedBeforeHandlers = true;
        for (Object o : seen) {
            assertThat(o).isInstanceOf(HttpObject.class);
            if (o instanceof HttpRequest) {
                assertThat(((HttpRequest) o).decoderResult().isSuccess()).isTrue();
            }
            if (((HttpObject) o).decoderResult().isFailure()) {
                rejectedBeforeHandlers = false;
            }
            ReferenceCountUtil.release(o);
        }
        if (!answer.isEmpty()) {
            // Nothing answers a request here but the codec, so any answer is a rejection, and then it closes.
            assertThat(answer.toString()).matches("(?s)HTTP/1\\.1 (400|413|414|431|501|505) [^\r\n]*\r\n.*")
                    .contains("connection: close\r\n");
            assertThat(open).isFalse();
        } else {
            assertThat(rejectedBeforeHandlers).as("a rejection is always answered").isTrue();
        }
        ch.finishAndReleaseAll();
        for (ByteBuf in : inputs) {
            assertThat(in.refCnt()).isZero();
        }
    }

    private static HttpDecoderConfig config(byte first) {
        return new HttpDecoderConfig().setStrictLineEndings((first & 0x40) == 0).setMaxChunkSize(64)
                .setMaxInitialLineLength(256).setMaxHeaderSize(512).setMaxHeaderCount(16);
    }

    /** Cuts {@code data[1..]} into reads of 1 to 32 bytes as the first byte says, and writes them. */
    private static List<ByteBuf> feed(EmbeddedChannel ch, byte[] data) {
        int step = (data[0] & 0x1F) + 1;
        List<ByteBuf> inputs = new ArrayList<>();
        for (int i = 1; i < data.length && ch.isOpen(); i += step) {
            ByteBuf in = Unpooled.copiedBuffer(data, i, Math.min(step, data.length - i));
            inputs.add(in);
            ch.writeInbound(in);
        }
        return inputs;
    }

    private static void decodeAndCheck(byte[] data, boolean requests) {
        if (data.length == 0) {
            return;
        }
        HttpDecoderConfig config = config(data[0]);
        EmbeddedChannel ch = new EmbeddedChannel(requests ? new HttpRequestDecoder(config)
                : new HttpResponseDecoder(config));
        List<ByteBuf> inputs = feed(ch, data);
        ch.finish();
        List<Object> out = new ArrayList<>();
        for (Object o; (o = ch.readInbound()) != null; ) {
            out.add(o);
        }
        try {
            for (int i = 0; i < out.size(); i++) {
                Object o = out.get(i);
                if (o instanceof ByteBuf) {
                    // Only after a 101 response does the decoder pass raw bytes on.
                    assertThat(requests).isFalse();
                    continue;
                }
                assertThat(o).isInstanceOf(HttpObject.class);
                if (((HttpObject) o).decoderResult().isFailure()) {
                    assertThat(i).as("a failure is the last object").isEqualTo(out.size() - 1);
                }
                if (o instanceof HttpRequest req) {
                    assertThat(requests).isTrue();
                    assertThat(req.uri()).doesNotContain(" ", "\r", "\n");
                }
                if (o instanceof HttpContent c) {
                    assertThat(c.content().readableBytes()).isLessThanOrEqualTo(config.getMaxChunkSize());
                }
            }
        } finally {
            for (Object o : out) {
                ReferenceCountUtil.release(o);
            }
        }
        for (ByteBuf in : inputs) {
            assertThat(in.refCnt()).isZero();
        }
    }
}
