package io.weir.handler.codec.socksx.v4;

import static io.weir.handler.codec.socksx.SocksFeed.concat;
import static io.weir.handler.codec.socksx.SocksFeed.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.handler.codec.socksx.SocksFeed;
import io.weir.handler.codec.socksx.SocksVersion;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SOCKS4 and 4a messages byte for byte, both directions: what each encoder writes, what each decoder reads from
 * the same bytes (whole and cut into every read size), and that each decoder steps aside after its message.
 */
class Socks4CodecTest {
    /** CONNECT 192.0.2.1:80 as user "fred": the plain SOCKS4 request. */
    static final byte[] CONNECT_IPV4 = hex("04 01 0050 c0000201 66726564 00");
    /** CONNECT example.com:443 with an empty user id: the 4a form, DSTIP 0.0.0.1 and the name after the user id. */
    static final byte[] CONNECT_4A = concat(hex("04 01 01bb 00000001 00"),
            "example.com".getBytes(StandardCharsets.US_ASCII), hex("00"));
    static final byte[] GRANTED = hex("00 5a 0000 00000000");

    @Test
    void clientEncoderWritesPlainSocks4ForAnIpv4Destination() {
        SocksFeed f = new SocksFeed(new Socks4ClientEncoder());
        assertThat(f.writeOutbound(new Socks4CommandRequest(Socks4CommandType.CONNECT, "192.0.2.1", 80, "fred")))
                .isEqualTo(CONNECT_IPV4);
        f.finish();
    }

    @Test
    void clientEncoderWritesSocks4aForAHostName() {
        SocksFeed f = new SocksFeed(new Socks4ClientEncoder());
        Socks4CommandRequest request = Socks4CommandRequest.connect("example.com", 443);
        assertThat(request.isSocks4a()).isTrue();
        assertThat(f.writeOutbound(request)).isEqualTo(CONNECT_4A);
        f.finish();
    }

    @Test
    void anIpv4LiteralThatLooksLikeTheSocks4aMarkerTravelsAsAName() {
        // DSTIP 0.0.0.7 would tell the proxy "a host name follows": the literal goes as a name instead.
        Socks4CommandRequest request = Socks4CommandRequest.connect("0.0.0.7", 1);
        assertThat(request.isSocks4a()).isTrue();
        SocksFeed f = new SocksFeed(new Socks4ClientEncoder());
        assertThat(f.writeOutbound(request)).isEqualTo(concat(hex("04 01 0001 00000001 00"),
                "0.0.0.7".getBytes(StandardCharsets.US_ASCII), hex("00")));
        f.finish();
        assertThat(Socks4CommandRequest.connect("0.0.0.0", 1).isSocks4a()).isFalse();
    }

    @ParameterizedTest(name = "reads of {0} byte(s)")
    @ValueSource(ints = {1, 2, 3, 7, 8, 9, 100})
    void serverDecoderReadsBothFormsInAnyCutAndStepsAside(int step) {
        Socks4ServerDecoder decoder = new Socks4ServerDecoder();
        SocksFeed f = new SocksFeed(decoder).writeInSteps(concat(CONNECT_IPV4, hex("aabbcc")), step);
        assertThat(f.message(Socks4CommandRequest.class))
                .isEqualTo(new Socks4CommandRequest(Socks4CommandType.CONNECT, "192.0.2.1", 80, "fred"));
        assertThat(f.payload()).isEqualTo(hex("aabbcc"));
        assertThat(f.order()).startsWith("MB");
        assertThat(f.inPipeline(decoder)).isFalse();
        f.finish();

        Socks4ServerDecoder decoder4a = new Socks4ServerDecoder();
        SocksFeed g = new SocksFeed(decoder4a).writeInSteps(CONNECT_4A, step);
        Socks4CommandRequest r = g.message(Socks4CommandRequest.class);
        assertThat(r).isEqualTo(Socks4CommandRequest.connect("example.com", 443));
        assertThat(r.version()).isEqualTo(SocksVersion.SOCKS4A);
        assertThat(g.inPipeline(decoder4a)).isFalse();
        g.finish();
    }

    @Test
    void serverDecoderReadsBind() {
        SocksFeed f = new SocksFeed(new Socks4ServerDecoder()).write(hex("04 02 1f90 0a000001 00"));
        assertThat(f.message(Socks4CommandRequest.class))
                .isEqualTo(new Socks4CommandRequest(Socks4CommandType.BIND, "10.0.0.1", 8080, ""));
        f.finish();
    }

    @Test
    void serverDecoderAcceptsFieldsExactlyAtTheCap() {
        byte[] userId = "u".repeat(16).getBytes(StandardCharsets.US_ASCII);
        byte[] host = "h".repeat(16).getBytes(StandardCharsets.US_ASCII);
        SocksFeed f = new SocksFeed(new Socks4ServerDecoder(16))
                .write(concat(hex("04 01 0050 00000009"), userId, hex("00"), host, hex("00")));
        Socks4CommandRequest r = f.message(Socks4CommandRequest.class);
        assertThat(r.userId()).isEqualTo("u".repeat(16));
        assertThat(r.host()).isEqualTo("h".repeat(16));
        f.finish();
    }

    @Test
    void serverDecoderReadsUtf8UserIds() {
        SocksFeed f = new SocksFeed(new Socks4ServerDecoder()).write(concat(hex("04 01 0050 7f000001"),
                "jürgen".getBytes(StandardCharsets.UTF_8), hex("00")));
        assertThat(f.message(Socks4CommandRequest.class).userId()).isEqualTo("jürgen");
        f.finish();
    }

    @Test
    void serverEncoderAndClientDecoderAgreeOnTheReply() {
        SocksFeed server = new SocksFeed(new Socks4ServerEncoder());
        assertThat(server.writeOutbound(Socks4CommandResponse.of(Socks4CommandStatus.GRANTED))).isEqualTo(GRANTED);
        assertThat(server.writeOutbound(new Socks4CommandResponse(Socks4CommandStatus.REJECTED, "198.51.100.4",
                1080))).isEqualTo(hex("00 5b 0438 c6336404"));
        server.finish();

        Socks4ClientDecoder decoder = new Socks4ClientDecoder();
        SocksFeed client = new SocksFeed(decoder).writeByteByByte(concat(GRANTED, hex("48 54")));
        assertThat(client.message(Socks4CommandResponse.class))
                .isEqualTo(Socks4CommandResponse.of(Socks4CommandStatus.GRANTED));
        assertThat(client.payload()).isEqualTo(hex("48 54"));
        assertThat(client.inPipeline(decoder)).isFalse();
        client.finish();
    }

    @ParameterizedTest(name = "status {0}")
    @ValueSource(ints = {90, 91, 92, 93})
    void clientDecoderReadsEveryStatus(int code) {
        SocksFeed f = new SocksFeed(new Socks4ClientDecoder()).write(hex("00" + Integer.toHexString(code)
                + "0000 00000000"));
        Socks4CommandStatus status = f.message(Socks4CommandResponse.class).status();
        assertThat(status.code()).isEqualTo(code);
        assertThat(status.isSuccess()).isEqualTo(code == 90);
        f.finish();
    }

    @Test
    void requestsRefuseWhatTheWireCannotCarry() {
        assertThatThrownBy(() -> Socks4CommandRequest.connect("", 80)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Socks4CommandRequest.connect("a\0b", 80))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Socks4CommandRequest.connect("example.com", 65536))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Socks4CommandRequest(Socks4CommandType.CONNECT, "example.com", 80, "a\0"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Socks4CommandResponse(Socks4CommandStatus.GRANTED, "::1", 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
