package io.weir.handler.codec.http.cookie;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Fuzz targets for the cookie decoders. Run as plain tests they replay the corpus under
 * {@code src/test/resources/io/weir/handler/codec/http/cookie/CookieFuzzTestInputs/<method>/}; with
 * {@code JAZZER_FUZZ=1} Jazzer mutates it. Invariants: decoders never throw, every decoded cookie re-encodes
 * in the same mode without an exception (nothing decoded can inject header syntax) and decodes back equal.
 */
class CookieFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void serverDecoder(byte[] data) {
        String header = new String(data, StandardCharsets.ISO_8859_1);
        for (boolean strict : new boolean[] {true, false}) {
            ServerCookieDecoder decoder = strict ? ServerCookieDecoder.STRICT : ServerCookieDecoder.LAX;
            List<Cookie> cookies = decoder.decodeAll(header);
            assertThat(cookies.size()).isLessThanOrEqualTo(ServerCookieDecoder.MAX_COOKIES);
            if (cookies.isEmpty()) {
                continue;
            }
            String encoded = (strict ? ClientCookieEncoder.STRICT : ClientCookieEncoder.LAX).encode(cookies);
            assertThat(encoded).doesNotContain("\r", "\n", "\u0000");
            List<Cookie> again = decoder.decodeAll(encoded);
            assertThat(again).hasSameSizeAs(cookies);
            for (int i = 0; i < cookies.size(); i++) {
                assertThat(again.get(i).name()).isEqualTo(cookies.get(i).name());
                assertThat(again.get(i).value()).isEqualTo(cookies.get(i).value());
            }
        }
    }

    @FuzzTest(maxDuration = "30s")
    void clientDecoder(byte[] data) {
        String header = new String(data, StandardCharsets.ISO_8859_1);
        for (boolean strict : new boolean[] {true, false}) {
            Cookie c = (strict ? ClientCookieDecoder.STRICT : ClientCookieDecoder.LAX).decode(header);
            if (c == null) {
                continue;
            }
            String encoded;
            try {
                encoded = ServerCookieEncoder.LAX.encode(c);
            } catch (IllegalArgumentException e) {
                // Only an attribute the decoder took verbatim (domain) may be refused, never the name or value.
                assertThat(e).hasMessageContaining("domain of cookie");
                continue;
            }
            assertThat(encoded).doesNotContain("\r", "\n", "\u0000");
            Cookie back = ClientCookieDecoder.LAX.decode(encoded);
            assertThat(back).isNotNull();
            assertThat(back.name()).isEqualTo(c.name());
            assertThat(back.value()).isEqualTo(c.value());
        }
    }
}
