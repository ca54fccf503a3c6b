package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;
import static io.weir.handler.codec.http2.Http2Exception.streamError;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2GoAwayFrame;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2PingFrame;
import io.weir.handler.codec.http2.Http2PriorityUpdateFrame;
import io.weir.handler.codec.http2.Http2ResetFrame;
import io.weir.handler.codec.http2.Http2Settings;
import io.weir.handler.codec.http2.Http2SettingsAckFrame;
import io.weir.handler.codec.http2.Http2SettingsFrame;
import io.weir.handler.codec.http2.Http2UnknownFrame;
import io.weir.util.AsciiString;
import java.nio.charset.StandardCharsets;

/**
 * The inbound half of an {@link Http2Connection}: applies each frame the reader parsed to the connection state
 * (stream states and ids, windows, settings, limits) and fires the frame messages. Only called from the
 * connection's event loop, by the codec's reader.
 */
final class Http2ConnectionInbound implements Http2FrameListener {

    private final Http2Connection c;
    private final boolean server;
    private final int maxConsecutiveEmptyDataFrames;
    private final int maxPriorityFieldValueLength;
    /** PRIORITY_UPDATE signals for streams the client has not opened yet (RFC 9218 §7.1). */
    private final Http2IdleStreamPriorities idlePriorities = new Http2IdleStreamPriorities();
    /** Empty DATA frames without END_STREAM received in a row (CVE-2019-9518). */
    private int consecutiveEmptyData;
    /** Where the frames go: the handlers after the codec. */
    private ChannelHandlerContext ctx;

    Http2ConnectionInbound(Http2Connection connection, Http2ConnectionConfig config) {
        this.c = connection;
        this.server = config.server();
        this.maxConsecutiveEmptyDataFrames = config.maxConsecutiveEmptyDataFrames();
        this.maxPriorityFieldValueLength = config.maxPriorityFieldValueLength();
    }

