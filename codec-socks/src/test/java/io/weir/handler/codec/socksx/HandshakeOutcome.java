package io.weir.handler.codec.socksx;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.ChannelHandler;
import java.util.Arrays;

/**
 * The outcomes a handshake decoder may reach on any input, checked for the fuzz targets: a typed refusal after which
 * nothing more is passed on; the end of the handshake, after which the decoder is gone and the bytes behind it pass
 * on intact; or a wait that holds less than the longest message. In every case what was decoded encodes back to
 * the bytes that were read.
 */
final class HandshakeOutcome {
    private HandshakeOutcome() {
    }

    /** Checks {@code f}, fed {@code input}, against the outcomes; {@code encoder} writes what the decoder reads. */
    static void check(byte[] input, SocksFeed f, ChannelHandler decoder, ChannelHandler encoder, int longestBytes) {
        byte[] decoded = encode(encoder, f);
        assertThat(Arrays.copyOf(input, Math.min(input.length, decoded.length)))
                .as("what was decoded encodes back to what was read").isEqualTo(decoded);
        if (f.failure() != null) {
            assertThat(f.failure()).isInstanceOf(SocksProtocolException.class);
            assertThat(f.payload()).isEmpty();
        } else if (!f.inPipeline(decoder)) {
            assertThat(SocksFeed.concat(decoded, f.payload())).isEqualTo(input);
        } else {
            assertThat(f.payload()).isEmpty();
            assertThat(input.length - decoded.length).as("bytes held while waiting").isLessThan(longestBytes);
        }
    }

    /** The bytes {@code encoder} writes for every message {@code f} decoded, in order. */
    static byte[] encode(ChannelHandler encoder, SocksFeed f) {
        SocksFeed e = new SocksFeed(encoder);
        try {
            byte[] out = new byte[0];
            for (Object m : f.messages()) {
                out = SocksFeed.concat(out, e.writeOutbound(m));
            }
            return out;
        } finally {
            e.finish();
        }
    }
}
