package io.weir.handler.codec.http.websocketx;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;

/**
 * Fuzz target for {@link WebSocketFrameDecoder} with permessage-deflate inflation behind it. Run as a plain test it
 * replays the corpus under
 * {@code src/test/resources/io/weir/handler/codec/http/websocketx/WebSocketFrameDecoderFuzzTestInputs/decode/};
 * with {@code JAZZER_FUZZ=1} Jazzer mutates it. The first byte picks the side, whether RSV1 is allowed (with the
 * inflater) and how the rest is cut into reads. Invariants: nothing but {@link WebSocketProtocolException} escapes,
 * every frame emitted respects the limits, a failed connection is closed, and nothing leaks.
 */
class WebSocketFrameDecoderFuzzTest {
    private static final int MAX_FRAME = 4096;
    private static final int MAX_MESSAGE = 16384;

    @FuzzTest(maxDuration = "30s")
    void decode(byte[] data) {
        if (data.length == 0) {
            return;
        }
        int settings = data[0] & 0xFF;
        boolean server = (settings & 1) != 0;
        boolean deflate = (settings & 2) != 0;
        int chunk = (settings >>> 2) + 1;
        WebSocketFrameCodecTest.Sink sink = new WebSocketFrameCodecTest.Sink();
        WebSocketConfig config = new WebSocketConfig().setMaxFramePayloadBytes(MAX_FRAME)
                .setMaxMessageBytes(MAX_MESSAGE).setMaxFragmentsPerMessage(64);
        WebSocketFrameDecoder decoder = new WebSocketFrameDecoder(server, config);
        EmbeddedChannel ch;
        if (deflate) {
            decoder.allowReservedBits(WebSocketFrame.RSV1);
            ch = new EmbeddedChannel(new WebSocketFrameEncoder(!server), decoder,
                    new PerMessageDeflateDecoder(MAX_MESSAGE), sink);
        } else {
            ch = new EmbeddedChannel(new WebSocketFrameEncoder(!server), decoder, sink);
        }
        try {
            for (int i = 1; i < data.length && ch.isOpen(); i += chunk) {
                ch.writeInbound(Unpooled.copiedBuffer(data, i, Math.min(chunk, data.length - i)));
                Object o;
                while ((o = ch.readInbound()) != null) {
                    WebSocketFrame f = (WebSocketFrame) o;
                    try {
                        assertThat(f.content().readableBytes()).isLessThanOrEqualTo(MAX_MESSAGE);
                        if (f.isControl()) {
                            assertThat(f.content().readableBytes()).isLessThanOrEqualTo(125);
                            assertThat(f.isFinalFragment()).isTrue();
                        }
                    } finally {
                        f.release();
                    }
                }
            }
            for (Throwable t : sink.errors) {
                assertThat(t).isInstanceOf(WebSocketProtocolException.class);
            }
            if (!sink.errors.isEmpty()) {
                assertThat(ch.isOpen()).isFalse();
            }
        } finally {
            ch.finishAndReleaseAll();
        }
    }
}
