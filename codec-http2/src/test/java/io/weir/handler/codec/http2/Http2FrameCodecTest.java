package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.find;
import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static io.weir.handler.codec.http2.Http2FrameClient.post;
import static io.weir.handler.codec.http2.internal.Http2Frames.DATA;
import static io.weir.handler.codec.http2.internal.Http2Frames.GOAWAY;
import static io.weir.handler.codec.http2.internal.Http2Frames.HEADERS;
import static io.weir.handler.codec.http2.internal.Http2Frames.PING;
import static io.weir.handler.codec.http2.internal.Http2Frames.RST_STREAM;
import static io.weir.handler.codec.http2.internal.Http2Frames.SETTINGS;
import static io.weir.handler.codec.http2.internal.Http2Frames.WINDOW_UPDATE;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http2.Http2FrameClient.Event;
import io.weir.handler.codec.http2.internal.Http2Frames;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class Http2FrameCodecTest {

    private static Http2FrameClient client(Http2FrameCodec codec, FrameRecorder app) {
        return new Http2FrameClient(codec, app);
    }

    /** A request on stream 1 with the client's initial window set, answered with 100 octets of body. */
    private static Http2FrameStream respondWithHundredOctets(Http2FrameClient c, FrameRecorder app, int window) {
        c.raw(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()));
        c.settings(Http2Settings.INITIAL_WINDOW_SIZE, window);
        c.frame(SETTINGS, Http2Frames.FLAG_ACK, 0, new byte[0]);
        c.headers(1, get("/"), true);
        c.read();
        Http2FrameStream stream = app.of(Http2HeadersFrame.class).get(0).stream();
        c.channel.write(new Http2HeadersFrame(stream, new Http2Headers().status("200"), false));
        c.channel.writeAndFlush(new Http2DataFrame(stream, Unpooled.copiedBuffer(new byte[100]), true, 0));
        return stream;
    }

    @Test
    void serverAdvertisesItsLimitsAndAcknowledgesSettings() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app)) {
            c.raw(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()));
            c.frame(SETTINGS, 0, 0, new byte[0]);
            List<Event> events = c.read();
            assertThat(events.get(0).type()).isEqualTo(SETTINGS);
            assertThat(events.get(0).code()).isEqualTo(Http2FrameCodec.DEFAULT_MAX_CONCURRENT_STREAMS);
            assertThat(events).anyMatch(e -> e.type() == SETTINGS && e.ack());
            assertThat(events).anyMatch(e -> e.type() == WINDOW_UPDATE && e.streamId() == 0);
            assertThat(app.of(Http2SettingsFrame.class)).hasSize(1);
        }
    }

    @Test
    void requestIsFiredAndResponseWritten() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app).handshake()) {
            c.headers(1, get("/hello"), true);
            c.read();
            Http2HeadersFrame request = app.of(Http2HeadersFrame.class).get(0);
            assertThat(request.headers().path().toString()).isEqualTo("/hello");
            assertThat(request.endStream()).isTrue();
            assertThat(request.stream().id()).isEqualTo(1);
            c.channel.write(new Http2HeadersFrame(request.stream(), new Http2Headers().status("200"), false));
            c.channel.writeAndFlush(new Http2DataFrame(request.stream(), Unpooled.copiedBuffer(new byte[] {'h', 'i'}),
                    true, 0));
            List<Event> events = c.read();
            assertThat(find(events, HEADERS).headers().status().toString()).isEqualTo("200");
            Event data = find(events, DATA);
            assertThat(Http2FrameClient.text(data)).isEqualTo("hi");
            assertThat(data.endStream()).isTrue();
            assertThat(request.stream().isActive()).isFalse();
        }
    }

    @Test
    void pingIsAnswered() {
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), new FrameRecorder()).handshake()) {
            c.ping(0x1122334455667788L);
            Event pong = find(c.read(), PING);
            assertThat(pong.ack()).isTrue();
            assertThat(pong.code()).isEqualTo(0x1122334455667788L);
        }
    }

    @Test
    void unacknowledgedSettingsEndTheConnection() {
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), new FrameRecorder())) {
            c.raw(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()));
            c.frame(SETTINGS, 0, 0, new byte[0]);
            c.read();
            c.advance(Http2FrameCodec.DEFAULT_SETTINGS_ACK_TIMEOUT_MILLIS);
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.SETTINGS_TIMEOUT.code());
            assertThat(c.channel.isOpen()).isFalse();
        }
    }

    @Test
    void streamsBeyondTheLimitAreRefused() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodecBuilder.forServer().maxConcurrentStreams(3).build(), app)
                .handshake()) {
            for (int i = 0; i < 4; i++) {
                c.headers(1 + 2 * i, get("/"), false);
            }
            Event rst = find(c.read(), RST_STREAM);
            assertThat(rst.streamId()).isEqualTo(7);
            assertThat(rst.code()).isEqualTo(Http2Error.REFUSED_STREAM.code());
            assertThat(app.of(Http2HeadersFrame.class)).hasSize(3);
        }
    }

    @Test
    void rapidResetIsCutOff() {
        try (Http2FrameClient c = client(Http2FrameCodecBuilder.forServer().maxResetsPerWindow(50, 30_000).build(),
                new FrameRecorder()).handshake()) {
            for (int i = 0; i < 60; i++) {
                c.headers(1 + 2 * i, get("/"), false);
                c.rst(1 + 2 * i, Http2Error.CANCEL);
            }
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM.code());
            assertThat(c.channel.isOpen()).isFalse();
        }
    }

    @Test
    void resetsSpreadOverTimeAreAllowed() {
        try (Http2FrameClient c = client(Http2FrameCodecBuilder.forServer().maxResetsPerWindow(50, 1_000).build(),
                new FrameRecorder()).handshake()) {
            for (int i = 0; i < 120; i++) {
                c.headers(1 + 2 * i, get("/"), false);
                c.rst(1 + 2 * i, Http2Error.CANCEL);
                if (i % 40 == 39) {
                    c.read();
                    c.advance(1_000);
                }
            }
            assertThat(find(c.read(), GOAWAY)).isNull();
            assertThat(c.channel.isOpen()).isTrue();
        }
    }

    @Test
    void madeYouResetIsCutOff() {
        // MadeYouReset: frames that are only stream errors make the server reset streams it keeps counting.
        try (Http2FrameClient c = client(Http2FrameCodecBuilder.forServer().maxResetsPerWindow(50, 30_000).build(),
                new FrameRecorder()).handshake()) {
            for (int i = 0; i < 60; i++) {
                c.headers(1 + 2 * i, get("/"), true);
                // DATA on a half-closed (remote) stream: a stream error STREAM_CLOSED.
                c.data(1 + 2 * i, new byte[] {1}, false);
            }
            List<Event> events = c.read();
            assertThat(events).anyMatch(e -> e.type() == RST_STREAM && e.code() == Http2Error.STREAM_CLOSED.code());
            Event goAway = find(events, GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM.code());
        }
    }

    @Test
    void pingFloodIsCutOff() {
        try (Http2FrameClient c = client(Http2FrameCodecBuilder.forServer().maxQueuedControlFrames(100).build(),
                new FrameRecorder()).handshake()) {
            for (int i = 0; i < 200; i++) {
                c.ping(i);
            }
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM.code());
            assertThat(c.channel.isOpen()).isFalse();
        }
    }

    @Test
    void settingsFloodIsCutOff() {
        try (Http2FrameClient c = client(Http2FrameCodecBuilder.forServer().maxQueuedControlFrames(100).build(),
                new FrameRecorder()).handshake()) {
            for (int i = 0; i < 200; i++) {
                c.settings(Http2Settings.MAX_CONCURRENT_STREAMS, i);
            }
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM.code());
        }
    }

    @Test
    void emptyDataFloodIsCutOff() {
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), new FrameRecorder()).handshake()) {
            c.headers(1, post("/"), false);
            for (int i = 0; i <= Http2FrameCodec.DEFAULT_MAX_CONSECUTIVE_EMPTY_DATA_FRAMES; i++) {
                c.data(1, new byte[0], false);
            }
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM.code());
        }
    }

    @Test
    void continuationFloodIsCutOff() {
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), new FrameRecorder()).handshake()) {
            c.frame(HEADERS, 0, 1, new byte[] {(byte) 0x82});
            for (int i = 0; i < 100; i++) {
                c.frame(Http2Frames.CONTINUATION, 0, 1, new byte[0]);
            }
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM.code());
        }
    }

    @Test
    void contentLengthMismatchIsMalformed() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app).handshake()) {
            c.headers(1, post("/").add("content-length", "10"), false);
            c.data(1, new byte[5], true);
            Event rst = find(c.read(), RST_STREAM);
            assertThat(rst.code()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
            assertThat(app.of(Http2DataFrame.class)).isEmpty();
        }
    }

    @Test
    void requestMissingPathIsMalformed() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app).handshake()) {
            c.headers(1, new Http2Headers().method("GET").scheme("http").authority("a"), true);
            Event rst = find(c.read(), RST_STREAM);
            assertThat(rst.code()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
            assertThat(app.of(Http2HeadersFrame.class)).isEmpty();
            c.headers(3, get("/"), true);
            c.read();
            assertThat(app.of(Http2HeadersFrame.class)).hasSize(1);
        }
    }

    @Test
    void oversizedHeaderListIsRefused() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app).handshake()) {
            // Above the advertised 8 KiB plus the tolerance.
            c.headers(1, get("/").add("x-big", "a".repeat(11_000)), true);
            List<Event> events = c.read();
            assertThat(find(events, RST_STREAM)).isNotNull();
            assertThat(app.of(Http2HeadersFrame.class)).isEmpty();
        }
    }

    @Test
    void hpackBombIsRejected() {
        // One 4,000-octet field enters the dynamic table, then 20 one-octet references to it: a 80 KB list.
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), new FrameRecorder()).handshake()) {
            java.io.ByteArrayOutputStream block = new java.io.ByteArrayOutputStream();
            block.writeBytes(new byte[] {(byte) 0x82, (byte) 0x86, (byte) 0x84, 0x41, 0x01, 'a'});
            block.write(0x40); // literal with incremental indexing, new name
            block.write(0x05);
            block.writeBytes("x-big".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            block.write(0x7f); // value length 4000: 127 + 3873 as a 7-bit prefix integer
            int rest = 4000 - 127;
            block.write(0x80 | (rest & 0x7f));
            block.write(rest >>> 7);
            block.writeBytes("b".repeat(4000).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            for (int i = 0; i < 20; i++) {
                block.write(0xbe); // indexed field 62: the entry just added
            }
            c.frame(HEADERS, Http2Frames.FLAG_END_HEADERS | Http2Frames.FLAG_END_STREAM, 1, block.toByteArray());
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM.code());
        }
    }

    @Test
    void dynamicTableSizeAbuseIsRejected() {
        // A table size update above the SETTINGS_HEADER_TABLE_SIZE we advertised (4,096): RFC 7541 §6.3.
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), new FrameRecorder()).handshake()) {
            c.frame(HEADERS, Http2Frames.FLAG_END_HEADERS | Http2Frames.FLAG_END_STREAM, 1,
                    new byte[] {0x3f, (byte) 0xe1, (byte) 0xff, 0x03, (byte) 0x82, (byte) 0x86, (byte) 0x84});
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.COMPRESSION_ERROR.code());
        }
    }

    @Test
    void headerCountFloodIsRefused() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app).handshake()) {
            Http2Headers many = get("/");
            for (int i = 0; i < Http2FrameCodec.DEFAULT_MAX_HEADER_COUNT; i++) {
                many.add("x", "1");
            }
            c.headers(1, many, true);
            assertThat(find(c.read(), RST_STREAM)).isNotNull();
            assertThat(app.of(Http2HeadersFrame.class)).isEmpty();
        }
    }

    @Test
    void dataWaitsForTheStreamWindow() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app)) {
            Http2FrameStream stream = respondWithHundredOctets(c, app, 10);
            List<Event> first = c.read();
            assertThat(first.stream().filter(e -> e.type() == DATA).mapToInt(e -> e.data().length).sum())
                    .isEqualTo(10);
            Http2FrameCodec codec = c.channel.pipeline().get(Http2FrameCodec.class);
            assertThat(codec.isWritable(stream)).isFalse();
            c.windowUpdate(1, 90);
            List<Event> rest = c.read();
            assertThat(rest.stream().filter(e -> e.type() == DATA).mapToInt(e -> e.data().length).sum())
                    .isEqualTo(90);
            assertThat(rest.get(rest.size() - 1).endStream()).isTrue();
        }
    }

    @Test
    void dataOnAnIdleStreamDoesNotOvertakeStreamsWaitingForTheConnectionWindow() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app)) {
            c.raw(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()));
            c.settings(Http2Settings.INITIAL_WINDOW_SIZE, 1_000_000);
            c.frame(SETTINGS, Http2Frames.FLAG_ACK, 0, new byte[0]);
            c.headers(1, get("/large"), true);
            c.headers(3, get("/small"), true);
            c.read();
            List<Http2HeadersFrame> requests = app.of(Http2HeadersFrame.class);
            Http2FrameStream large = requests.get(0).stream();
            Http2FrameStream small = requests.get(1).stream();
            c.channel.write(new Http2HeadersFrame(large, new Http2Headers().status("200"), false));
            c.channel.writeAndFlush(new Http2DataFrame(large, Unpooled.copiedBuffer(new byte[70_000]), true, 0));
            c.channel.write(new Http2HeadersFrame(small, new Http2Headers().status("200"), false));
            c.channel.writeAndFlush(new Http2DataFrame(small, Unpooled.copiedBuffer(new byte[10]), true, 0));
            List<Event> first = c.read();
            assertThat(first.stream().filter(e -> e.type() == DATA && e.streamId() == 1)
                    .mapToInt(e -> e.data().length).sum()).as("the connection window's worth").isEqualTo(65_535);
            assertThat(first).as("stream 3 waits its turn").noneMatch(e -> e.type() == DATA && e.streamId() == 3);
            c.windowUpdate(0, 100_000);
            List<Event> rest = c.read().stream().filter(e -> e.type() == DATA).toList();
            assertThat(rest).extracting(Event::streamId).containsExactly(1, 3);
            assertThat(rest.get(0).data()).hasSize(70_000 - 65_535);
            assertThat(rest.get(1).data()).hasSize(10);
            assertThat(rest).allMatch(Event::endStream);
        }
    }

    @Test
    void aSettingsAckPrecedesTheDataItsLargerInitialWindowLetsThrough() {
        // h2spec 6.9.2: a response waits on a zero window; SETTINGS_INITIAL_WINDOW_SIZE 1 lets one octet through. The
        // ACK must come first, or a peer waiting for its ACK (as h2spec does) skips the DATA frame sent before it.
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app)) {
            respondWithHundredOctets(c, app, 0);
            assertThat(c.read()).noneMatch(e -> e.type() == DATA);
            c.settings(Http2Settings.INITIAL_WINDOW_SIZE, 1);
            List<Event> events = c.read();
            int ack = -1;
            int data = -1;
            for (int i = 0; i < events.size(); i++) {
                Event e = events.get(i);
                if (e.type() == SETTINGS && e.ack() && ack < 0) {
                    ack = i;
                } else if (e.type() == DATA && data < 0) {
                    data = i;
                    assertThat(e.data()).hasSize(1);
                }
            }
            assertThat(ack).as("SETTINGS ACK").isGreaterThanOrEqualTo(0);
            assertThat(data).as("DATA").isGreaterThan(ack);
            // The rest of the body once the stream window allows it.
            c.windowUpdate(1, 99);
            List<Event> rest = c.read();
            assertThat(rest.stream().filter(e -> e.type() == DATA).mapToInt(e -> e.data().length).sum())
                    .isEqualTo(99);
        }
    }

    @Test
    void receiveWindowIsRefilledOnlyAsTheApplicationConsumes() {
        FrameRecorder app = new FrameRecorder();
        Http2FrameCodec codec = Http2FrameCodec.forServer();
        try (Http2FrameClient c = client(codec, app).handshake()) {
            c.headers(1, post("/"), false);
            c.data(1, new byte[16_384], false);
            c.data(1, new byte[16_384], false);
            c.data(1, new byte[16_384], false);
            List<Event> events = c.read();
            assertThat(events).noneMatch(e -> e.type() == WINDOW_UPDATE && e.streamId() == 1);
            Http2FrameStream stream = app.of(Http2HeadersFrame.class).get(0).stream();
            c.channel.writeAndFlush(new Http2WindowUpdateFrame(stream, 3 * 16_384));
            assertThat(c.read()).anyMatch(e -> e.type() == WINDOW_UPDATE && e.streamId() == 1
                    && e.code() == 3 * 16_384);
        }
    }

    @Test
    void stalledStreamIsReset() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app)) {
            Http2FrameStream stream = respondWithHundredOctets(c, app, 0);
            c.read();
            c.advance(Http2FrameCodec.DEFAULT_STREAM_STALL_TIMEOUT_MILLIS);
            c.advance(Http2FrameCodec.DEFAULT_STREAM_STALL_TIMEOUT_MILLIS / 2);
            Event rst = find(c.read(), RST_STREAM);
            assertThat(rst.code()).isEqualTo(Http2Error.CANCEL.code());
            assertThat(stream.isActive()).isFalse();
        }
    }

    @Test
    void windowStallQueueRefusesNewStreamsButKeepsReading() {
        // A peer that opens no window while the server has much to send: no new stream is taken on, but frames
        // are still read, since the WINDOW_UPDATE that lets the queue drain comes the same way (stopping the
        // reads would wait for it forever).
        FrameRecorder app = new FrameRecorder();
        Http2FrameCodec codec = Http2FrameCodecBuilder.forServer().maxQueuedOutboundBytes(64).build();
        try (Http2FrameClient c = client(codec, app)) {
            Http2FrameStream stream = respondWithHundredOctets(c, app, 0);
            c.read();
            assertThat(c.channel.config().isAutoRead()).isTrue();
            c.headers(3, get("/refused"), true);
            Event refused = find(c.read(), RST_STREAM);
            assertThat(refused.streamId()).isEqualTo(3);
            assertThat(refused.code()).isEqualTo(Http2Error.REFUSED_STREAM.code());
            c.windowUpdate(1, 100);
            List<Event> events = c.read();
            assertThat(events.stream().filter(e -> e.type() == DATA).mapToInt(e -> e.data().length).sum())
                    .isEqualTo(100);
            assertThat(stream.isActive()).isFalse();
            c.headers(5, get("/served"), true);
            c.read();
            assertThat(find(c.read(), RST_STREAM)).as("a stream once the queue drained").isNull();
        }
    }

    @Test
    void gracefulCloseSendsTwoGoAways() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app).handshake()) {
            c.headers(1, get("/"), true);
            c.read();
            c.channel.close();
            List<Event> events = c.read();
            Event first = find(events, GOAWAY);
            assertThat(first.streamId()).isEqualTo(Http2Frames.MAX_STREAM_ID);
            Event ping = find(events, PING);
            c.frame(PING, Http2Frames.FLAG_ACK, 0, Http2FrameClient.long64(ping.code()));
            List<Event> second = c.read();
            assertThat(find(second, GOAWAY).streamId()).isEqualTo(1);
            assertThat(c.channel.isOpen()).isTrue(); // stream 1 still open
            Http2FrameStream stream = app.of(Http2HeadersFrame.class).get(0).stream();
            c.channel.writeAndFlush(new Http2HeadersFrame(stream, new Http2Headers().status("204"), true));
            c.read();
            assertThat(c.channel.isOpen()).isFalse();
        }
    }

    @Test
    void drainEventLetsTheStreamInFlightFinishBetweenTwoGoAways() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app).handshake()) {
            c.headers(1, get("/"), true);
            c.read();
            c.channel.pipeline().fireUserEventTriggered(io.weir.channel.ChannelDrainEvent.INSTANCE);
            List<Event> events = c.read();
            assertThat(find(events, GOAWAY).streamId()).isEqualTo(Http2Frames.MAX_STREAM_ID);
            c.frame(PING, Http2Frames.FLAG_ACK, 0, Http2FrameClient.long64(find(events, PING).code()));
            Event last = find(c.read(), GOAWAY);
            assertThat(last.streamId()).isEqualTo(1);
            assertThat(last.code()).isEqualTo(Http2Error.NO_ERROR.code());
            // A stream the client opens after the drain is ignored (§6.8), the one in flight is answered.
            c.headers(3, get("/late"), true);
            assertThat(app.of(Http2HeadersFrame.class)).hasSize(1);
            Http2FrameStream stream = app.of(Http2HeadersFrame.class).get(0).stream();
            c.channel.writeAndFlush(new Http2HeadersFrame(stream, new Http2Headers().status("204"), true));
            assertThat(find(c.read(), HEADERS)).as("the answer in flight").isNotNull();
            assertThat(c.channel.isOpen()).as("closed once no stream is left").isFalse();
        }
    }

    @Test
    void streamIdExhaustionEndsInACleanGoAway() {
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), new FrameRecorder()).handshake()) {
            c.headers(Http2Frames.MAX_STREAM_ID, get("/"), true);
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.NO_ERROR.code());
        }
    }

    @Test
    void headersOnALowerNeverOpenedStreamIdIsAProtocolError() {
        // RFC 9113 §5.1.1: stream 5 opened, then HEADERS on stream 3, which the peer skipped.
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), new FrameRecorder()).handshake()) {
            c.headers(5, get("/"), false);
            c.headers(3, get("/"), true);
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
        }
    }

    @Test
    void headersOnAStreamThatEndedIsStreamClosed() {
        // RFC 9113 §5.1: a stream opened and ended, then a new header section on it.
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app).handshake()) {
            c.headers(1, get("/"), true);
            c.read();
            Http2FrameStream stream = app.of(Http2HeadersFrame.class).get(0).stream();
            c.channel.writeAndFlush(new Http2HeadersFrame(stream, new Http2Headers().status("204"), true));
            assertThat(find(c.read(), HEADERS)).isNotNull();
            c.headers(1, get("/"), true);
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.STREAM_CLOSED.code());
        }
    }

    @Test
    void dataOnAnIdleStreamIsAConnectionError() {
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), new FrameRecorder()).handshake()) {
            c.data(5, new byte[1], true);
            assertThat(find(c.read(), GOAWAY).code()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
        }
    }

    @Test
    void rfc9218PriorityIsParsed() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app).handshake()) {
            c.headers(1, get("/").add("priority", "u=1, i"), true);
            c.read();
            Http2FrameStream stream = app.of(Http2HeadersFrame.class).get(0).stream();
            assertThat(stream.urgency()).isEqualTo(1);
            assertThat(stream.incremental()).isTrue();
        }
    }

    @Test
    void goAwayDebugDataDoesNotLeakTheErrorDetails() {
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), new FrameRecorder()).handshake()) {
            c.data(5, new byte[] {1}, false);
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
            assertThat(new String(goAway.data(), StandardCharsets.US_ASCII)).isEqualTo("protocol error");
        }
    }

    @Test
    void goAwayAfterAnInternalErrorCarriesNoDebugData() {
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), new FrameRecorder()).handshake()) {
            c.channel.pipeline().fireExceptionCaught(new IllegalStateException("Cannot invoke \"get(int)\" because"
                    + " \"this.c.streams\" is null"));
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.INTERNAL_ERROR.code());
            assertThat(goAway.data()).isEmpty();
            assertThat(c.channel.isOpen()).isFalse();
        }
    }

    @Test
    void framesSplitAcrossManyReadsAreReassembledWhileDataIsHeld() {
        FrameRecorder app = new FrameRecorder();
        app.keepData = true;
        try (Http2FrameClient c = client(Http2FrameCodec.forServer(), app).handshake()) {
            byte[] body = new byte[40_000];
            for (int i = 0; i < body.length; i++) {
                body[i] = (byte) (i * 31);
            }
            c.headers(1, post("/upload"), false);
            for (int off = 0; off < body.length; off += 10_000) {
                c.data(1, java.util.Arrays.copyOfRange(body, off, off + 10_000), off + 10_000 == body.length);
            }
            io.weir.buffer.ByteBuf wire = c.takePending();
            // Pieces that never line up with a frame boundary, so every read leaves part of a frame behind.
            while (wire.isReadable()) {
                c.channel.writeInbound(wire.readRetainedSlice(Math.min(1_237, wire.readableBytes())));
            }
            wire.release();
            assertThat(app.of(Http2HeadersFrame.class)).hasSize(1);
            io.weir.buffer.ByteBuf received = Unpooled.buffer(body.length);
            for (Http2DataFrame data : app.of(Http2DataFrame.class)) {
                received.writeBytes(data.content(), data.content().readerIndex(), data.content().readableBytes());
            }
            byte[] bytes = new byte[received.readableBytes()];
            received.readBytes(bytes);
            received.release();
            assertThat(bytes).isEqualTo(body);
            assertThat(app.of(Http2DataFrame.class).get(app.of(Http2DataFrame.class).size() - 1).endStream()).isTrue();
            app.releaseAll();
        }
    }
}
