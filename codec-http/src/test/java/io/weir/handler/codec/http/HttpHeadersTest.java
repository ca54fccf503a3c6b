package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.AsciiString;
import java.util.ArrayList;
import java.util.Date;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpHeadersTest {

    @Test
    void namesMatchIgnoringCaseWhateverTheirType() {
        HttpHeaders h = new DefaultHttpHeaders();
        h.add("Content-Type", "text/plain");
        assertThat(h.get("content-type")).isEqualTo("text/plain");
        assertThat(h.get(HttpHeaderNames.CONTENT_TYPE)).isEqualTo("text/plain");
        assertThat(h.get(new AsciiString("CONTENT-TYPE"))).isEqualTo("text/plain");
        assertThat(h.contains("cOnTeNt-TyPe")).isTrue();
        h.remove("CONTENT-type");
        assertThat(h.isEmpty()).isTrue();
    }

    @Test
    void iterationKeepsInsertionOrderAcrossNamesAndGrowth() {
        HttpHeaders h = new DefaultHttpHeaders();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String name = "x-h" + (i % 7);
            h.add(name, "v" + i);
            expected.add(name + "=v" + i);
        }
        List<String> seen = new ArrayList<>();
        for (Map.Entry<CharSequence, CharSequence> e : h) {
            seen.add(e.getKey() + "=" + e.getValue());
        }
        assertThat(seen).isEqualTo(expected);
        assertThat(h.size()).isEqualTo(200);
        assertThat(h.getAll("X-H3")).startsWith("v3", "v10", "v17").hasSize(29);
        assertThat(h.get("x-h3")).isEqualTo("v3");
        assertThat(h.names()).containsExactly("x-h0", "x-h1", "x-h2", "x-h3", "x-h4", "x-h5", "x-h6");
    }

    @Test
    void lookupsRemovalsAndOrderHoldWhileTheListTurnsIntoATableAndBack() {
        // Around MAX_LINEAR_ENTRIES the headers switch from a searched list to buckets; every size must agree.
        for (int n = DefaultHttpHeaders.MAX_LINEAR_ENTRIES - 2; n <= DefaultHttpHeaders.MAX_LINEAR_ENTRIES + 3; n++) {
            HttpHeaders h = new DefaultHttpHeaders();
            for (int i = 0; i < n; i++) {
                h.add("x-f" + (i % 5), "v" + i);
            }
            assertThat(h.size()).isEqualTo(n);
            assertThat(h.getAll("X-F1")).first().isEqualTo("v1");
            assertThat(h.valueIterator("x-f0")).toIterable().first().hasToString("v0");
            h.remove("x-f0");
            assertThat(h.contains("x-f0")).isFalse();
            assertThat(h.size()).isEqualTo(n - (n + 4) / 5);
            h.set("x-f1", "last");
            List<CharSequence> keys = new ArrayList<>();
            h.forEach(e -> keys.add(e.getKey()));
            assertThat(keys).last().hasToString("x-f1");
            assertThat(h.getAll("x-f1")).containsExactly("last");
            h.clear();
            assertThat(h.isEmpty()).isTrue();
            assertThat(h.iterator().hasNext()).isFalse();
            h.add("x-again", "1");
            assertThat(h.get("X-AGAIN")).isEqualTo("1");
        }
    }

    @Test
    void setReplacesEveryValueAndMovesTheFieldToTheEnd() {
        HttpHeaders h = new DefaultHttpHeaders();
        h.add("a", "1").add("b", "2").add("A", "3");
        h.set("a", "4");
        assertThat(h.entries()).extracting(Map.Entry::getKey).containsExactly("b", "a");
        assertThat(h.getAll("a")).containsExactly("4");
    }

    @Test
    void iteratorRemoveDropsOnlyTheCurrentField() {
        HttpHeaders h = new DefaultHttpHeaders();
        h.add("a", "1").add("b", "2").add("a", "3");
        for (Iterator<Map.Entry<CharSequence, CharSequence>> it = h.iterator(); it.hasNext(); ) {
            if (it.next().getValue().toString().equals("1")) {
                it.remove();
            }
        }
        assertThat(h.getAll("a")).containsExactly("3");
        assertThat(h.size()).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ok\r\nSet-Cookie: evil=1", "a\nb", "a\rb", "nul\0", "bell\u0007", "del\u007f"})
    void valuesWithControlCharactersAreRejectedNamingTheValue(String value) {
        HttpHeaders h = new DefaultHttpHeaders();
        assertThatThrownBy(() -> h.add("x-test", value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid value").hasMessageContaining("x-test");
        assertThatThrownBy(() -> h.set("x-test", new AsciiString(value))).isInstanceOf(IllegalArgumentException.class);
        assertThat(h.isEmpty()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "bad name", "colon:", "x\r\n", "(x)", "nul\0", "ä"})
    void namesThatAreNotTokensAreRejectedNamingTheName(String name) {
        HttpHeaders h = new DefaultHttpHeaders();
        assertThatThrownBy(() -> h.add(name, "v")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid header name");
        assertThatThrownBy(() -> h.add(new AsciiString(name), "v")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void headerNameCollidingWithAConstantsHashIsStillValidated() {
        // The constants of HttpHeaderNames skip the byte check, found by identity in a table keyed by hash code.
        // A name with the same hash code and a non-token byte must not pass as one of them: 'r', 0x84 hashes as
        // "se" does (31 * 'r' + 0x84 == 31 * 's' + 'e').
        AsciiString forged = new AsciiString(new byte[] {'r', (byte) 0x84, 'r', 'v', 'e', 'r'});
        assertThat(forged.hashCode()).isEqualTo(HttpHeaderNames.SERVER.hashCode());
        HttpHeaders h = new DefaultHttpHeaders();
        assertThatThrownBy(() -> h.set(forged, "v")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid header name");
        assertThatThrownBy(() -> h.add(new AsciiString("server\r\n"), "v"))
                .isInstanceOf(IllegalArgumentException.class);
        h.set(HttpHeaderNames.SERVER, "weir").set(new AsciiString("Server"), "weir");
        assertThat(h.getAll(HttpHeaderNames.SERVER)).containsExactly("weir");
    }

    @Test
    void charactersAboveLatin1AreRejectedRatherThanSilentlyReplaced() {
        assertThatThrownBy(() -> new DefaultHttpHeaders().add("x", "snow\u2603"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("U+2603");
    }

    @Test
    void injectionMessageShowsTheEscapedValue() {
        assertThatThrownBy(() -> new DefaultHttpHeaders().add("x", "a\r\nb"))
                .hasMessageContaining("\"a\\x0d\\x0ab\"");
    }

    @Test
    void tabsAndObsTextAreAllowedInValues() {
        HttpHeaders h = new DefaultHttpHeaders();
        h.add("x", "a\tb \u00e9");
        assertThat(h.get("x")).isEqualTo("a\tb \u00e9");
    }

    @Test
    void validationCanBeTurnedOffForPreCheckedInput() {
        HttpHeaders h = new DefaultHttpHeaders(false);
        h.add("bad name", "a\r\nb");
        assertThat(h.get("BAD NAME")).isEqualTo("a\r\nb");
    }

    @Test
    void commaSeparatedListsAreSearchedElementByElement() {
        HttpHeaders h = new DefaultHttpHeaders();
        h.add(HttpHeaderNames.CONNECTION, "keep-alive ,\tUpgrade").add(HttpHeaderNames.CONNECTION, "x");
        assertThat(h.containsValue("connection", "upgrade", true)).isTrue();
        assertThat(h.containsValue("connection", "upgrade", false)).isFalse();
        assertThat(h.containsValue("connection", "keep-alive", false)).isTrue();
        assertThat(h.containsValue("connection", "keep", true)).isFalse();
        assertThat(h.contains("connection", "x", false)).isTrue();
        assertThat(h.contains("connection", "upgrade", true)).isFalse();
    }

    @Test
    void numbersAndDatesAreReadAndWritten() {
        HttpHeaders h = new DefaultHttpHeaders();
        h.addInt("n", 42).add("bad", "4x2").add("big", "99999999999");
        assertThat(h.getInt("n")).isEqualTo(42);
        assertThat(h.getInt("bad")).isNull();
        assertThat(h.getInt("big", -1)).isEqualTo(-1);
        assertThat(h.getInt("missing", 7)).isEqualTo(7);
        assertThat(h.getLong("big", -1)).isEqualTo(99_999_999_999L);
        h.add(HttpHeaderNames.DATE, new Date(784_111_777_000L));
        assertThat(h.get("date")).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
        assertThat(h.getTimeMillis("date")).isEqualTo(784_111_777_000L);
        assertThat(h.getTimeMillis("n")).isNull();
        assertThat(h.getTimeMillis("n", 5L)).isEqualTo(5L);
    }

    @Test
    void nettyStyleAliasesAgree() {
        HttpHeaders h = new DefaultHttpHeaders().add("x", "1").add("X", "2").setTimeMillis("d", 0);
        assertThat(h.getAsString("x")).isEqualTo("1");
        assertThat(h.getAllAsString("x")).containsExactly("1", "2");
        assertThat(h.valueStringIterator("x").next()).isEqualTo("1");
        assertThat(h.valueCharSequenceIterator("x").hasNext()).isTrue();
        assertThat(h.get("d")).isEqualTo("Thu, 01 Jan 1970 00:00:00 GMT");
        h.addTimeMillis("d", 1000);
        assertThat(h.getAll("d")).hasSize(2);
    }

    @Test
    void copyIsIndependentAndSetAllReplacesOnlyGivenNames() {
        HttpHeaders a = new DefaultHttpHeaders();
        a.add("x", "1").add("y", "2");
        HttpHeaders b = a.copy();
        b.add("z", "3");
        assertThat(a.contains("z")).isFalse();
        HttpHeaders c = new DefaultHttpHeaders().add("x", "9").add("x", "10");
        a.setAll(c);
        assertThat(a.getAll("x")).containsExactly("9", "10");
        assertThat(a.get("y")).isEqualTo("2");
        assertThat(a.iteratorAsString().next().getKey()).isEqualTo("y");
        a.clear();
        assertThat(a.size()).isZero();
    }

    @Test
    void emptyHeadersRejectChanges() {
        assertThat(EmptyHttpHeaders.INSTANCE.get("x")).isNull();
        assertThat(EmptyHttpHeaders.INSTANCE.iterator().hasNext()).isFalse();
        assertThatThrownBy(() -> EmptyHttpHeaders.INSTANCE.add("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void entrySetValueIsValidated() {
        HttpHeaders h = new DefaultHttpHeaders().add("x", "1");
        Map.Entry<CharSequence, CharSequence> e = h.iterator().next();
        assertThatThrownBy(() -> e.setValue("a\nb")).isInstanceOf(IllegalArgumentException.class);
        e.setValue("2");
        assertThat(h.get("x")).isEqualTo("2");
    }
}
