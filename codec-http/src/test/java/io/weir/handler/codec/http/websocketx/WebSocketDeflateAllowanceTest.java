package io.weir.handler.codec.http.websocketx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;

/**
 * A message within the message limit is not refused because deflate made its frame a little larger than the
 * limit (random data does not compress); an uncompressed frame over the limit still is.
 */
class WebSocketDeflateAllowanceTest {
    private static final int LIMIT = 100_000;

    private static EmbeddedChannel decoder() {
        WebSocketFrameDecoder decoder = new WebSocketFrameDecoder(true,
                new WebSocketConfig().setMaxMessageBytes(LIMIT).setMaxFramePayloadBytes(LIMIT));
        decoder.allowReservedBits(WebSocketFrame.RSV1);
        return new EmbeddedChannel(decoder);
    }

    @Test
    void aCompressedFrameALittleOverTheLimitIsAccepted() {
        EmbeddedChannel ch = decoder();
        // 0xC2: FIN, RSV1 (compressed), binary; 0.25% over, as 1 MiB of random data from common clients.
        ch.writeInbound(Unpooled.wrappedBuffer(WireFrames.client(0xC2, new byte[LIMIT + LIMIT / 400])));
        Object frame = ch.readInbound();
        assertThat(frame).isInstanceOf(BinaryWebSocketFrame.class);
        ReferenceCountUtil.release(frame);
        assertThat(ch.isOpen()).isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void anUncompressedFrameOverTheLimitIsRefused() {
        EmbeddedChannel ch = decoder();
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.wrappedBuffer(WireFrames.client(0x82, new byte[LIMIT + 1]))))
                .isInstanceOf(WebSocketTooBigException.class);
        assertThat((Object) ch.readInbound()).isNull();
        Object close = ch.readOutbound();
        assertThat(close).isInstanceOf(CloseWebSocketFrame.class);
        assertThat(((CloseWebSocketFrame) close).statusCode()).isEqualTo(WebSocketCloseStatus.MESSAGE_TOO_BIG);
        ReferenceCountUtil.release(close);
        ch.finishAndReleaseAll();
    }

    @Test
    void aCompressedFrameFarOverTheLimitIsStillRefused() {
        EmbeddedChannel ch = decoder();
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.wrappedBuffer(WireFrames.client(0xC2,
                new byte[(int) WebSocketFrameDecoder.withDeflateAllowance(LIMIT) + 1]))))
                .isInstanceOf(WebSocketTooBigException.class);
        assertThat((Object) ch.readInbound()).isNull();
        Object close = ch.readOutbound();
        assertThat(((CloseWebSocketFrame) close).statusCode()).isEqualTo(WebSocketCloseStatus.MESSAGE_TOO_BIG);
        ReferenceCountUtil.release(close);
        ch.finishAndReleaseAll();
    }
}
