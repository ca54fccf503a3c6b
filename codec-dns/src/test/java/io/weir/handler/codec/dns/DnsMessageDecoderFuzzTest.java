package io.weir.handler.codec.dns;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzz target for {@link DnsMessageDecoder}. Run as a plain test it replays the corpus under
 * {@code src/test/resources/io/weir/handler/codec/dns/DnsMessageDecoderFuzzTestInputs/decode/}; with
 * {@code JAZZER_FUZZ=1} Jazzer mutates it. Every input ends in exactly one of: a {@link DnsDecoderException}, or a
 * message within the record cap that survives encoding and decoding again unchanged.
 */
class DnsMessageDecoderFuzzTest {
    private static final int SMALL_CAP = 16;

    @FuzzTest(maxDuration = "30s")
    void decode(byte[] data) {
        DnsMessageDecoder decoder = new DnsMessageDecoder(SMALL_CAP);
        DnsMessage m;
        try {
            m = Wire.decode(decoder, data);
        } catch (DnsDecoderException refused) {
            return;
        }
        assertThat(m.entryCount()).isLessThanOrEqualTo(SMALL_CAP);
        byte[] again = Wire.encode(m);
        assertThat(Wire.decode(decoder, again)).isEqualTo(m);
    }
}
