package io.weir.handler.codec.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.AsciiString;
import org.junit.jupiter.api.Test;

class Http2HeadersTest {

    @Test
    void pseudoHeadersStayBeforeRegularFields() {
        Http2Headers h = new Http2Headers().add("accept", "*/*").method("GET").add("user-agent", "t").path("/x");
        assertThat(h.size()).isEqualTo(4);
        assertThat(h.pseudoHeaderCount()).isEqualTo(2);
        assertThat(h.name(0)).hasToString(":method");
        assertThat(h.name(1)).hasToString(":path");
        assertThat(h.name(2)).hasToString("accept");
        assertThat(h.name(3)).hasToString("user-agent");
        assertThat(h.method()).hasToString("GET");
        assertThat(h.path()).hasToString("/x");
        assertThat(h.status()).isNull();
    }

    @Test
    void multimapOperations() {
        Http2Headers h = new Http2Headers().add("a", "1").add("b", "2").add("a", "3");
        assertThat(h.get("a")).hasToString("1");
        assertThat(h.get(new AsciiString("a"))).hasToString("1");
        assertThat(h.getAll("a")).extracting(CharSequence::toString).containsExactly("1", "3");
        assertThat(h.contains("b")).isTrue();
        assertThat(h.contains("a", "3")).isTrue();
        assertThat(h.contains("a", "2")).isFalse();
        h.set("a", "4");
        assertThat(h.getAll("a")).extracting(CharSequence::toString).containsExactly("4");
        assertThat(h.name(0)).hasToString("a");
        assertThat(h.remove("a")).isTrue();
        assertThat(h.remove("a")).isFalse();
        assertThat(h.size()).isEqualTo(1);
        assertThat(h.toString()).isEqualTo("Http2Headers[b: 2]");
        h.status("200").status("204");
        assertThat(h.status()).hasToString("204");
        assertThat(h.pseudoHeaderCount()).isEqualTo(1);
        assertThat(h.remove(":status")).isTrue();
        assertThat(h.pseudoHeaderCount()).isZero();
        assertThat(h.clear().isEmpty()).isTrue();
    }

    @Test
    void growsPastItsInitialCapacity() {
        Http2Headers h = new Http2Headers(0, true);
        for (int i = 0; i < 100; i++) {
            h.add("x-" + i, "v" + i);
        }
        h.authority("a");
        assertThat(h.size()).isEqualTo(101);
        assertThat(h.name(0)).hasToString(":authority");
        assertThat(h.get("x-99")).hasToString("v99");
    }

    @Test
    void validatingInstanceRejectsInvalidFields() {
        Http2Headers h = new Http2Headers();
        assertThatThrownBy(() -> h.add("Host", "a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.add("", "a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.add("a b", "a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.add(":foo", "a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.add("a", "x\r\ny: z")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.add("a", "\0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.name(0)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(h.isEmpty()).isTrue();
        Http2Headers lenient = new Http2Headers(4, false).add("Host", "a");
        assertThat(lenient.get("Host")).hasToString("a");
    }

    @Test
    void pseudoHeaderSettersStillCheckTheirValuesAndReplaceEarlierOnes() {
        Http2Headers h = new Http2Headers();
        assertThatThrownBy(() -> h.status("20\r\n0")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(":status");
        assertThatThrownBy(() -> h.path("/a\0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.authority(null)).isInstanceOf(NullPointerException.class);
        assertThat(h.isEmpty()).isTrue();
        h.add("accept", "*/*").path("/a").method("GET").path("/b").add(":path", "/c").path("/d");
        assertThat(h.pseudoHeaderCount()).isEqualTo(2);
        assertThat(h.getAll(":path")).extracting(CharSequence::toString).containsExactly("/d");
        assertThat(h.name(0)).isSameAs(Http2Headers.PATH);
        assertThat(h.name(2)).hasToString("accept");
        // A lenient instance takes any value, as its add and set do.
        assertThat(new Http2Headers(4, false).status("2\r0").status()).hasToString("2\r0");
    }

    @Test
    void knowsTheDefinedPseudoHeaders() {
        assertThat(Http2Headers.isPseudoHeader(Http2Headers.STATUS)).isTrue();
        assertThat(Http2Headers.isPseudoHeader(new StringBuilder(":method"))).isTrue();
        assertThat(Http2Headers.isPseudoHeader("")).isFalse();
        assertThat(Http2Headers.isPseudoHeader(":protocol")).isTrue();
        assertThat(Http2Headers.isPseudoHeader(":foo")).isFalse();
        assertThat(Http2Headers.isPseudoHeader("path")).isFalse();
    }
}
