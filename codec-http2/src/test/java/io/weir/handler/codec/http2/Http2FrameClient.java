package io.weir.handler.codec.http2;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http2.internal.Http2FrameListener;
import io.weir.handler.codec.http2.internal.Http2FrameReader;
import io.weir.handler.codec.http2.internal.Http2Frames;
import io.weir.handler.codec.http2.internal.hpack.HpackDecoder;
import io.weir.handler.codec.http2.internal.hpack.HpackEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A frame-level HTTP/2 client for tests: writes raw frames into an {@link EmbeddedChannel} running the server
 * handlers, and parses what the server writes back with an {@link Http2FrameReader}.
 */
final class Http2FrameClient implements AutoCloseable {

    /** One frame the server sent. */
    record Event(int type, int streamId, long code, Http2Headers headers, byte[] data, boolean endStream,
            boolean ack) {
        @Override
        public String toString() {
            return Http2Frames.typeName(type) + "(stream=" + streamId + ", code=" + code + ", end=" + endStream
                    + (data != null ? ", " + data.length + " octets" : "") + (headers != null ? ", " + headers : "")
                    + ')';
        }
    }

    final EmbeddedChannel channel;
    private final HpackEncoder encoder = new HpackEncoder();
    private final HpackDecoder decoder = new HpackDecoder(false);
    private final Http2FrameReader reader;
    final List<Event> events = new ArrayList<>();
    private final Set<Integer> streamsWithFinalHead = new HashSet<>();
    private ByteBuf pending;

    Http2FrameClient(ChannelHandler... serverHandlers) {
        channel = new EmbeddedChannel(serverHandlers);
        reader = new Http2FrameReader(false, new Listener());
    }

