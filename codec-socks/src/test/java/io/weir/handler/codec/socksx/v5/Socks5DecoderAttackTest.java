package io.weir.handler.codec.socksx.v5;

import static io.weir.handler.codec.socksx.SocksFeed.concat;
import static io.weir.handler.codec.socksx.SocksFeed.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.socksx.SocksFeed;
import io.weir.handler.codec.socksx.SocksProtocolException;
import io.weir.handler.codec.socksx.SocksProtocolException.Reason;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile and malformed SOCKS5 bytes: tables of inputs with the exact refusal each gets (for the server decoder
 * after a no-authentication choice, and for the client decoder), whole and byte by byte, and tests named after the
 * attacks they repel. A refusal passes nothing on, discards what follows and leaks nothing.
 */
class Socks5DecoderAttackTest {

    record Row(String name, byte[] input, Reason reason) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Inputs after which the server chose no authentication (the greeting itself may be the offender). */
    static Stream<Row> serverRows() {
        byte[] noAuth = hex("05 01 00");
        return Stream.of(
                new Row("HTTP request on a SOCKS port", "GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII),
                        Reason.UNSUPPORTED_VERSION),
                new Row("SOCKS4 request to a SOCKS5 server", hex("04 01 0050 7f000001 00"),
                        Reason.UNSUPPORTED_VERSION),
                new Row("no method offered", hex("05 00"), Reason.MALFORMED),
                new Row("command with version 4", concat(noAuth, hex("04 01 00 01 7f000001 0050")),
                        Reason.UNSUPPORTED_VERSION),
                new Row("command 0", concat(noAuth, hex("05 00 00 01 7f000001 0050")), Reason.UNSUPPORTED_COMMAND),
                new Row("command 4", concat(noAuth, hex("05 04 00 01 7f000001 0050")), Reason.UNSUPPORTED_COMMAND),
                new Row("reserved byte 1", concat(noAuth, hex("05 01 01 01 7f000001 0050")), Reason.MALFORMED),
                new Row("address type 0", concat(noAuth, hex("05 01 00 00")), Reason.UNSUPPORTED_ADDRESS_TYPE),
                new Row("address type 2", concat(noAuth, hex("05 01 00 02 7f000001 0050")),
                        Reason.UNSUPPORTED_ADDRESS_TYPE),
                new Row("address type 5", concat(noAuth, hex("05 01 00 05")), Reason.UNSUPPORTED_ADDRESS_TYPE),
                new Row("empty domain name", concat(noAuth, hex("05 01 00 03 00 0050")), Reason.MALFORMED),
                new Row("domain name with a NUL", concat(noAuth, hex("05 01 00 03 03 61 00 62 0050")),
                        Reason.MALFORMED),
                new Row("domain name with CR LF", concat(noAuth, hex("05 01 00 03 04 61 0d 0a 62 0050")),
                        Reason.MALFORMED),
                new Row("domain name that is not UTF-8", concat(noAuth, hex("05 01 00 03 02 c0 af 0050")),
                        Reason.MALFORMED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serverRows")
    void serverDecoderRefuses(Row row) {
        serverChoosingNoAuth().write(row.input()).refusedFor(row.reason());
        serverChoosingNoAuth().writeByteByByte(row.input()).refusedFor(row.reason());
    }

    /** A server decoder whose server answers a greeting with "no authentication" as soon as it is decoded. */
    private static SocksFeed serverChoosingNoAuth() {
        return new SocksFeed(new Socks5ServerEncoder(), new Socks5ServerDecoder(), new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof Socks5InitialRequest) {
                    ctx.writeAndFlush(new Socks5InitialResponse(Socks5AuthMethod.NO_AUTH));
                }
                ctx.fireChannelRead(msg);
            }
        });
    }

