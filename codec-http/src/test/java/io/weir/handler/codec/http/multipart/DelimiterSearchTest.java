package io.weir.handler.codec.http.multipart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DelimiterSearchTest {

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** What find() must return, by trying every start in order. */
    private static int naive(byte[] delim, byte[] a, int from, int to) {
        for (int s = from; s < to; s++) {
            int avail = Math.min(delim.length, to - s);
            int k = 0;
            while (k < avail && a[s + k] == delim[k]) {
                k++;
            }
            if (k == avail) {
                return avail == delim.length ? s : -1 - s;
            }
        }
        return -1 - to;
    }

    /**
     * Random content over a few letters the delimiters are made of, with delimiters and their prefixes planted,
     * searched over random ranges: every answer, found, partial or none, matches trying every start.
     */
    @Test
    void agreesWithTryingEveryStartOnContentMadeOfDelimiterLetters() {
        String[] boundaries = {"ab", "aaaa", "a-b-a", "z".repeat(HttpPostMultipartRequestDecoder.MAX_BOUNDARY_LENGTH),
            "----WebKitFormBoundary7MA4YWxkTrZu0gW", "-"};
        byte[] letters = ascii("\r\n-abz");
        Random random = new Random(11);
        for (String boundary : boundaries) {
            byte[] delim = ascii("\r\n--" + boundary);
            DelimiterSearch search = new DelimiterSearch(delim);
            for (int round = 0; round < 3000; round++) {
                byte[] a = new byte[random.nextInt(1500)];
                for (int i = 0; i < a.length; i++) {
                    a[i] = random.nextInt(4) == 0 ? (byte) random.nextInt(256)
                            : letters[random.nextInt(letters.length)];
                }
                for (int plant = random.nextInt(3); plant > 0 && a.length > 0; plant--) {
                    int at = random.nextInt(a.length);
                    System.arraycopy(delim, 0, a, at, Math.min(random.nextInt(delim.length) + 1, a.length - at));
                }
                int from = a.length == 0 ? 0 : random.nextInt(a.length);
                int to = from + random.nextInt(a.length - from + 1);
                assertThat(search.find(a, from, to)).as("boundary %s, round %d", boundary, round)
                        .isEqualTo(naive(delim, a, from, to));
            }
        }
    }

    @Test
    void findsTheDelimiterAfterLongRandomContentAtEveryOffset() {
        byte[] delim = ascii("\r\n--" + "----WebKitFormBoundary7MA4YWxkTrZu0gW");
        DelimiterSearch search = new DelimiterSearch(delim);
        Random random = new Random(12);
        byte[] a = new byte[4096];
        for (int at = 0; at + delim.length <= a.length; at += 37) {
            random.nextBytes(a);
            for (int i = 0; i < a.length; i++) {
                if (a[i] == '\r') {
                    a[i] = 'x';
                }
            }
            System.arraycopy(delim, 0, a, at, delim.length);
            assertThat(search.find(a, 0, a.length)).isEqualTo(at);
            assertThat(search.find(a, 0, at + delim.length - 1)).as("cut one byte short").isEqualTo(-1 - at);
        }
    }

    @Test
    void refusesWhatIsNotADelimiter() {
        assertThatThrownBy(() -> new DelimiterSearch(ascii("\r\n--")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4");
        assertThatThrownBy(() -> new DelimiterSearch(ascii("xx--abc")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
