package io.weir.handler.codec.http2.internal.hpack;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2HeaderListSizeException;
import io.weir.handler.codec.http2.Http2Headers;
import java.util.Arrays;

/**
 * Fuzz target for {@link HpackDecoder}. Run as a plain test it replays the corpus under
 * {@code src/test/resources/io/weir/handler/codec/http2/internal/hpack/HpackDecoderFuzzTestInputs/decode/}; with
 * {@code JAZZER_FUZZ=1} Jazzer mutates it.
 *
 * <p>Input: byte 0 picks the settings (bit 0 server side, bit 1 trailers, bit 2 small limits, bit 3 a 256-byte
 * table, bit 4 decode from a direct buffer), byte 1 where the rest is split into two header blocks on one
 * connection. Invariants: the only exception is {@link Http2Exception}; after a stream error the decoder still
 * decodes; a decoded section respects the limits, and re-encoding it and decoding it again gives the same fields.
 */
class HpackDecoderFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void decode(byte[] data) {
        if (data.length < 2) {
            return;
        }
        int settings = data[0];
        boolean server = (settings & 1) != 0;
        boolean trailers = (settings & 2) != 0;
        boolean small = (settings & 4) != 0;
        boolean direct = (settings & 16) != 0;
        HpackDecoder decoder = new HpackDecoder(server);
        if (small) {
            decoder.maxHeaderListSize(256);
            decoder.maxHeaderCount(8, 16);
        }
        if ((settings & 8) != 0) {
            decoder.maxHeaderTableSize(256);
        }
        int split = 2 + (data[1] & 0xFF) % (data.length - 1);
        byte[][] blocks = {Arrays.copyOfRange(data, 2, split), Arrays.copyOfRange(data, split, data.length)};
        for (byte[] block : blocks) {
            Http2Headers headers;
            try {
                headers = decode(decoder, block, trailers, direct);
            } catch (Http2HeaderListSizeException e) {
                assertThat(e.seen()).isGreaterThan(e.limit());
                continue;
            } catch (Http2Exception e) {
                if (e.isConnectionError()) {
                    return;
                }
                continue;
            }
            checkInvariants(decoder, headers, server, trailers);
        }
    }

    private static void checkInvariants(HpackDecoder decoder, Http2Headers headers, boolean server, boolean trailers) {
        long size = 0;
        for (int i = 0; i < headers.size(); i++) {
            size += headers.name(i).length() + headers.value(i).length() + HpackDynamicTable.ENTRY_OVERHEAD_BYTES;
            CharSequence name = headers.name(i);
            for (int j = name.charAt(0) == ':' ? 1 : 0; j < name.length(); j++) {
                assertThat(HpackFieldValidator.isNameByte(name.charAt(j))).isTrue();
            }
        }
        assertThat(size).isLessThanOrEqualTo(decoder.maxHeaderListSize());
        assertThat(headers.size()).isLessThanOrEqualTo(decoder.maxHeaderCount());
        assertThat(decoder.table().size()).isLessThanOrEqualTo(decoder.table().capacity());

        HpackDecoder again = new HpackDecoder(server);
        ByteBuf buf = Unpooled.buffer();
        try {
            new HpackEncoder().encode(headers, buf);
            Http2Headers decoded = again.decode(HpackTestSupport.STREAM_ID, buf, trailers);
            assertThat(HpackTestSupport.fields(decoded)).isEqualTo(HpackTestSupport.fields(headers));
        } catch (Http2Exception e) {
            throw new AssertionError("re-encoded section failed to decode: " + e.getMessage(), e);
        } finally {
            buf.release();
        }
    }

    private static Http2Headers decode(HpackDecoder decoder, byte[] block, boolean trailers, boolean direct)
            throws Http2Exception {
        return HpackTestSupport.decode(decoder, block, trailers, direct);
    }
}
