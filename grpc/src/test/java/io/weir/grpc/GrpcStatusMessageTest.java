package io.weir.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GrpcStatusMessageTest {

    @Test
    void printableAsciiButPercentIsKept() {
        assertThat(GrpcStatusMessage.encode("method not found: weir.Echo/X")).isEqualTo("method not found: weir.Echo/X");
    }

    @Test
    void percentControlAndNonAsciiAreEncodedAsUtf8() {
        assertThat(GrpcStatusMessage.encode("100% done\r\n")).isEqualTo("100%25 done%0D%0A");
        assertThat(GrpcStatusMessage.encode("café ☕")).isEqualTo("caf%C3%A9 %E2%98%95");
    }

    @Test
    void decodeReversesEncode() {
        for (String s : new String[] {"", "plain", "100% done\r\n", "café ☕", "%%%", "tab\there"}) {
            assertThat(GrpcStatusMessage.decode(GrpcStatusMessage.encode(s))).isEqualTo(s);
        }
    }

    @Test
    void malformedPercentSequencesAreKeptNotDropped() {
        assertThat(GrpcStatusMessage.decode("50%")).isEqualTo("50%");
        assertThat(GrpcStatusMessage.decode("50%z1 off")).isEqualTo("50%z1 off");
        assertThat(GrpcStatusMessage.decode("%4")).isEqualTo("%4");
        assertThat(GrpcStatusMessage.decode("bad utf-8 %FF")).isEqualTo("bad utf-8 \uFFFD");
    }
}
