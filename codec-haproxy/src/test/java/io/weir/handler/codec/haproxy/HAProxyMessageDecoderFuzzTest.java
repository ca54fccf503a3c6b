package io.weir.handler.codec.haproxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import java.util.List;

/**
 * Fuzz target for {@link HAProxyMessageDecoder}. Run as a plain test it replays the corpus under
 * {@code src/test/resources/io/weir/handler/codec/haproxy/HAProxyMessageDecoderFuzzTestInputs/decode/}; with
 * {@code JAZZER_FUZZ=1} Jazzer mutates it. Every input ends in exactly one of: a decoded message (then the bytes
 * after the header are passed on intact, and the message survives encoding and decoding again), a typed refusal
 * that closes the connection and passes nothing on, no header at all (optional mode only: every byte passed on),
 * or a wait for more bytes that holds fewer than the longest header allowed. No buffer outlives the channel.
 *
 * <p>The first input byte picks the configuration and how the rest is cut into reads: bits 0-4 the read size
 * (1 to 32 bytes), bit 5 a 64-byte version 2 cap, bit 6 optional headers.
 */
class HAProxyMessageDecoderFuzzTest {
    private static final int SMALL_CAP_BYTES = 64;

    @FuzzTest(maxDuration = "30s")
    void decode(byte[] data) {
        if (data.length == 0) {
            return;
        }
        int mode = data[0];
        boolean smallCap = (mode & 0x20) != 0;
        boolean optional = (mode & 0x40) != 0;
        HAProxyDecoderConfig config = new HAProxyDecoderConfig().setHeaderOptional(optional);
        if (smallCap) {
            config.setMaxV2HeaderBytes(SMALL_CAP_BYTES);
        }
        byte[] input = Arrays.copyOfRange(data, 1, data.length);
        DecoderFeed f = new DecoderFeed(config);
        int step = (mode & 0x1F) + 1;
        for (int i = 0; i < input.length; i += step) {
            f.write(Arrays.copyOfRange(input, i, Math.min(input.length, i + step)));
        }
        try {
            if (f.failure() != null) {
                assertThat(f.failure()).isInstanceOf(HAProxyProtocolException.class);
                assertThat(f.ch.isOpen()).isFalse();
                assertThat(f.messages()).isEmpty();
                assertThat(f.payload()).isEmpty();
            } else if (!f.messages().isEmpty()) {
                HAProxyMessage m = f.message();
                assertThat(f.order()).startsWith("M");
                assertThat(f.decoderInPipeline()).isFalse();
                byte[] payload = f.payload();
                assertThat(input).endsWith(payload);
                reEncodes(m);
            } else if (!f.decoderInPipeline()) {
                assertThat(optional).as("only optional mode lets a connection through without a header").isTrue();
                assertThat(f.payload()).isEqualTo(input);
            } else {
                // Waiting for more: never more than the longest header the decoder would accept.
                assertThat(f.payload()).isEmpty();
                assertThat(input.length).isLessThan(Math.max(HAProxyMessageDecoder.V1_MAX_LINE_BYTES,
                        config.getMaxV2HeaderBytes()));
            }
        } finally {
            f.finish();
        }
    }

    /** Encoding {@code m} and decoding the result gives {@code m} again, checksum value aside. */
    private static void reEncodes(HAProxyMessage m) {
        byte[] encoded = m.version() == HAProxyProtocolVersion.V1
                ? Headers.ascii(HAProxyMessageEncoder.v1Line(m)) : HAProxyMessageEncoder.v2Header(m);
        DecoderFeed again = new DecoderFeed(new HAProxyDecoderConfig()
                .setMaxV2HeaderBytes(HAProxyMessageDecoder.MAX_V2_HEADER_BYTES)).write(encoded);
        try {
            assertThat(again.failure()).isNull();
            assertThat(withoutCrc(again.message())).isEqualTo(withoutCrc(m));
            assertThat(again.payload()).isEmpty();
        } finally {
            again.finish();
        }
    }

    private static HAProxyMessage withoutCrc(HAProxyMessage m) {
        List<HAProxyTlv> tlvs = m.tlvs().stream().filter(t -> t.type() != HAProxyTlv.TYPE_CRC32C).toList();
        return m.withTlvs(tlvs);
    }
}
