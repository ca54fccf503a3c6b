package io.weir.handler.codec.socksx.v5;

import static io.weir.handler.codec.socksx.SocksFeed.concat;
import static io.weir.handler.codec.socksx.SocksFeed.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.handler.codec.socksx.SocksFeed;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SOCKS5 messages byte for byte (RFC 1928, RFC 1929), both directions: each encoder's bytes, each decoder's reading
 * of them through a whole handshake in any cut, and the decoders stepping aside when the handshake is over.
 */
class Socks5CodecTest {
    static final byte[] GREETING_NO_AUTH_AND_PASSWORD = hex("05 02 00 02");
    static final byte[] CHOOSE_PASSWORD = hex("05 02");
    static final byte[] CHOOSE_NO_AUTH = hex("05 00");
    /** RFC 1929: VER 1, "alice", "s3cret". */
    static final byte[] ALICE = concat(hex("01 05"), ascii("alice"), hex("06"), ascii("s3cret"));
    static final byte[] AUTH_OK = hex("01 00");
    static final byte[] CONNECT_DOMAIN = concat(hex("05 01 00 03 0b"), ascii("example.com"), hex("01bb"));
    static final byte[] CONNECT_IPV4 = hex("05 01 00 01 c0000201 0050");
    static final byte[] CONNECT_IPV6 = hex("05 01 00 04 20010db8000000000000000000000001 1f90");
    static final byte[] REPLY_OK = hex("05 00 00 01 7f000001 3039");

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void clientEncoderWritesEveryRequest() {
        SocksFeed f = new SocksFeed(new Socks5ClientEncoder());
        assertThat(f.writeOutbound(Socks5InitialRequest.of(Socks5AuthMethod.NO_AUTH, Socks5AuthMethod.PASSWORD)))
                .isEqualTo(GREETING_NO_AUTH_AND_PASSWORD);
        assertThat(f.writeOutbound(new Socks5PasswordAuthRequest("alice", "s3cret"))).isEqualTo(ALICE);
        assertThat(f.writeOutbound(Socks5CommandRequest.of(Socks5CommandType.CONNECT, "example.com", 443)))
                .isEqualTo(CONNECT_DOMAIN);
        assertThat(f.writeOutbound(Socks5CommandRequest.of(Socks5CommandType.CONNECT, "192.0.2.1", 80)))
                .isEqualTo(CONNECT_IPV4);
        assertThat(f.writeOutbound(Socks5CommandRequest.of(Socks5CommandType.CONNECT, "2001:DB8::1", 8080)))
                .isEqualTo(CONNECT_IPV6);
        f.finish();
    }

    @Test
    void serverEncoderWritesEveryResponse() {
        SocksFeed f = new SocksFeed(new Socks5ServerEncoder());
        assertThat(f.writeOutbound(new Socks5InitialResponse(Socks5AuthMethod.PASSWORD))).isEqualTo(CHOOSE_PASSWORD);
        assertThat(f.writeOutbound(Socks5PasswordAuthResponse.SUCCESS)).isEqualTo(AUTH_OK);
        assertThat(f.writeOutbound(Socks5PasswordAuthResponse.FAILURE)).isEqualTo(hex("01 01"));
        assertThat(f.writeOutbound(new Socks5CommandResponse(Socks5CommandStatus.SUCCESS, Socks5AddressType.IPV4,
                "127.0.0.1", 12345))).isEqualTo(REPLY_OK);
        assertThat(f.writeOutbound(Socks5CommandResponse.of(Socks5CommandStatus.CONNECTION_REFUSED)))
                .isEqualTo(hex("05 05 00 01 00000000 0000"));
        f.finish();
    }

    @ParameterizedTest(name = "reads of {0} byte(s)")
    @ValueSource(ints = {1, 2, 3, 5, 64})
    void serverDecoderFollowsAPasswordHandshakeInAnyCut(int step) {
        Socks5ServerDecoder decoder = new Socks5ServerDecoder();
        SocksFeed f = new SocksFeed(new Socks5ServerEncoder(), decoder);
        f.writeInSteps(GREETING_NO_AUTH_AND_PASSWORD, step);
        assertThat(f.messages()).containsExactly(
                Socks5InitialRequest.of(Socks5AuthMethod.NO_AUTH, Socks5AuthMethod.PASSWORD));
        assertThat(f.writeOutbound(new Socks5InitialResponse(Socks5AuthMethod.PASSWORD))).isEqualTo(CHOOSE_PASSWORD);
        f.writeInSteps(ALICE, step);
        assertThat(f.messages()).last().isEqualTo(new Socks5PasswordAuthRequest("alice", "s3cret"));
        assertThat(f.writeOutbound(Socks5PasswordAuthResponse.SUCCESS)).isEqualTo(AUTH_OK);
        f.writeInSteps(concat(CONNECT_DOMAIN, ascii("GET / HTTP/1.1\r\n")), step);
        assertThat(f.messages()).hasSize(3).last()
                .isEqualTo(Socks5CommandRequest.of(Socks5CommandType.CONNECT, "example.com", 443));
        assertThat(f.payload()).isEqualTo(ascii("GET / HTTP/1.1\r\n"));
        assertThat(f.order()).startsWith("MMMB");
        assertThat(f.inPipeline(decoder)).isFalse();
        f.finish();
    }

