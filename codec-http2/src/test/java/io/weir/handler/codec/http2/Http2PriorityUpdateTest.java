package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.find;
import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static io.weir.handler.codec.http2.internal.Http2Frames.GOAWAY;
import static io.weir.handler.codec.http2.internal.Http2Frames.PRIORITY;
import static io.weir.handler.codec.http2.internal.Http2Frames.PRIORITY_UPDATE;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http2.Http2FrameClient.Event;
import io.weir.handler.codec.http2.internal.Http2Frames;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** RFC 9218 priorities: the {@code priority} field and PRIORITY_UPDATE frames (§7.1), and RFC 7540 PRIORITY. */
class Http2PriorityUpdateTest {

    @Test
    void priorityUpdateReprioritizesAnOpenStream() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), app).handshake()) {
            c.headers(1, get("/").add("priority", "u=5"), false);
            c.read();
            Http2FrameStream stream = app.of(Http2HeadersFrame.class).get(0).stream();
            assertThat(stream.urgency()).isEqualTo(5);
            c.priorityUpdate(1, "u=0, i");
            c.read();
            assertThat(stream.urgency()).isZero();
            assertThat(stream.incremental()).isTrue();
            Http2PriorityUpdateFrame fired = app.of(Http2PriorityUpdateFrame.class).get(0);
            assertThat(fired.stream()).isSameAs(stream);
            assertThat(fired.urgency()).isZero();
            assertThat(fired.incremental()).isTrue();
            // Each signal is complete: what it leaves out goes back to the default (RFC 9218 §4).
            c.priorityUpdate(1, "");
            c.read();
            assertThat(stream.urgency()).isEqualTo(3);
            assertThat(stream.incremental()).isFalse();
            assertThat(c.channel.isOpen()).isTrue();
        }
    }

    @Test
    void priorityUpdateBeforeTheRequestIsAppliedWhenItOpens() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), app).handshake()) {
            c.priorityUpdate(3, "u=1");
            c.headers(3, get("/").add("priority", "u=6, i"), true);
            c.headers(5, get("/").add("priority", "u=6, i"), true);
            c.read();
            List<Http2HeadersFrame> requests = app.of(Http2HeadersFrame.class);
            assertThat(requests.get(0).stream().urgency()).isEqualTo(1);
            assertThat(requests.get(0).stream().incremental()).isFalse();
            assertThat(requests.get(1).stream().urgency()).isEqualTo(6);
            assertThat(requests.get(1).stream().incremental()).isTrue();
        }
    }

    @Test
    void prioritizedIdleStreamFloodIsRejected() {
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodecBuilder.forServer().maxConcurrentStreams(3)
                .build(), new FrameRecorder()).handshake()) {
            c.headers(1, get("/"), false);
            // One active stream leaves room for two prioritized idle ones; signals repeated for one id count once.
            for (int i = 0; i < 1000; i++) {
                c.priorityUpdate(3, "u=1");
            }
            c.priorityUpdate(5, "u=1");
            assertThat(find(c.read(), GOAWAY)).isNull();
            c.priorityUpdate(7, "u=1");
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
            assertThat(c.channel.isOpen()).isFalse();
        }
    }

    @Test
    void signalsForStreamsClosedBySkippingThemAreForgotten() {
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodecBuilder.forServer().maxConcurrentStreams(2)
                .build(), new FrameRecorder()).handshake()) {
            c.priorityUpdate(1, "u=1");
            c.priorityUpdate(3, "u=1");
            // Opening 5 closes idle streams 1 and 3 (RFC 9113 §5.1.1): their signals no longer take room.
            c.headers(5, get("/"), false);
            c.priorityUpdate(7, "u=1");
            assertThat(find(c.read(), GOAWAY)).isNull();
            assertThat(c.channel.isOpen()).isTrue();
        }
    }

    @Test
    void priorityUpdateForAnUnpromisedPushStreamIsAConnectionError() {
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), new FrameRecorder())
                .handshake()) {
            c.priorityUpdate(2, "u=1");
            assertThat(find(c.read(), GOAWAY).code()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
        }
    }

    @Test
    void malformedPriorityUpdateFramesAreConnectionErrors() {
        assertThat(goAwayCodeAfter(c -> c.frame(PRIORITY_UPDATE, 0, 1, Http2FrameClient.int32(1))))
                .as("not on stream 0").isEqualTo(Http2Error.PROTOCOL_ERROR.code());
        assertThat(goAwayCodeAfter(c -> c.priorityUpdate(0, "u=1")))
                .as("prioritizing stream 0").isEqualTo(Http2Error.PROTOCOL_ERROR.code());
        assertThat(goAwayCodeAfter(c -> c.frame(PRIORITY_UPDATE, 0, 0, new byte[3])))
                .as("shorter than a stream id").isEqualTo(Http2Error.FRAME_SIZE_ERROR.code());
    }

    private static long goAwayCodeAfter(Consumer<Http2FrameClient> send) {
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), new FrameRecorder())
                .handshake()) {
            send.accept(c);
            return find(c.read(), GOAWAY).code();
        }
    }

    @Test
    void oversizedPriorityUpdateIsIgnored() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodecBuilder.forServer()
                .maxPriorityFieldValueLength(16).build(), app).handshake()) {
            c.headers(1, get("/"), false);
            c.priorityUpdate(1, "u=1, x=\"" + "a".repeat(100) + "\"");
            c.read();
            assertThat(app.of(Http2HeadersFrame.class).get(0).stream().urgency()).isEqualTo(3);
            assertThat(c.channel.isOpen()).isTrue();
        }
    }

    @Test
    void rfc7540PriorityFramesOnManyIdleStreamsCostNoState() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), app).handshake()) {
            for (int i = 0; i < 10_000; i++) {
                c.frame(PRIORITY, 0, 1 + 2 * i, new byte[] {0, 0, 0, 0, 15});
            }
            c.headers(20_001, get("/"), true);
            assertThat(find(c.read(), GOAWAY)).isNull();
            assertThat(app.of(Http2HeadersFrame.class)).hasSize(1);
        }
    }

    @Test
    void clientReceivingPriorityUpdateEndsTheConnection() {
        EmbeddedChannel client = new EmbeddedChannel(Http2FrameCodecBuilder.forClient().build());
        try {
            drain(client).release();
            ByteBuf in = Unpooled.buffer();
            in.writeMedium(0).writeByte(Http2Frames.SETTINGS).writeByte(0).writeInt(0);
            in.writeMedium(5).writeByte(PRIORITY_UPDATE).writeByte(0).writeInt(0).writeInt(1).writeByte('i');
            client.writeInbound(in);
            ByteBuf out = drain(client);
            try {
                int goAway = indexOfFrame(out, GOAWAY);
                assertThat(goAway).isNotNegative();
                assertThat(out.getInt(goAway + 9 + 4)).isEqualTo((int) Http2Error.PROTOCOL_ERROR.code());
            } finally {
                out.release();
            }
            assertThat(client.isOpen()).isFalse();
        } finally {
            client.finishAndReleaseAll();
        }
    }

    @Test
    void clientSendsPriorityUpdatesAndServerRefusesToSendThem() {
        FrameRecorder serverApp = new FrameRecorder();
        FrameRecorder clientApp = new FrameRecorder();
        Http2FrameCodec clientCodec = Http2FrameCodecBuilder.forClient().build();
        EmbeddedChannel client = new EmbeddedChannel(clientCodec, clientApp);
        EmbeddedChannel server = new EmbeddedChannel(Http2FrameCodec.forServer(), serverApp);
        try {
            Http2FrameStream stream = clientCodec.newStream();
            ChannelFuture early = client.writeAndFlush(new Http2PriorityUpdateFrame(stream, 1, false));
            assertThat(early.cause()).isInstanceOf(IllegalStateException.class);
            client.writeAndFlush(new Http2HeadersFrame(stream, get("/").add("priority", "u=4"), false));
            client.writeAndFlush(new Http2PriorityUpdateFrame(stream, 2, true));
            Http2FrameClient.pump(client, server);
            Http2FrameClient.pump(server, client);
            Http2FrameStream onServer = serverApp.of(Http2HeadersFrame.class).get(0).stream();
            assertThat(onServer.urgency()).isEqualTo(2);
            assertThat(onServer.incremental()).isTrue();
            ChannelFuture fromServer = server.writeAndFlush(new Http2PriorityUpdateFrame(onServer, 1, false));
            assertThat(fromServer.cause()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("RFC 9218");
        } finally {
            client.finishAndReleaseAll();
            server.finishAndReleaseAll();
        }
    }

    private static ByteBuf drain(EmbeddedChannel ch) {
        ch.runPendingTasks();
        ByteBuf all = Unpooled.buffer();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            all.writeBytes(b);
            b.release();
        }
        return all;
    }

    /** The index of the first frame of {@code type} in client output (after the 24-octet preface, if any). */
    private static int indexOfFrame(ByteBuf out, int type) {
        int i = out.readableBytes() >= 24 && out.getByte(0) == 'P' ? 24 : 0;
        while (i + 9 <= out.readableBytes()) {
            if (out.getUnsignedByte(i + 3) == type) {
                return i;
            }
            i += 9 + out.getUnsignedMedium(i);
        }
        return -1;
    }
}
