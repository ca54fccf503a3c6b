package io.weir.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AsciiStringTest {

    /** AsciiString is both a CharSequence and a Comparable, which makes plain assertThat ambiguous. */
    private static org.assertj.core.api.ObjectAssert<Object> assertThatAscii(AsciiString value) {
        return new org.assertj.core.api.ObjectAssert<>(value);
    }

    @Test
    void hashMatchesStringHashSoMapsAgreeAcrossTypes() {
        for (String s : new String[] {"", "a", "content-type", "Host", "x-weir-\u00e9\u00ff", "polygenelubricants"}) {
            AsciiString a = new AsciiString(s);
            assertThat(a.hashCode()).as(s).isEqualTo(s.hashCode());
            assertThat(AsciiString.hashCode(s)).isEqualTo(a.hashCode());
            assertThat(AsciiString.hashCode(new StringBuilder(s))).isEqualTo(a.hashCode());
            assertThat(a.toString()).isEqualTo(s);
        }
        assertThat(AsciiString.hashCode(null)).isZero();
    }

    @Test
    void hashThatIsReallyZeroIsStillCorrectAndStable() {
        // "polygenelubricants" hashes to Integer.MIN_VALUE; the empty string and "\0" hash to 0.
        AsciiString zero = new AsciiString(new byte[] {0, 0});
        assertThat(zero.hashCode()).isZero().isEqualTo("\0\0".hashCode());
        assertThat(zero.hashCode()).isZero();
        assertThat(zero.hashCodeIgnoreCase()).isZero();
        assertThat(new AsciiString("polygenelubricants").hashCode()).isEqualTo(Integer.MIN_VALUE);
    }

    @Test
    void caseInsensitiveHashIsEqualForStringsEqualIgnoringCase() {
        String[][] pairs = {{"Content-Length", "content-length"}, {"HOST", "host"}, {"X-Forwarded-For", "x-FORWARDED-for"}};
        for (String[] pair : pairs) {
            AsciiString a = new AsciiString(pair[0]);
            AsciiString b = new AsciiString(pair[1]);
            assertThat(a.contentEqualsIgnoreCase(b)).isTrue();
            assertThat(a.contentEqualsIgnoreCase(pair[1])).isTrue();
            assertThat(AsciiString.contentEqualsIgnoreCase(pair[0], pair[1])).isTrue();
            assertThat(a.hashCodeIgnoreCase()).isEqualTo(b.hashCodeIgnoreCase())
                    .isEqualTo(AsciiString.hashCodeIgnoreCase(pair[1]))
                    .isEqualTo(AsciiString.hashCodeIgnoreCase(pair[0]));
            assertThatAscii(a).isNotEqualTo(b);
        }
        assertThat(new AsciiString("a-b").contentEqualsIgnoreCase("A_B")).isFalse();
        // '@' (0x40) and '`' (0x60) differ by the case bit but are not letters.
        assertThat(new AsciiString("@").contentEqualsIgnoreCase("`")).isFalse();
        assertThat(AsciiString.contentEqualsIgnoreCase(null, null)).isTrue();
        assertThat(AsciiString.contentEqualsIgnoreCase("a", null)).isFalse();
    }

    @Test
    void equalityIsByContentAndOnlyWithAsciiStrings() {
        byte[] bytes = "xxhelloxx".getBytes(StandardCharsets.US_ASCII);
        AsciiString shared = new AsciiString(bytes, 2, 5, false);
        AsciiString hello = new AsciiString("hello");
        assertThatAscii(shared).isEqualTo(hello).hasSameHashCodeAs(hello);
        assertThat(hello.equals("hello")).isFalse();
        assertThat(hello.contentEquals("hello")).isTrue();
        assertThat(hello.contentEquals(new StringBuilder("hello"))).isTrue();
        assertThat(hello.contentEquals("hellO")).isFalse();
        assertThat(AsciiString.contentEquals("hello", shared)).isTrue();
        assertThat(AsciiString.contentEquals(new StringBuilder("ab"), "ab")).isTrue();
        assertThat(AsciiString.contentEquals(null, "ab")).isFalse();
        assertThat(hello.compareTo("help")).isNegative().isEqualTo("hello".compareTo("help"));
        assertThat(hello.compareTo(new AsciiString("hell"))).isPositive();
        assertThat(new AsciiString("\u00ff").compareTo(new AsciiString("a"))).isPositive();
        assertThat(hello.compareTo(shared)).isZero();
    }

    @Test
    void charactersAboveLatin1BecomeQuestionMarks() {
        AsciiString a = new AsciiString("a\u20acb");
        assertThat(a.toString()).isEqualTo("a?b");
        assertThat(new AsciiString(new StringBuilder("\u0100x")).toString()).isEqualTo("?x");
        assertThat(AsciiString.cached("\u20ac").toString()).isEqualTo("\u20ac");
        assertThat(AsciiString.cached("\u20ac").byteAt(0)).isEqualTo((byte) '?');
        assertThat(new AsciiString("\u00e9").charAt(0)).isEqualTo('\u00e9');
    }

    @Test
    void cachedKeepsTheStringInstance() {
        String s = "content-type";
        assertThat(AsciiString.cached(s).toString()).isSameAs(s);
        AsciiString a = new AsciiString("x");
        assertThat(a.toString()).isSameAs(a.toString());
        assertThatAscii(AsciiString.of(a)).isSameAs(a);
        assertThatAscii(AsciiString.of("x")).isEqualTo(a);
    }

    @Test
    void subSequenceSharesTheArrayUnlessACopyIsAsked() {
        AsciiString a = new AsciiString("GET /index.html HTTP/1.1");
        AsciiString path = a.subSequence(4, 15);
        assertThat(path.toString()).isEqualTo("/index.html");
        assertThat(path.array()).isSameAs(a.array());
        assertThat(path.arrayOffset()).isEqualTo(4);
        assertThat(path.isEntireArrayUsed()).isFalse();
        AsciiString copy = a.subSequence(4, 15, true);
        assertThat(copy.array()).isNotSameAs(a.array());
        assertThat(copy.isEntireArrayUsed()).isTrue();
        assertThatAscii(copy).isEqualTo(path);
        assertThat(path.copy().isEntireArrayUsed()).isTrue();
        assertThatAscii(copy.copy()).isSameAs(copy);
        assertThatAscii(a.subSequence(0, a.length())).isSameAs(a);
        assertThatAscii(a.subSequence(3, 3)).isSameAs(AsciiString.EMPTY_STRING);
        assertThat(path.toByteArray()).isEqualTo("/index.html".getBytes(StandardCharsets.US_ASCII));
        assertThat(path.toByteArray(1, 6)).isEqualTo("index".getBytes(StandardCharsets.US_ASCII));
        byte[] dst = new byte[3];
        path.copy(1, dst, 0, 3);
        assertThat(new String(dst, StandardCharsets.US_ASCII)).isEqualTo("ind");
        assertThatThrownBy(() -> a.subSequence(5, 4)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> path.charAt(11)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> path.byteAt(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void byteArrayConstructorCopiesByDefault() {
        byte[] bytes = {'a', 'b'};
        AsciiString copied = new AsciiString(bytes);
        AsciiString shared = new AsciiString(bytes, false);
        bytes[0] = 'z';
        assertThat(copied.toString()).isEqualTo("ab");
        assertThat(shared.charAt(0)).isEqualTo('z');
        assertThatThrownBy(() -> new AsciiString(bytes, 1, 2, true)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void searchesMatchStringSemantics() {
        String s = "abcabcab";
        AsciiString a = new AsciiString("--" + s + "--").subSequence(2, 10);
        assertThat(a.indexOf('c')).isEqualTo(s.indexOf('c'));
        assertThat(a.indexOf('c', 3)).isEqualTo(s.indexOf('c', 3));
        assertThat(a.indexOf('-')).isEqualTo(-1);
        assertThat(a.indexOf('\u0163')).isEqualTo(-1);
        assertThat(a.indexOf("cab")).isEqualTo(s.indexOf("cab"));
        assertThat(a.indexOf("cab", 3)).isEqualTo(s.indexOf("cab", 3));
        assertThat(a.indexOf("ab-")).isEqualTo(-1);
        assertThat(a.indexOf("")).isEqualTo(s.indexOf(""));
        assertThat(a.lastIndexOf('a')).isEqualTo(s.lastIndexOf('a'));
        assertThat(a.lastIndexOf('a', 5)).isEqualTo(s.lastIndexOf('a', 5));
        assertThat(a.lastIndexOf("abc")).isEqualTo(s.lastIndexOf("abc"));
        assertThat(a.lastIndexOf("ab")).isEqualTo(s.lastIndexOf("ab"));
        assertThat(a.lastIndexOf("abc", 2)).isEqualTo(s.lastIndexOf("abc", 2));
        assertThat(a.contains("bca")).isTrue();
        assertThat(a.contains("--")).isFalse();
        assertThat(a.startsWith("abc")).isTrue();
        assertThat(a.startsWith("--")).isFalse();
        assertThat(a.endsWith("cab")).isTrue();
        assertThat(a.endsWith("ab--")).isFalse();
        assertThat(a.endsWith("xabcabcab")).isFalse();
        assertThat(a.regionMatches(true, 0, "ABC", 0, 3)).isTrue();
        assertThat(a.regionMatches(false, 0, "ABC", 0, 3)).isFalse();
        assertThat(a.regionMatches(false, 7, "bb", 0, 2)).isFalse();
    }

    @Test
    void caseConversionReturnsThisWhenNothingChanges() {
        AsciiString lower = new AsciiString("content-type: 1");
        assertThatAscii(lower.toLowerCase()).isSameAs(lower);
        assertThat(lower.toUpperCase().toString()).isEqualTo("CONTENT-TYPE: 1");
        AsciiString upper = new AsciiString("ETAG");
        assertThatAscii(upper.toUpperCase()).isSameAs(upper);
        assertThat(new AsciiString("x-Mixed-CASE").toLowerCase().toString()).isEqualTo("x-mixed-case");
        assertThat(new AsciiString("\u00c9A").toLowerCase().toString()).isEqualTo("\u00c9a");
    }

    @Test
    void trimAndSplitFollowString() {
        AsciiString padded = new AsciiString(" \t value \r\n");
        assertThat(padded.trim().toString()).isEqualTo("value");
        assertThat(padded.trim().array()).isSameAs(padded.array());
        AsciiString clean = new AsciiString("v");
        assertThatAscii(clean.trim()).isSameAs(clean);
        assertThat(new AsciiString("   ").trim().isEmpty()).isTrue();
        for (String s : new String[] {"a,b,c", "a,,b,", ",a", ",", "", "abc", "a,b,,,"}) {
            AsciiString[] parts = new AsciiString(s).split(',');
            String[] expected = s.split(",");
            assertThat(parts).as(s).hasSize(expected.length);
            for (int i = 0; i < parts.length; i++) {
                assertThat(parts[i].toString()).isEqualTo(expected[i]);
            }
        }
    }

    @Test
    void concatJoinsAndSkipsEmptyParts() {
        AsciiString a = new AsciiString("keep-");
        assertThat(a.concat("alive").toString()).isEqualTo("keep-alive");
        assertThatAscii(a.concat(new AsciiString("alive"))).isEqualTo(new AsciiString("keep-alive"));
        assertThatAscii(a.concat("")).isSameAs(a);
        assertThatAscii(AsciiString.EMPTY_STRING.concat(a)).isSameAs(a);
    }

    @Test
    void parsesDecimalsWithoutAllocatingStrings() {
        assertThat(new AsciiString("0").parseInt()).isZero();
        assertThat(new AsciiString("+42").parseInt()).isEqualTo(42);
        assertThat(new AsciiString("-2147483648").parseInt()).isEqualTo(Integer.MIN_VALUE);
        assertThat(new AsciiString("2147483647").parseInt()).isEqualTo(Integer.MAX_VALUE);
        assertThat(new AsciiString("9223372036854775807").parseLong()).isEqualTo(Long.MAX_VALUE);
        assertThat(new AsciiString("-9223372036854775808").parseLong()).isEqualTo(Long.MIN_VALUE);
        assertThat(new AsciiString("len=1234;").parseInt(4, 8)).isEqualTo(1234);
    }

    @Test
    void overflowingOrMalformedNumbersAreRejected() {
        for (String bad : new String[] {"2147483648", "-2147483649", "99999999999", "", "-", "+", "1a", " 1",
                "1 ", "0x10", "--1", "\u0661"}) {
            assertThatThrownBy(() -> new AsciiString(bad).parseInt()).as(bad)
                    .isInstanceOf(NumberFormatException.class);
        }
        for (String bad : new String[] {"9223372036854775808", "-9223372036854775809", "18446744073709551616"}) {
            assertThatThrownBy(() -> new AsciiString(bad).parseLong()).as(bad)
                    .isInstanceOf(NumberFormatException.class).hasMessageContaining(bad);
        }
    }

    @Test
    void forEachByteStopsWhereTheProcessorSays() {
        AsciiString line = new AsciiString("xxGET / HTTP/1.1\r\nHost").subSequence(2);
        assertThat(line.forEachByte(ByteProcessor.FIND_CRLF)).isEqualTo(14);
        assertThat(line.forEachByte(ByteProcessor.FIND_LF)).isEqualTo(15);
        assertThat(line.forEachByte(ByteProcessor.FIND_CR)).isEqualTo(14);
        assertThat(line.forEachByte(ByteProcessor.FIND_LINEAR_WHITESPACE)).isEqualTo(3);
        assertThat(line.forEachByte(4, 3, ByteProcessor.FIND_NON_WHITESPACE)).isEqualTo(4);
        assertThat(line.forEachByte(ByteProcessor.FIND_NUL)).isEqualTo(-1);
        assertThat(line.forEachByte(ByteProcessor.find((byte) '/'))).isEqualTo(4);
        assertThat(line.forEachByteDesc(0, line.length(), ByteProcessor.find((byte) '/'))).isEqualTo(10);
        assertThat(new AsciiString("  \t x").forEachByte(ByteProcessor.FIND_NON_WHITESPACE)).isEqualTo(4);
        assertThat(new AsciiString("\0\0a").forEachByte(ByteProcessor.FIND_NON_NUL)).isEqualTo(2);
        assertThat(new AsciiString("a;b,c").forEachByte(ByteProcessor.FIND_COMMA)).isEqualTo(3);
        assertThat(new AsciiString("a;b,c").forEachByte(ByteProcessor.FIND_SEMI_COLON)).isEqualTo(1);
        assertThat(new AsciiString("\r\r\nx").forEachByte(ByteProcessor.FIND_NON_CRLF)).isEqualTo(3);
        assertThatThrownBy(() -> line.forEachByte(10, 20, ByteProcessor.FIND_NUL))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }
}
