package io.weir.handler.codec.socksx.v4;

import static io.weir.handler.codec.socksx.SocksFeed.concat;
import static io.weir.handler.codec.socksx.SocksFeed.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.handler.codec.socksx.SocksFeed;
import io.weir.handler.codec.socksx.SocksProtocolException;
import io.weir.handler.codec.socksx.SocksProtocolException.Reason;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile and malformed SOCKS4 bytes: a table of inputs with the exact refusal each gets, whole and byte by byte,
 * and tests named after the attacks they repel. A refusal passes nothing on, discards what follows and leaks
 * nothing.
 */
class Socks4DecoderAttackTest {

    record Row(String name, byte[] input, Reason reason) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Row> serverRows() {
        return Stream.of(
                new Row("HTTP request on a SOCKS port", "GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII),
                        Reason.UNSUPPORTED_VERSION),
                new Row("SOCKS5 greeting to a SOCKS4 server", hex("05 01 00"), Reason.UNSUPPORTED_VERSION),
                new Row("command 0", hex("04 00 0050 7f000001 00"), Reason.UNSUPPORTED_COMMAND),
                new Row("command 3 (UDP is SOCKS5 only)", hex("04 03 0050 7f000001 00"), Reason.UNSUPPORTED_COMMAND),
                new Row("command 0xff", hex("04 ff"), Reason.UNSUPPORTED_COMMAND),
                new Row("empty 4a host name", hex("04 01 0050 00000001 00 00"), Reason.MALFORMED),
                new Row("4a host name with a tab", concat(hex("04 01 0050 00000001 00"),
                        "exa\tmple".getBytes(StandardCharsets.US_ASCII), hex("00")), Reason.MALFORMED),
                new Row("4a host name with DEL", hex("04 01 0050 00000001 00 61 7f 62 00"), Reason.MALFORMED),
                new Row("user id that is not UTF-8", hex("04 01 0050 7f000001 c3 28 00"), Reason.MALFORMED),
                new Row("4a host name that is not UTF-8", hex("04 01 0050 000000ff 00 ff fe 00"), Reason.MALFORMED),
                new Row("user id over the cap", concat(hex("04 01 0050 7f000001"),
                        "a".repeat(256).getBytes(StandardCharsets.US_ASCII)),
                        Reason.FIELD_TOO_LONG));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serverRows")
    void serverDecoderRefuses(Row row) {
        new SocksFeed(new Socks4ServerDecoder()).write(row.input()).refusedFor(row.reason());
        new SocksFeed(new Socks4ServerDecoder()).writeByteByByte(row.input()).refusedFor(row.reason());
    }

    @Test
    void socks4UseridWithoutNulBeyondTheCapIsRejected() {
        byte[] endlessUserId = new byte[4096];
        Arrays.fill(endlessUserId, (byte) 'a');
        SocksFeed f = new SocksFeed(new Socks4ServerDecoder(32)).write(hex("04 01 0050 7f000001"));
        // Up to the cap the decoder waits for the NUL; one byte more and it refuses, without buffering the rest.
        f.write(Arrays.copyOf(endlessUserId, 32));
        assertThat(f.failure()).isNull();
        f.write(Arrays.copyOf(endlessUserId, 1));
        SocksProtocolException e = f.refusedFor(Reason.FIELD_TOO_LONG);
        assertThat(e.seen()).isEqualTo(33);
        assertThat(e.getMessage()).contains("user id").contains("32");
    }

    @Test
    void socks4aHostnameWithoutNulBeyondTheCapIsRejected() {
        byte[] endlessName = new byte[300];
        Arrays.fill(endlessName, (byte) 'h');
        SocksFeed f = new SocksFeed(new Socks4ServerDecoder())
                .write(concat(hex("04 01 0050 00000001 00"), endlessName));
        assertThat(f.refusedFor(Reason.FIELD_TOO_LONG).getMessage()).contains("host name").contains("255");
    }

    @Test
    void wrongVersionIsRejectedAtTheFirstByteWithWhatWasSeen() {
        SocksFeed f = new SocksFeed(new Socks4ServerDecoder()).write(hex("16"));
        SocksProtocolException e = f.refusedFor(Reason.UNSUPPORTED_VERSION);
        assertThat(e.seen()).isEqualTo(0x16);
        assertThat(e.getMessage()).contains("22").contains("expected 4");
    }

    static Stream<Row> clientRows() {
        return Stream.of(
                new Row("reply version 4 (must be 0)", hex("04 5a 0000 00000000"), Reason.UNSUPPORTED_VERSION),
                new Row("reply version 5", hex("05 00"), Reason.UNSUPPORTED_VERSION),
                new Row("status 0", hex("00 00 0000 00000000"), Reason.UNSUPPORTED_STATUS),
                new Row("status 94", hex("00 5e 0000 00000000"), Reason.UNSUPPORTED_STATUS),
                new Row("an HTTP proxy's answer", "HTTP/1.1 400 Bad Request\r\n".getBytes(StandardCharsets.US_ASCII),
                        Reason.UNSUPPORTED_VERSION));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clientRows")
    void clientDecoderRefuses(Row row) {
        new SocksFeed(new Socks4ClientDecoder()).write(row.input()).refusedFor(row.reason());
        new SocksFeed(new Socks4ClientDecoder()).writeByteByByte(row.input()).refusedFor(row.reason());
    }

    @Test
    void aSlowRequestIsHeldWithoutPassingAnythingOn() {
        Socks4ServerDecoder decoder = new Socks4ServerDecoder();
        SocksFeed f = new SocksFeed(decoder).write(hex("04 01 0050 7f000001 616263"));
        assertThat(f.messages()).isEmpty();
        assertThat(f.payload()).isEmpty();
        assertThat(f.inPipeline(decoder)).isTrue();
        f.finish();
    }
}