    /** Sends the client preface and an empty SETTINGS frame, then acknowledges the server's SETTINGS. */
    Http2FrameClient handshake() {
        raw(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()));
        frame(Http2Frames.SETTINGS, 0, 0, new byte[0]);
        frame(Http2Frames.SETTINGS, Http2Frames.FLAG_ACK, 0, new byte[0]);
        read();
        return this;
    }

    static Http2Headers get(String path) {
        return new Http2Headers().method("GET").scheme("http").authority("example.com").path(path);
    }

    static Http2Headers post(String path) {
        return new Http2Headers().method("POST").scheme("http").authority("example.com").path(path);
    }

    void headers(int streamId, Http2Headers headers, boolean endStream) {
        ByteBuf block = Unpooled.buffer();
        encoder.encode(headers, block);
        byte[] payload = new byte[block.readableBytes()];
        block.readBytes(payload);
        block.release();
        frame(Http2Frames.HEADERS, Http2Frames.FLAG_END_HEADERS | (endStream ? Http2Frames.FLAG_END_STREAM : 0),
                streamId, payload);
    }

    void data(int streamId, byte[] data, boolean endStream) {
        frame(Http2Frames.DATA, endStream ? Http2Frames.FLAG_END_STREAM : 0, streamId, data);
    }

    void rst(int streamId, Http2Error error) {
        frame(Http2Frames.RST_STREAM, 0, streamId, int32(error.code()));
    }

    void windowUpdate(int streamId, int increment) {
        frame(Http2Frames.WINDOW_UPDATE, 0, streamId, int32(increment));
    }

    /** A PRIORITY_UPDATE frame (RFC 9218 §7.1) on stream 0 for {@code prioritizedStreamId}. */
    void priorityUpdate(int prioritizedStreamId, String fieldValue) {
        byte[] value = fieldValue.getBytes(StandardCharsets.US_ASCII);
        byte[] payload = new byte[4 + value.length];
        System.arraycopy(int32(prioritizedStreamId), 0, payload, 0, 4);
        System.arraycopy(value, 0, payload, 4, value.length);
        frame(Http2Frames.PRIORITY_UPDATE, 0, 0, payload);
    }

    void ping(long data) {
        frame(Http2Frames.PING, 0, 0, long64(data));
    }

    static byte[] long64(long data) {
        byte[] payload = new byte[8];
        for (int i = 0; i < 8; i++) {
            payload[i] = (byte) (data >>> (56 - 8 * i));
        }
        return payload;
    }

    void settings(int id, int value) {
        byte[] p = new byte[6];
        p[0] = (byte) (id >>> 8);
        p[1] = (byte) id;
        System.arraycopy(int32(value), 0, p, 2, 4);
        frame(Http2Frames.SETTINGS, 0, 0, p);
    }

    static byte[] int32(long v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    /** Appends one frame to the bytes to send (sent by {@link #send()} or the next {@link #read()}). */
    void frame(int type, int flags, int streamId, byte[] payload) {
        ByteBuf b = Unpooled.buffer(9 + payload.length);
        b.writeMedium(payload.length).writeByte(type).writeByte(flags).writeInt(streamId).writeBytes(payload);
        raw(b);
    }

    void raw(ByteBuf b) {
        if (pending == null) {
            pending = Unpooled.buffer(256);
        }
        pending.writeBytes(b);
        b.release();
    }

    /** The bytes queued and not yet sent, now the caller's (an empty buffer when none). */
    ByteBuf takePending() {
        ByteBuf b = pending;
        pending = null;
        return b != null ? b : Unpooled.buffer(0);
    }

    /** Sends what was queued as one read. */
    void send() {
        ByteBuf b = pending;
        pending = null;
        if (b != null) {
            if (channel.isOpen()) {
                channel.writeInbound(b);
            } else {
                b.release();
            }
        }
    }

    /** Sends the queued frames and returns the frames the server sent since the last call. */
    List<Event> read() {
        send();
        channel.runPendingTasks();
        int from = events.size();
        ByteBuf out;
        while ((out = channel.readOutbound()) != null) {
            try {
                reader.read(out);
            } catch (Http2Exception e) {
                throw new AssertionError("the server sent an invalid frame", e);
            } finally {
                out.release();
            }
        }
        return new ArrayList<>(events.subList(from, events.size()));
    }

    /** Moves what {@code from} wrote into {@code to}: two embedded codecs talking to each other. */
    static void pump(EmbeddedChannel from, EmbeddedChannel to) {
        from.runPendingTasks();
        ByteBuf b;
        while ((b = from.readOutbound()) != null) {
            to.writeInbound(b);
        }
        to.runPendingTasks();
    }

    /** {@link #pump} both ways a few times: enough for a request, its response and the frames they trigger. */
    static void exchange(EmbeddedChannel client, EmbeddedChannel server) {
        for (int i = 0; i < 4; i++) {
            pump(client, server);
            pump(server, client);
        }
    }

    void advance(long millis) {
        channel.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
    }

    static Event find(List<Event> events, int type) {
        for (Event e : events) {
            if (e.type() == type) {
                return e;
            }
        }
        return null;
    }

    static String text(Event e) {
        return new String(e.data(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
        reader.close();
        channel.finishAndReleaseAll();
    }

    private final class Listener implements Http2FrameListener {
        @Override
        public void onData(int streamId, ByteBuf data, int index, int length, int padding, boolean endStream) {
            byte[] b = new byte[length];
            data.getBytes(index, b);
            events.add(new Event(Http2Frames.DATA, streamId, 0, null, b, endStream, false));
        }

        @Override
        public void onHeaders(int streamId, ByteBuf headerBlock, int padding, boolean endStream,
                boolean hasPriority, int streamDependency, int weight, boolean exclusive) throws Http2Exception {
            // After a final (non-1xx) head on a stream, a HEADERS frame is its trailers (RFC 9113 §8.1).
            boolean trailers = streamsWithFinalHead.contains(streamId);
            Http2Headers h = decoder.decode(streamId, headerBlock, trailers);
            if (!trailers && (h.status() == null || h.status().charAt(0) != '1')) {
                streamsWithFinalHead.add(streamId);
            }
            events.add(new Event(Http2Frames.HEADERS, streamId, 0, h, null, endStream, false));
        }

        @Override
        public void onPriority(int streamId, int streamDependency, int weight, boolean exclusive) {
        }

        @Override
        public void onRstStream(int streamId, long errorCode) {
            events.add(new Event(Http2Frames.RST_STREAM, streamId, errorCode, null, null, false, false));
        }

        @Override
        public void onSettings(Http2Settings settings) {
            events.add(new Event(Http2Frames.SETTINGS, 0, settings.get(Http2Settings.MAX_CONCURRENT_STREAMS, -1),
                    null, null, false, false));
        }

        @Override
        public void onSettingsAck() {
            events.add(new Event(Http2Frames.SETTINGS, 0, 0, null, null, false, true));
        }

        @Override
        public void onPing(long data) {
            events.add(new Event(Http2Frames.PING, 0, data, null, null, false, false));
        }

        @Override
        public void onPingAck(long data) {
            events.add(new Event(Http2Frames.PING, 0, data, null, null, false, true));
        }

        @Override
        public void onPushPromise(int streamId, int promisedStreamId, ByteBuf headerBlock, int padding) {
        }

        @Override
        public void onGoAway(int lastStreamId, long errorCode, ByteBuf debugData) {
            byte[] b = new byte[debugData.readableBytes()];
            debugData.readBytes(b);
            events.add(new Event(Http2Frames.GOAWAY, lastStreamId, errorCode, null, b, false, false));
        }

        @Override
        public void onWindowUpdate(int streamId, int windowSizeIncrement) {
            events.add(new Event(Http2Frames.WINDOW_UPDATE, streamId, windowSizeIncrement, null, null, false, false));
        }

        @Override
        public void onPriorityUpdate(int prioritizedStreamId, ByteBuf priorityFieldValue) {
        }
    }
}
