package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.internal.Http2TestFrames.EMPTY_SETTINGS;
import static io.weir.handler.codec.http2.internal.Http2TestFrames.PREFACE;
import static io.weir.handler.codec.http2.internal.Http2TestFrames.bytes;
import static io.weir.handler.codec.http2.internal.Http2TestFrames.feed;
import static io.weir.handler.codec.http2.internal.Http2TestFrames.feedSplit;
import static io.weir.handler.codec.http2.internal.Http2TestFrames.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2Settings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Golden tests per frame type (bytes typed from the layouts of RFC 9113 §6), the preface, and split input. */
class Http2FrameReaderTest {

    private final RecordingFrameListener listener = new RecordingFrameListener();

    /** A client-side reader that has read the server's preface (an empty SETTINGS). */
    private Http2FrameReader client() throws Http2Exception {
        Http2FrameReader reader = new Http2FrameReader(false, listener);
        feed(reader, EMPTY_SETTINGS);
        listener.events.clear();
        return reader;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "DATA                   | 000005 00 01 00000001 68656c6c6f"
                + "| DATA s=1 pad=0 end=true data=68656c6c6f",
        "DATA, padded           | 000007 00 08 00000003 03 686921 000000"
                + "| DATA s=3 pad=4 end=false data=686921",
        "DATA, only padding     | 000003 00 08 00000003 02 0000"
                + "| DATA s=3 pad=3 end=false data=",
        "DATA, empty            | 000000 00 01 00000005"
                + "| DATA s=5 pad=0 end=true data=",
        "DATA, reserved bit     | 000001 00 00 80000001 ff"
                + "| DATA s=1 pad=0 end=false data=ff",
        "HEADERS                | 000003 01 05 00000001 828684"
                + "| HEADERS s=1 pad=0 end=true prio=false dep=0 w=16 ex=false block=828684",
        "HEADERS, prio, padded  | 00000a 01 2c 00000003 02 80000001 ff 8286 0000"
                + "| HEADERS s=3 pad=3 end=false prio=true dep=1 w=256 ex=true block=8286",
        "PRIORITY               | 000005 02 00 00000003 00000001 0f"
                + "| PRIORITY s=3 dep=1 w=16 ex=false",
        "PRIORITY, exclusive    | 000005 02 00 00000005 80000000 00"
                + "| PRIORITY s=5 dep=0 w=1 ex=true",
        "RST_STREAM             | 000004 03 00 00000001 00000008"
                + "| RST_STREAM s=1 code=8",
        "RST_STREAM, unknown    | 000004 03 00 00000001 ffffffff"
                + "| RST_STREAM s=1 code=4294967295",
        "SETTINGS               | 00000c 04 00 00000000 0003 00000064 0004 0000ffff"
                + "| SETTINGS Http2Settings{MAX_CONCURRENT_STREAMS=100, INITIAL_WINDOW_SIZE=65535}",
        "SETTINGS, unknown id   | 00000c 04 00 00000000 00ff 00000007 0002 00000000"
                + "| SETTINGS Http2Settings{ENABLE_PUSH=0}",
        "SETTINGS, last wins    | 00000c 04 00 00000000 0005 00004000 0005 00ffffff"
                + "| SETTINGS Http2Settings{MAX_FRAME_SIZE=16777215}",
        "SETTINGS, RFC 8441/9218| 00000c 04 00 00000000 0008 00000001 0009 00000001"
                + "| SETTINGS Http2Settings{ENABLE_CONNECT_PROTOCOL=1, NO_RFC7540_PRIORITIES=1}",
        "SETTINGS, ACK          | 000000 04 01 00000000"
                + "| SETTINGS_ACK",
        "PING                   | 000008 06 00 00000000 0102030405060708"
                + "| PING 102030405060708",
        "PING, ACK              | 000008 06 01 00000000 ffffffffffffffff"
                + "| PING_ACK ffffffffffffffff",
        "PUSH_PROMISE           | 000006 05 04 00000001 00000002 8287"
                + "| PUSH_PROMISE s=1 promised=2 pad=0 block=8287",
        "PUSH_PROMISE, padded   | 000008 05 0c 00000001 01 80000004 8287 00"
                + "| PUSH_PROMISE s=1 promised=4 pad=2 block=8287",
        "GOAWAY                 | 00000c 07 00 00000000 00000005 00000000 62796521"
                + "| GOAWAY last=5 code=0 debug=bye!",
        "GOAWAY, no debug data  | 000008 07 00 00000000 80000003 0000000b"
                + "| GOAWAY last=3 code=11 debug=",
        "WINDOW_UPDATE          | 000004 08 00 00000000 00010000"
                + "| WINDOW_UPDATE s=0 inc=65536",
        "WINDOW_UPDATE, stream  | 000004 08 00 00000007 ffffffff"
                + "| WINDOW_UPDATE s=7 inc=2147483647",
        "PRIORITY_UPDATE        | 000009 10 00 00000000 00000001 753d332c69"
                + "| PRIORITY_UPDATE s=1 value=u=3,i",
        "unknown type           | 000003 fa 07 00000005 010203"
                + "| UNKNOWN type=250 s=5 flags=7 payload=010203",
        "unknown type, stream 0 | 000000 0b 00 00000000"
                + "| UNKNOWN type=11 s=0 flags=0 payload=",
    })
    void readsGoldenFrame(String name, String hex, String expected) throws Exception {
        Http2FrameReader reader = client();
        assertThat(feed(reader, hex.trim())).isZero();
        assertThat(listener.events).containsExactly(expected.trim());
    }

    @Test
    void headerBlockIsAssembledFromContinuations() throws Exception {
        Http2FrameReader reader = client();
        feed(reader, "000002 01 01 00000001 8286" + "000001 09 00 00000001 84" + "000002 09 04 00000001 4188");
        assertThat(listener.events)
                .containsExactly("HEADERS s=1 pad=0 end=true prio=false dep=0 w=16 ex=false block=8286844188");
        assertThat(reader.isHeaderBlockOpen()).isFalse();
    }

    @Test
    void pushPromiseIsAssembledFromContinuations() throws Exception {
        Http2FrameReader reader = client();
        feed(reader, "000005 05 00 00000003 00000002 82" + "000001 09 04 00000003 87");
        assertThat(listener.events).containsExactly("PUSH_PROMISE s=3 promised=2 pad=0 block=8287");
    }

    @Test
    void headersDependingOnItselfAreDecodedThenResetTheStream() throws Exception {
        Http2FrameReader reader = client();
        assertThatThrownBy(() -> feed(reader, "000006 01 24 00000003 00000003 0f 82"))
                .isInstanceOfSatisfying(Http2Exception.class, e -> {
                    assertThat(e.error()).isEqualTo(Http2Error.PROTOCOL_ERROR);
                    assertThat(e.streamId()).isEqualTo(3);
                });
        // The block went to the HPACK side (its state must advance), not to the application.
        assertThat(listener.events).containsExactly("DISCARDED s=3 block=82");
        feed(reader, "000008 06 00 00000000 0000000000000001");
        assertThat(listener.events).endsWith("PING 1");
    }

    @Test
    void dataPayloadIsARegionOfTheInputBufferNotACopy() throws Exception {
        List<ByteBuf> seen = new ArrayList<>();
        Http2FrameReader reader = new Http2FrameReader(false, new RecordingFrameListener() {
            @Override
            public void onData(int streamId, ByteBuf data, int index, int length, int padding, boolean endStream) {
                seen.add(data);
                assertThat(data.getByte(index)).isEqualTo((byte) 0x68);
            }
        });
        ByteBuf in = Unpooled.wrappedBuffer(bytes(EMPTY_SETTINGS + "000002 00 00 00000001 6869"));
        try {
            reader.read(in);
            assertThat(seen).singleElement().isSameAs(in);
        } finally {
            in.release();
        }
    }

    @Test
    void serverReadsPrefaceThenSettings() throws Exception {
        Http2FrameReader reader = new Http2FrameReader(true, listener);
        assertThat(feed(reader, PREFACE + "000006 04 00 00000000 0002 00000000")).isZero();
        assertThat(listener.events).containsExactly("SETTINGS Http2Settings{ENABLE_PUSH=0}");
        assertThat(listener.lastSettings.has(Http2Settings.ENABLE_PUSH)).isTrue();
    }

    @Test
    void partialPrefaceIsNotConsumedUntilComplete() throws Exception {
        Http2FrameReader reader = new Http2FrameReader(true, listener);
        byte[] input = bytes(PREFACE + EMPTY_SETTINGS);
        for (int cut = 0; cut <= input.length; cut++) {
            listener.events.clear();
            Http2FrameReader r = new Http2FrameReader(true, listener);
            assertThat(feedSplit(r, input, cut)).isZero();
            assertThat(listener.events).as("cut at %d", cut).containsExactly("SETTINGS Http2Settings{}");
        }
        assertThat(reader.isFailed()).isFalse();
    }

    @Test
    void http1RequestToHttp2PortIsRejectedWithAClearMessage() {
        Http2FrameReader reader = new Http2FrameReader(true, listener);
        byte[] request = "GET /index.html HTTP/1.1\r\nHost: example.com\r\n\r\n".getBytes();
        ByteBuf in = Unpooled.wrappedBuffer(request);
        try {
            assertThatThrownBy(() -> reader.read(in)).isInstanceOfSatisfying(Http2Exception.class, e -> {
                assertThat(e.error()).isEqualTo(Http2Error.PROTOCOL_ERROR);
                assertThat(e.isConnectionError()).isTrue();
                assertThat(e.getMessage()).contains("HTTP/1.x request line").contains("\"GET /index.html HTTP/1.1\"");
            });
        } finally {
            in.release();
        }
        assertThat(reader.isFailed()).isTrue();
    }

    @Test
    void prefaceThatDivergesLateIsRejected() {
        Http2FrameReader reader = new Http2FrameReader(true, listener);
        assertThatThrownBy(() -> feed(reader, "505249202a20485454502f322e300d0a0d0a5858"))
                .isInstanceOfSatisfying(Http2Exception.class, e -> {
                    assertThat(e.error()).isEqualTo(Http2Error.PROTOCOL_ERROR);
                    assertThat(e.getMessage()).contains("not the preface").contains("PRI * HTTP/2.0");
                });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "PING first          | 000008 06 00 00000000 0000000000000000",
        "SETTINGS ACK first  | 000000 04 01 00000000",
        "HEADERS first       | 000001 01 05 00000001 82",
    })
    void firstFrameOtherThanSettingsIsRejected(String name, String hex) {
        Http2FrameReader reader = new Http2FrameReader(false, listener);
        assertThatThrownBy(() -> feed(reader, hex.trim())).isInstanceOfSatisfying(Http2Exception.class, e -> {
            assertThat(e.error()).isEqualTo(Http2Error.PROTOCOL_ERROR);
            assertThat(e.isConnectionError()).isTrue();
        });
        assertThat(listener.events).isEmpty();
    }

    /** Every frame type, padding and a header block over CONTINUATIONs, in one stream of bytes. */
    private static final String MIXED = PREFACE + EMPTY_SETTINGS
            + "000007 00 08 00000003 03 686921 000000"
            + "00000a 01 2c 00000003 02 80000001 ff 8286 0000"
            + "000002 01 01 00000005 8286" + "000000 09 00 00000005" + "000002 09 04 00000005 4188"
            + "000005 02 00 00000003 00000001 0f"
            + "000004 03 00 00000001 00000008"
            + "000000 04 01 00000000"
            + "000008 06 00 00000000 0102030405060708"
            + "00000c 07 00 00000000 00000005 00000000 62796521"
            + "000004 08 00 00000000 00010000"
            + "000009 10 00 00000000 00000001 753d332c69"
            + "000003 fa 07 00000005 010203"
            + "000005 00 01 00000001 68656c6c6f";

    @Test
    void framesSplitAtEveryByteBoundaryReadTheSame() throws Exception {
        byte[] input = bytes(MIXED);
        Http2FrameReader whole = new Http2FrameReader(true, listener);
        assertThat(feedSplit(whole, input)).isZero();
        List<String> expected = List.copyOf(listener.events);
        assertThat(expected).hasSize(13);
        for (int cut = 0; cut <= input.length; cut++) {
            listener.events.clear();
            Http2FrameReader reader = new Http2FrameReader(true, listener);
            assertThat(feedSplit(reader, input, cut)).isZero();
            assertThat(listener.events).as("cut at %d", cut).isEqualTo(expected);
        }
    }

    @Test
    void framesFedOneByteAtATimeReadTheSame() throws Exception {
        byte[] input = bytes(MIXED);
        Http2FrameReader whole = new Http2FrameReader(true, listener);
        feedSplit(whole, input);
        List<String> expected = List.copyOf(listener.events);
        listener.events.clear();
        int[] cuts = new int[input.length - 1];
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = i + 1;
        }
        Http2FrameReader reader = new Http2FrameReader(true, listener);
        assertThat(feedSplit(reader, input, cuts)).isZero();
        assertThat(listener.events).isEqualTo(expected);
    }

    @Test
    void manyFramesInOneReadAreAllDelivered() throws Exception {
        StringBuilder hex = new StringBuilder(EMPTY_SETTINGS);
        for (int i = 0; i < 1000; i++) {
            hex.append(frame(Http2Frames.DATA, 0, 2 * i + 1, "00010203"));
        }
        Http2FrameReader reader = new Http2FrameReader(false, listener);
        assertThat(feed(reader, hex.toString())).isZero();
        assertThat(listener.events).hasSize(1001).endsWith("DATA s=1999 pad=0 end=false data=00010203");
    }

    @Test
    void partialFrameIsLeftUnread() throws Exception {
        Http2FrameReader reader = client();
        assertThat(feed(reader, "000005 00 01 00000001 6865")).isEqualTo(2);
        assertThat(listener.events).isEmpty();
    }

    @Test
    void raisedMaxFrameSizeAcceptsLargerFrames() throws Exception {
        Http2FrameReader reader = client().maxFrameSize(1 << 15);
        StringBuilder payload = new StringBuilder();
        for (int i = 0; i < (1 << 15); i++) {
            payload.append("ab");
        }
        assertThat(feed(reader, frame(Http2Frames.DATA, 0, 1, payload.toString()))).isZero();
        assertThat(listener.events).hasSize(1);
    }

    @Test
    void limitsRejectOutOfRangeSettersWithTheValue() {
        Http2FrameReader reader = new Http2FrameReader(false, listener);
        assertThatThrownBy(() -> reader.maxFrameSize(16383)).hasMessageContaining("16383");
        assertThatThrownBy(() -> reader.maxFrameSize(1 << 24)).hasMessageContaining("16777216");
        assertThatThrownBy(() -> reader.maxHeaderBlockBytes(0)).hasMessageContaining("0");
        assertThatThrownBy(() -> reader.maxContinuationFrames(-1)).hasMessageContaining("-1");
        assertThat(Http2FrameReader.headerBlockLimitFor(8192)).isEqualTo(Http2FrameReader.DEFAULT_MAX_HEADER_BLOCK_BYTES);
    }
}
