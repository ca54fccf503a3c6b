package io.weir.handler.codec.socksx;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.socksx.v4.Socks4ClientEncoder;
import io.weir.handler.codec.socksx.v4.Socks4CommandRequest;
import io.weir.handler.codec.socksx.v4.Socks4ServerDecoder;
import io.weir.handler.codec.socksx.v5.Socks5AuthMethod;
import io.weir.handler.codec.socksx.v5.Socks5ClientEncoder;
import io.weir.handler.codec.socksx.v5.Socks5InitialRequest;
import io.weir.handler.codec.socksx.v5.Socks5InitialResponse;
import io.weir.handler.codec.socksx.v5.Socks5PasswordAuthRequest;
import io.weir.handler.codec.socksx.v5.Socks5PasswordAuthResponse;
import io.weir.handler.codec.socksx.v5.Socks5ServerDecoder;
import io.weir.handler.codec.socksx.v5.Socks5ServerEncoder;
import java.util.Arrays;

/**
 * Fuzz targets for the server-side request decoders. Run as plain tests they replay the corpus under
 * {@code src/test/resources/io/weir/handler/codec/socksx/SocksServerDecoderFuzzTestInputs/<method>/}; with
 * {@code JAZZER_FUZZ=1} Jazzer mutates it. Every input ends in exactly one of: a typed refusal after which nothing
 * more is passed on; the complete handshake, after which the decoder is gone and the bytes behind it pass on
 * intact; or a wait for more bytes that holds less than the longest message allowed. What was decoded encodes back
 * to what was read. No buffer outlives the channel.
 *
 * <p>The first input byte picks how the rest is cut into reads (bits 0-4: 1 to 32 bytes) and, for SOCKS4, a cap of
 * 16 bytes on the user id and host name (bit 5); for SOCKS5, whether the server chooses the password method (bit
 * 5) and whether it then refuses the password (bit 6).
 */
class SocksServerDecoderFuzzTest {
    private static final int SMALL_CAP_BYTES = 16;

    @FuzzTest(maxDuration = "30s")
    void socks4(byte[] data) {
        if (data.length == 0) {
            return;
        }
        int cap = (data[0] & 0x20) != 0 ? SMALL_CAP_BYTES : Socks4ServerDecoder.DEFAULT_MAX_FIELD_BYTES;
        byte[] input = Arrays.copyOfRange(data, 1, data.length);
        Socks4ServerDecoder decoder = new Socks4ServerDecoder(cap);
        SocksFeed f = new SocksFeed(decoder).writeInSteps(input, (data[0] & 0x1F) + 1);
        try {
            if (f.failure() != null) {
                assertThat(f.failure()).isInstanceOf(SocksProtocolException.class);
                assertThat(f.messages()).isEmpty();
                assertThat(f.payload()).isEmpty();
            } else if (!f.inPipeline(decoder)) {
                Socks4CommandRequest request = f.message(Socks4CommandRequest.class);
                assertThat(input).endsWith(f.payload());
                SocksFeed encoder = new SocksFeed(new Socks4ClientEncoder());
                SocksFeed again = new SocksFeed(new Socks4ServerDecoder(cap)).write(encoder.writeOutbound(request));
                assertThat(again.message(Socks4CommandRequest.class)).isEqualTo(request);
                encoder.finish();
                again.finish();
            } else {
                assertThat(f.messages()).isEmpty();
                assertThat(f.payload()).isEmpty();
                assertThat(input.length).isLessThan(8 + 2 * (cap + 1));
            }
        } finally {
            f.finish();
        }
    }

    @FuzzTest(maxDuration = "30s")
    void socks5(byte[] data) {
        if (data.length == 0) {
            return;
        }
        boolean password = (data[0] & 0x20) != 0;
        boolean refusePassword = (data[0] & 0x40) != 0;
        byte[] input = Arrays.copyOfRange(data, 1, data.length);
        Socks5ServerDecoder decoder = new Socks5ServerDecoder();
        SocksFeed f = new SocksFeed(new Socks5ServerEncoder(), decoder, new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof Socks5InitialRequest) {
                    ctx.writeAndFlush(new Socks5InitialResponse(password ? Socks5AuthMethod.PASSWORD
                            : Socks5AuthMethod.NO_AUTH));
                } else if (msg instanceof Socks5PasswordAuthRequest) {
                    ctx.writeAndFlush(refusePassword ? Socks5PasswordAuthResponse.FAILURE
                            : Socks5PasswordAuthResponse.SUCCESS);
                }
                ctx.fireChannelRead(msg);
            }
        }).writeInSteps(input, (data[0] & 0x1F) + 1);
        try {
            assertThat(f.messages()).hasSizeLessThanOrEqualTo(password ? 3 : 2);
            // The longest message is a 513-byte username and password request.
            HandshakeOutcome.check(input, f, decoder, new Socks5ClientEncoder(), 514);
        } finally {
            f.finish();
        }
    }
}