    @Test
    void serverDecoderFollowsANoAuthHandshakeAndReadsEveryAddressType() {
        for (byte[] connect : List.of(CONNECT_DOMAIN, CONNECT_IPV4, CONNECT_IPV6)) {
            SocksFeed f = new SocksFeed(new Socks5ServerEncoder(), new Socks5ServerDecoder())
                    .write(hex("05 01 00"));
            f.writeOutbound(new Socks5InitialResponse(Socks5AuthMethod.NO_AUTH));
            f.write(connect);
            assertThat(f.failure()).isNull();
            assertThat(f.messages()).hasSize(2);
            Socks5CommandRequest r = (Socks5CommandRequest) f.messages().get(1);
            // Decoding and encoding again gives the same bytes.
            SocksFeed e = new SocksFeed(new Socks5ClientEncoder());
            assertThat(e.writeOutbound(r)).isEqualTo(connect);
            e.finish();
            f.finish();
        }
    }

    @Test
    void ipv6AddressesAreKeptInTheirCanonicalForm() {
        Socks5CommandRequest r = Socks5CommandRequest.of(Socks5CommandType.CONNECT, "2001:0DB8:0:0:0:0:0:0001", 1);
        assertThat(r.addressType()).isEqualTo(Socks5AddressType.IPV6);
        assertThat(r.host()).isEqualTo("2001:db8::1");
        assertThat(Socks5CommandRequest.of(Socks5CommandType.CONNECT, "::ffff:192.0.2.1", 1).host())
                .isEqualTo("::ffff:c000:201");
        assertThat(Socks5AddressType.of("localhost")).isEqualTo(Socks5AddressType.DOMAIN);
        assertThat(Socks5AddressType.of("1::2::3")).isEqualTo(Socks5AddressType.DOMAIN);
        assertThat(Socks5AddressType.of("10.0.0.1")).isEqualTo(Socks5AddressType.IPV4);
        assertThat(Socks5AddressType.of("010.0.0.1")).isEqualTo(Socks5AddressType.DOMAIN);
    }

    @Test
    void clientDecoderFollowsAPasswordHandshakeAndHandsOnWhatFollowsTheReply() {
        Socks5ClientDecoder decoder = new Socks5ClientDecoder();
        SocksFeed f = new SocksFeed(decoder).writeByteByByte(concat(CHOOSE_PASSWORD, AUTH_OK, REPLY_OK,
                ascii("SSH-2.0-x\r\n")));
        assertThat(f.messages()).containsExactly(new Socks5InitialResponse(Socks5AuthMethod.PASSWORD),
                Socks5PasswordAuthResponse.SUCCESS,
                new Socks5CommandResponse(Socks5CommandStatus.SUCCESS, Socks5AddressType.IPV4, "127.0.0.1", 12345));
        assertThat(f.payload()).isEqualTo(ascii("SSH-2.0-x\r\n"));
        assertThat(f.inPipeline(decoder)).isFalse();
        f.finish();
    }

    @Test
    void clientDecoderReadsANoAuthHandshakeInOneRead() {
        SocksFeed f = new SocksFeed(new Socks5ClientDecoder()).write(concat(CHOOSE_NO_AUTH,
                concat(hex("05 04 00 03 04"), ascii("host"), hex("0016"))));
        assertThat(f.messages()).containsExactly(new Socks5InitialResponse(Socks5AuthMethod.NO_AUTH),
                new Socks5CommandResponse(Socks5CommandStatus.HOST_UNREACHABLE, Socks5AddressType.DOMAIN, "host", 22));
        f.finish();
    }

    @Test
    void clientDecoderStepsAsideAfterAFailedVerdictOrAnUnusableMethod() {
        Socks5ClientDecoder afterVerdict = new Socks5ClientDecoder();
        SocksFeed f = new SocksFeed(afterVerdict).write(concat(CHOOSE_PASSWORD, hex("01 01")));
        assertThat(f.messages()).last().isEqualTo(Socks5PasswordAuthResponse.FAILURE);
        assertThat(f.inPipeline(afterVerdict)).isFalse();
        f.finish();

        Socks5ClientDecoder afterNoMethod = new Socks5ClientDecoder();
        SocksFeed g = new SocksFeed(afterNoMethod).write(hex("05 ff"));
        assertThat(g.message(Socks5InitialResponse.class).method())
                .isEqualTo(Socks5AuthMethod.NO_ACCEPTABLE_METHODS);
        assertThat(g.inPipeline(afterNoMethod)).isFalse();
        g.finish();
    }

    @Test
    void serverDecoderStepsAsideForAMethodItDoesNotKnow() {
        Socks5ServerDecoder decoder = new Socks5ServerDecoder();
        SocksFeed f = new SocksFeed(new Socks5ServerEncoder(), decoder).write(hex("05 01 81"));
        assertThat(f.writeOutbound(new Socks5InitialResponse(new Socks5AuthMethod(0x81)))).isEqualTo(hex("05 81"));
        assertThat(f.inPipeline(decoder)).isFalse();
        // The private method's subnegotiation is the application's: its bytes pass on untouched.
        f.write(hex("de ad"));
        assertThat(f.payload()).isEqualTo(hex("de ad"));
        f.finish();
    }

    @Test
    void unassignedReplyCodesAreKeptAndNamed() {
        SocksFeed f = new SocksFeed(new Socks5ClientDecoder()).write(concat(CHOOSE_NO_AUTH,
                hex("05 2a 00 01 00000000 0000")));
        Socks5CommandResponse r = (Socks5CommandResponse) f.messages().get(1);
        assertThat(r.status().isSuccess()).isFalse();
        assertThat(r.status()).hasToString("UNASSIGNED_0x2a");
        assertThat(Socks5CommandStatus.CONNECTION_REFUSED).hasToString("CONNECTION_REFUSED");
        f.finish();
    }

    @Test
    void aPasswordNeverAppearsInToString() {
        assertThat(new Socks5PasswordAuthRequest("alice", "s3cret").toString()).contains("alice")
                .doesNotContain("s3cret");
    }
}
