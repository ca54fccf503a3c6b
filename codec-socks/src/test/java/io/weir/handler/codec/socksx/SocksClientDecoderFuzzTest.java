package io.weir.handler.codec.socksx;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.weir.channel.ChannelHandler;
import io.weir.handler.codec.socksx.v4.Socks4ClientDecoder;
import io.weir.handler.codec.socksx.v4.Socks4ServerEncoder;
import io.weir.handler.codec.socksx.v5.Socks5ClientDecoder;
import io.weir.handler.codec.socksx.v5.Socks5ServerEncoder;
import java.util.Arrays;

/**
 * Fuzz targets for the client-side reply decoders. Run as plain tests they replay the corpus under
 * {@code src/test/resources/io/weir/handler/codec/socksx/SocksClientDecoderFuzzTestInputs/<method>/}; with
 * {@code JAZZER_FUZZ=1} Jazzer mutates it. Every input ends in a typed refusal after which nothing more is passed
 * on, in the end of the handshake after which the decoder is gone and the bytes behind it pass on intact, or in a
 * wait that holds less than the longest reply. What was decoded encodes back to what was read. No buffer outlives
 * the channel. The first input byte picks how the rest is cut into reads (bits 0-4: 1 to 32 bytes).
 */
class SocksClientDecoderFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void socks4(byte[] data) {
        check(data, new Socks4ClientDecoder(), new Socks4ServerEncoder(), 8);
    }

    @FuzzTest(maxDuration = "30s")
    void socks5(byte[] data) {
        // The longest answer is a reply with a 255-byte domain name: 4 + 1 + 255 + 2 bytes.
        check(data, new Socks5ClientDecoder(), new Socks5ServerEncoder(), 262);
    }

    private static void check(byte[] data, ChannelHandler decoder, ChannelHandler encoder, int longestBytes) {
        if (data.length == 0) {
            return;
        }
        byte[] input = Arrays.copyOfRange(data, 1, data.length);
        SocksFeed f = new SocksFeed(decoder).writeInSteps(input, (data[0] & 0x1F) + 1);
        try {
            HandshakeOutcome.check(input, f, decoder, encoder, longestBytes);
        } finally {
            f.finish();
        }
    }
}