    static Stream<Row> clientRows() {
        return Stream.of(
                new Row("method answer with version 4", hex("04 00"), Reason.UNSUPPORTED_VERSION),
                new Row("an HTTP proxy's answer", "HTTP/1.1 407 Proxy".getBytes(StandardCharsets.US_ASCII),
                        Reason.UNSUPPORTED_VERSION),
                new Row("verdict with version 5", hex("05 02 05 00"), Reason.UNSUPPORTED_VERSION),
                new Row("reply with version 1", hex("05 00 01 00 00 01"), Reason.UNSUPPORTED_VERSION),
                new Row("reply with reserved byte 0xff", hex("05 00 05 00 ff 01"), Reason.MALFORMED),
                new Row("reply with address type 7", hex("05 00 05 00 00 07"), Reason.UNSUPPORTED_ADDRESS_TYPE),
                new Row("reply with an empty domain", hex("05 00 05 00 00 03 00 0000"), Reason.MALFORMED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clientRows")
    void clientDecoderRefuses(Row row) {
        new SocksFeed(new Socks5ClientDecoder()).write(row.input()).refusedFor(row.reason());
        new SocksFeed(new Socks5ClientDecoder()).writeByteByByte(row.input()).refusedFor(row.reason());
    }

    @Test
    void unknownAddressTypeIsRejected() {
        SocksFeed f = serverChoosingNoAuth().write(hex("05 01 00"), hex("05 01 00 02"));
        SocksProtocolException e = f.refusedFor(Reason.UNSUPPORTED_ADDRESS_TYPE);
        assertThat(e.seen()).isEqualTo(2);
        assertThat(e.getMessage()).contains("address type 2");
    }

    @Test
    void domainLongerThan255IsRejected() {
        String name = "a".repeat(63) + '.' + "b".repeat(63) + '.' + "c".repeat(63) + '.' + "d".repeat(64);
        assertThat(name).hasSize(256);
        assertThatThrownBy(() -> Socks5CommandRequest.of(Socks5CommandType.CONNECT, name, 443))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("256 bytes")
                .hasMessageContaining("255");
        // 255 bytes is the most the length byte can say, and fits.
        assertThat(Socks5CommandRequest.of(Socks5CommandType.CONNECT, name.substring(1), 443).host()).hasSize(255);
        // Counted in bytes of UTF-8, not in characters.
        assertThatThrownBy(() -> Socks5CommandRequest.of(Socks5CommandType.CONNECT, "é".repeat(128), 443))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void usernameOrPasswordLongerThan255IsRejected() {
        assertThatThrownBy(() -> new Socks5PasswordAuthRequest("u".repeat(256), "p"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("username");
        assertThatThrownBy(() -> new Socks5PasswordAuthRequest("u", "p".repeat(256)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("password");
        assertThat(new Socks5PasswordAuthRequest("u".repeat(255), "p".repeat(255)).username()).hasSize(255);
    }

    @Test
    void skippingThePasswordTheServerAskedForIsRejected() {
        SocksFeed f = new SocksFeed(new Socks5ServerEncoder(), new Socks5ServerDecoder()).write(hex("05 02 00 02"));
        f.writeOutbound(new Socks5InitialResponse(Socks5AuthMethod.PASSWORD));
        // A client that goes straight to CONNECT: the decoder expects the RFC 1929 request (version 1).
        f.write(hex("05 01 00 01 7f000001 0050"));
        assertThat(f.refusedFor(Reason.UNSUPPORTED_VERSION).seen()).isEqualTo(5);
    }

    @Test
    void aCommandAfterARefusedPasswordIsDiscarded() {
        SocksFeed f = new SocksFeed(new Socks5ServerEncoder(), new Socks5ServerDecoder()).write(hex("05 01 02"));
        f.writeOutbound(new Socks5InitialResponse(Socks5AuthMethod.PASSWORD));
        f.write(concat(hex("01 01"), hex("61"), hex("01"), hex("62")));
        f.writeOutbound(Socks5PasswordAuthResponse.FAILURE);
        f.write(hex("05 01 00 01 7f000001 0050"));
        assertThat(f.failure()).isNull();
        assertThat(f.messages()).hasSize(2);
        assertThat(f.payload()).isEmpty();
        f.finish();
    }

    @Test
    void pipelinedBytesBeforeTheServerAnsweredAreRejected() {
        // The client must wait for the method choice; a command glued to the greeting is refused, not buffered.
        SocksFeed f = new SocksFeed(new Socks5ServerEncoder(), new Socks5ServerDecoder())
                .write(concat(hex("05 01 00"), hex("05 01 00 01 7f000001 0050")));
        assertThat(f.messages()).hasSize(1);
        assertThat(f.refusedFor(Reason.UNEXPECTED_MESSAGE).getMessage()).contains("before the server answered");
    }

    @Test
    void aPasswordThatIsNotUtf8IsRejectedRatherThanReplaced() {
        SocksFeed f = new SocksFeed(new Socks5ServerEncoder(), new Socks5ServerDecoder()).write(hex("05 01 02"));
        f.writeOutbound(new Socks5InitialResponse(Socks5AuthMethod.PASSWORD));
        f.write(hex("01 01 61 02 ff fe"));
        f.refusedFor(Reason.MALFORMED);
    }

    @Test
    void aHandshakeNeverHoldsMoreThanOneBoundedMessage() {
        // The longest password request: 255-byte name and password. Anything bigger cannot be announced.
        byte[] longest = concat(hex("01 ff"), "u".repeat(255).getBytes(StandardCharsets.US_ASCII), hex("ff"),
                "p".repeat(254).getBytes(StandardCharsets.US_ASCII));
        SocksFeed f = new SocksFeed(new Socks5ServerEncoder(), new Socks5ServerDecoder()).write(hex("05 01 02"));
        f.writeOutbound(new Socks5InitialResponse(Socks5AuthMethod.PASSWORD));
        f.write(longest);
        assertThat(f.messages()).hasSize(1);
        f.write(hex("70"));
        assertThat(f.messages()).hasSize(2);
        assertThat(((Socks5PasswordAuthRequest) f.messages().get(1)).password()).hasSize(255);
        f.finish();
    }
}