    /** Fires into {@code ctx} from now on (fired directly, not through the connection: the frame paths are deep). */
    void attach(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void onData(int streamId, ByteBuf data, int index, int length, int padding, boolean endStream)
            throws Http2Exception {
        int size = length + padding;
        c.receiveOnConnection(size);
        Http2StreamRecord stream = c.stream(streamId);
        if (stream == null) {
            c.giveBackToConnection(size);
            if (c.isIdle(streamId)) {
                // RFC 9113 §5.1 idle: DATA is a connection PROTOCOL_ERROR.
                throw connectionError(Http2Error.PROTOCOL_ERROR, "DATA on idle stream " + streamId);
            }
            if (c.recentlyClosed(streamId) == 1) {
                return; // §5.1: frames in flight after our RST_STREAM are ignored
            }
            throw streamError(streamId, Http2Error.STREAM_CLOSED, "DATA on closed stream " + streamId
                    + " (RFC 9113 §5.1)");
        }
        stream.lastReadNanos = c.readNanos();
        Http2StreamState next;
        try {
            next = stream.state.onReceive(Http2Frames.DATA, endStream, streamId);
            stream.localWindow.receive(size);
        } catch (Http2Exception e) {
            c.giveBackToConnection(size);
            throw e;
        }
        if (padding > 0) {
            stream.localWindow.consume(padding);
            c.giveBackToConnection(padding);
        }
        if (length == 0 && !endStream) {
            if (++consecutiveEmptyData > maxConsecutiveEmptyDataFrames) {
                throw connectionError(Http2Error.ENHANCE_YOUR_CALM, "more than "
                        + maxConsecutiveEmptyDataFrames + " consecutive empty DATA frames");
            }
        } else {
            consecutiveEmptyData = 0;
        }
        stream.receivedDataBytes += length;
        long expected = stream.expectedContentLength;
        if (expected >= 0 && (stream.receivedDataBytes > expected
                || endStream && stream.receivedDataBytes != expected)) {
            // RFC 9113 §8.1.1: malformed; it never reaches the application.
            throw streamError(streamId, Http2Error.PROTOCOL_ERROR, "DATA of " + stream.receivedDataBytes
                    + " octets on stream " + streamId + " disagrees with content-length " + expected);
        }
        stream.state = next;
        ctx.fireChannelRead(new Http2DataFrame(stream, data.retainedSlice(index, length), endStream, padding));
        if (endStream) {
            c.closeIfBothEnded(stream);
        }
    }

    @Override
    public void onHeaders(int streamId, ByteBuf headerBlock, int padding, boolean endStream,
            boolean hasPriority, int streamDependency, int weight, boolean exclusive) throws Http2Exception {
        consecutiveEmptyData = 0;
        Http2StreamRecord stream = c.stream(streamId);
        if (stream == null) {
            openRemoteStream(streamId, headerBlock, endStream);
            return;
        }
        stream.lastReadNanos = c.readNanos();
        boolean trailers = stream.headersReceived;
        Http2StreamState next;
        try {
            next = stream.state.onReceive(Http2Frames.HEADERS, endStream, streamId);
        } catch (Http2Exception e) {
            // The block still goes through HPACK, or the tables fall out of sync (RFC 9113 §4.3).
            decodeIgnoringStreamErrors(streamId, headerBlock, trailers);
            throw e;
        }
        if (trailers && !endStream) {
            decodeIgnoringStreamErrors(streamId, headerBlock, true);
            // RFC 9113 §8.1: trailers must end the stream.
            throw streamError(streamId, Http2Error.PROTOCOL_ERROR, "trailers without END_STREAM on stream "
                    + streamId);
        }
        Http2Headers headers = c.decodeHeaders(streamId, headerBlock, trailers);
        if (!trailers) {
            CharSequence status = headers.status();
            boolean informational = status != null && status.length() == 3 && status.charAt(0) == '1';
            if (!informational) {
                stream.headersReceived = true;
                contentLength(stream, headers, endStream);
            }
        } else if (stream.expectedContentLength >= 0
                && stream.receivedDataBytes != stream.expectedContentLength) {
            throw streamError(streamId, Http2Error.PROTOCOL_ERROR, "stream " + streamId + " ended after "
                    + stream.receivedDataBytes + " octets, content-length " + stream.expectedContentLength);
        }
        stream.state = next;
        ctx.fireChannelRead(new Http2HeadersFrame(stream, headers, endStream));
        if (endStream) {
            c.closeIfBothEnded(stream);
        }
    }

    private void openRemoteStream(int streamId, ByteBuf headerBlock, boolean endStream) throws Http2Exception {
        if (!c.isIdle(streamId) || !c.isRemote(streamId)) {
            decodeIgnoringStreamErrors(streamId, headerBlock, false);
            if (c.recentlyClosed(streamId) == 1) {
                // §5.1: in flight after our RST_STREAM, whoever opened the stream (a client that cancels its own
                // request still receives the response HEADERS and trailers the server sent before seeing it).
                return;
            }
            if (c.isRemote(streamId) && streamId <= c.lastRemoteStreamId()) {
                if (c.recentlyClosed(streamId) == 0) {
                    // §5.1 closed: a new header section on a stream that ended is a connection STREAM_CLOSED.
                    throw connectionError(Http2Error.STREAM_CLOSED, "HEADERS on closed stream " + streamId);
                }
                // §5.1.1: a stream id below one the peer already opened, never used (or closed too long ago to be
                // told apart from that): the peer broke the ordering rule, a connection PROTOCOL_ERROR.
                throw connectionError(Http2Error.PROTOCOL_ERROR, "HEADERS on stream " + streamId
                        + ", lower than stream " + c.lastRemoteStreamId() + " already opened");
            }
            c.acceptRemote(streamId); // throws the §5.1.1 PROTOCOL_ERROR
            return;
        }
        c.acceptRemote(streamId);
        if (c.goAwaySentLastStreamId() >= 0 && streamId > c.goAwaySentLastStreamId()) {
            decodeIgnoringStreamErrors(streamId, headerBlock, false);
            return; // §6.8: streams above our GOAWAY are ignored
        }
        if (c.isOutputFull()) {
            decodeIgnoringStreamErrors(streamId, headerBlock, false);
            // §8.7: refused before any processing, so the client may retry it. Not counted as a reset: the
            // refusal is ours, and the bound it protects clears as soon as the peer opens its windows.
            c.refuseStream(streamId);
            return;
        }
        if (c.activeRemoteStreams() >= c.localMaxConcurrentStreams()) {
            decodeIgnoringStreamErrors(streamId, headerBlock, false);
            // §5.1.2: beyond SETTINGS_MAX_CONCURRENT_STREAMS.
            throw streamError(streamId, Http2Error.REFUSED_STREAM, "more than "
                    + c.localMaxConcurrentStreams()
                    + " concurrent streams");
        }
        Http2Headers headers;
        try {
            headers = c.decodeHeaders(streamId, headerBlock, false);
        } catch (Http2Exception e) {
            if (!e.isConnectionError()) {
                c.rememberClosed(streamId, true);
            }
            throw e;
        }
        Http2Exception malformed = c.checkExtendedConnect(streamId, headers);
        if (malformed == null && server) {
            malformed = checkAuthority(streamId, headers);
        }
        if (malformed != null) {
            c.rememberClosed(streamId, true);
            throw malformed;
        }
        Http2StreamRecord stream = c.openStream(streamId,
                endStream ? Http2StreamState.HALF_CLOSED_REMOTE : Http2StreamState.OPEN);
        stream.headersReceived = true;
        try {
            contentLength(stream, headers, endStream);
        } catch (Http2Exception e) {
            stream.state = Http2StreamState.CLOSED_RESET_SENT;
            c.resetStream(streamId, stream, e.error().code());
            return;
        }
        if (server) {
            CharSequence method = headers.method();
            stream.headMethod = method != null && "HEAD".contentEquals(method);
            stream.connectProtocol = headers.protocol() != null;
            int signalled = idlePriorities.size() == 0 ? -1 : idlePriorities.opened(streamId);
            if (signalled >= 0) {
                // RFC 9218 §7.1: a PRIORITY_UPDATE sent before the request is the client's latest signal.
                Http2Priorities.apply(stream, signalled);
            } else {
                CharSequence priority = headers.get("priority");
                if (priority != null) {
                    Http2Priorities.apply(stream, Http2Priorities.parse(priority,
                            maxPriorityFieldValueLength));
                }
            }
        }
        ctx.fireChannelRead(new Http2HeadersFrame(stream, headers, endStream));
        if (streamId == Http2Frames.MAX_STREAM_ID) {
            // §5.1.1: the client has no identifier left; end the connection cleanly once this stream is done.
            c.startGracefulClose(null);
        }
    }

    private void contentLength(Http2StreamRecord stream, Http2Headers headers, boolean endStream)
            throws Http2Exception {
        long length = Http2Priorities.contentLength(stream.id, headers);
        if (length < 0) {
            return;
        }
        if (!server && stream.headMethod) {
            return;
        }
        CharSequence status = headers.status();
        if (status != null && ("204".contentEquals(status) || "304".contentEquals(status))) {
            return;
        }
        if (endStream && length != 0) {
            throw streamError(stream.id, Http2Error.PROTOCOL_ERROR, "content-length " + length
                    + " on a header section that ends stream " + stream.id + " (RFC 9113 §8.1.1)");
        }
        stream.expectedContentLength = length;
    }

    private void decodeIgnoringStreamErrors(int streamId, ByteBuf headerBlock, boolean trailers)
            throws Http2Exception {
        try {
            c.decodeHeaders(streamId, headerBlock, trailers);
        } catch (Http2Exception e) {
            if (e.isConnectionError()) {
                throw e;
            }
        }
    }

    @Override
    public void onDiscardedHeaderBlock(int streamId, ByteBuf headerBlock) throws Http2Exception {
        decodeIgnoringStreamErrors(streamId, headerBlock, c.stream(streamId) != null);
        if (c.isRemote(streamId) && c.isIdle(streamId)) {
            c.acceptRemote(streamId);
        }
    }

    @Override
    public void onPriority(int streamId, int streamDependency, int weight, boolean exclusive) {
        // RFC 9113 §5.3.2: RFC 7540 priorities are deprecated; validated by the reader, otherwise ignored.
    }

    @Override
    public void onRstStream(int streamId, long errorCode) throws Http2Exception {
        Http2StreamRecord stream = c.stream(streamId);
        if (stream == null) {
            if (c.isIdle(streamId)) {
                throw connectionError(Http2Error.PROTOCOL_ERROR, "RST_STREAM on idle stream " + streamId
                        + " (RFC 9113 §6.4)");
            }
            return;
        }
        Http2Exception tooMany = c.recordReset();
        if (tooMany != null) {
            throw tooMany;
        }
        stream.state = stream.state.onReceive(Http2Frames.RST_STREAM, false, streamId);
        c.resetReceived(streamId, errorCode);
        ctx.fireChannelRead(new Http2ResetFrame(stream, errorCode));
        c.closeStream(stream, null, Http2Error.CANCEL, "stream reset by the peer");
    }

    @Override
    public void onSettings(Http2Settings settings) throws Http2Exception {
        c.applyPeerSettings(settings, true);
        ctx.fireChannelRead(new Http2SettingsFrame(settings));
        c.clientPrefaceReceived();
    }

    @Override
    public void onSettingsAck() {
        c.localSettingsAcknowledged();
        ctx.fireChannelRead(Http2SettingsAckFrame.INSTANCE);
    }

    @Override
    public void onPing(long data) {
        c.answerPing(data);
        ctx.fireChannelRead(new Http2PingFrame(data, false));
    }

    @Override
    public void onPingAck(long data) {
        if (!c.gracefulClosePingAnswered(data)) {
            ctx.fireChannelRead(new Http2PingFrame(data, true));
        }
    }

    @Override
    public void onPushPromise(int streamId, int promisedStreamId, ByteBuf headerBlock, int padding)
            throws Http2Exception {
        // We advertise SETTINGS_ENABLE_PUSH 0 as a client (§8.4): a promise is a connection error.
        throw connectionError(Http2Error.PROTOCOL_ERROR, "PUSH_PROMISE received although push is disabled");
    }

    @Override
    public void onGoAway(int lastStreamId, long errorCode, ByteBuf debugData) {
        c.goAwayReceived(lastStreamId, errorCode);
        ctx.fireChannelRead(new Http2GoAwayFrame(lastStreamId, errorCode, debugData.retainedSlice()));
        c.refuseLocalStreamsAbove(lastStreamId);
    }

    @Override
    public void onWindowUpdate(int streamId, int windowSizeIncrement) throws Http2Exception {
        if (streamId == 0) {
            c.connectionWindowUpdate(windowSizeIncrement);
            return;
        }
        Http2StreamRecord stream = c.stream(streamId);
        if (stream == null) {
            if (c.isIdle(streamId)) {
                throw connectionError(Http2Error.PROTOCOL_ERROR, "WINDOW_UPDATE on idle stream " + streamId);
            }
            return;
        }
        stream.state = stream.state.onReceive(Http2Frames.WINDOW_UPDATE, false, streamId);
        c.streamWindowUpdate(stream, windowSizeIncrement);
    }

    @Override
    public void onPriorityUpdate(int prioritizedStreamId, ByteBuf priorityFieldValue) throws Http2Exception {
        // The reader checked the frame itself: stream 0, at least 4 octets, a Prioritized Stream ID other than 0.
        if (!server) {
            // RFC 9218 §7.1: servers never send PRIORITY_UPDATE.
            throw connectionError(Http2Error.PROTOCOL_ERROR, "PRIORITY_UPDATE received by a client (RFC 9218 §7.1)");
        }
        if (!c.isRemote(prioritizedStreamId)) {
            // RFC 9218 §7.1: an even id names a push stream, and this server never promised one.
            throw connectionError(Http2Error.PROTOCOL_ERROR, "PRIORITY_UPDATE for stream " + prioritizedStreamId
                    + ", a push stream that was never promised (RFC 9218 §7.1)");
        }
        int length = priorityFieldValue.readableBytes();
        int packed = length > maxPriorityFieldValueLength ? Http2Priorities.DEFAULT
                : Http2Priorities.parse(priorityFieldValue.toString(StandardCharsets.US_ASCII),
                        maxPriorityFieldValueLength);
        Http2StreamRecord stream = c.stream(prioritizedStreamId);
        if (stream != null) {
            Http2Priorities.apply(stream, packed);
            ctx.fireChannelRead(new Http2PriorityUpdateFrame(stream, stream.urgency, stream.incremental));
            return;
        }
        if (!c.isIdle(prioritizedStreamId)) {
            return; // RFC 9218 §7.1: a signal for a closed stream may be discarded
        }
        long maxStreams = c.localMaxConcurrentStreams();
        if (!idlePriorities.put(prioritizedStreamId, packed, maxStreams - c.activeRemoteStreams())) {
            // RFC 9218 §7.1: prioritized idle streams plus active streams must not exceed the concurrency limit.
            throw connectionError(Http2Error.PROTOCOL_ERROR, "PRIORITY_UPDATE for idle stream " + prioritizedStreamId
                    + ": " + idlePriorities.size() + " idle streams already prioritized beside "
                    + c.activeRemoteStreams() + " active ones, SETTINGS_MAX_CONCURRENT_STREAMS " + maxStreams
                    + " (RFC 9218 §7.1)");
        }
    }

    @Override
    public void onUnknownFrame(int frameType, int streamId, int flags, ByteBuf payload) {
        ctx.fireChannelRead(new Http2UnknownFrame(frameType, flags, streamId, payload.retainedSlice()));
    }

    @Override
    public boolean pauseBeforeNextFrame() {
        return c.pauseBeforeNextFrame();
    }

    private static final AsciiString HOST = AsciiString.cached("host");

    /**
     * A request's authority (RFC 9113 §8.3.1, RFC 9110 §7.2): a Host field that names another authority than
     * {@code :authority}, two Host fields, or neither for an {@code http} or {@code https} request (a CONNECT names
     * its target in {@code :authority}, checked with the pseudo-headers) make the request malformed; null when it
     * is well formed.
     */
    private static Http2Exception checkAuthority(int streamId, Http2Headers headers) {
        CharSequence host = null;
        for (int i = 0; i < headers.size(); i++) {
            if (HOST.contentEquals(headers.name(i))) {
                if (host != null) {
                    return malformedAuthority(streamId, "two Host fields");
                }
                host = headers.value(i);
            }
        }
        CharSequence authority = headers.authority();
        if (authority != null && host != null && !AsciiString.contentEqualsIgnoreCase(authority, host)) {
            return malformedAuthority(streamId, "Host \"" + host + "\" differs from :authority \"" + authority + '"');
        }
        CharSequence scheme = headers.scheme();
        if (authority == null && host == null && scheme != null
                && (AsciiString.contentEqualsIgnoreCase(scheme, "http")
                || AsciiString.contentEqualsIgnoreCase(scheme, "https"))) {
            return malformedAuthority(streamId, "neither :authority nor Host in an " + scheme + " request");
        }
        return null;
    }

    private static Http2Exception malformedAuthority(int streamId, String problem) {
        return streamError(streamId, Http2Error.PROTOCOL_ERROR, "malformed request on stream " + streamId + ": "
                + problem + " (RFC 9113 §8.3.1)");
    }
}
