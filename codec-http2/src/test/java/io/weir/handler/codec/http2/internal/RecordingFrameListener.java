package io.weir.handler.codec.http2.internal;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.handler.codec.http2.Http2Settings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Records every frame a reader delivers as one line of text, copying payloads while they are valid; tests extend it to look at one callback. */
class RecordingFrameListener implements Http2FrameListener {
    final List<String> events = new ArrayList<>();
    Http2Settings lastSettings;

    @Override
    public void onData(int streamId, ByteBuf data, int index, int length, int padding, boolean endStream) {
        events.add("DATA s=" + streamId + " pad=" + padding + " end=" + endStream + " data="
                + ByteBufUtil.hexDump(data, index, length));
    }

    @Override
    public void onHeaders(int streamId, ByteBuf headerBlock, int padding, boolean endStream, boolean hasPriority,
            int streamDependency, int weight, boolean exclusive) {
        events.add("HEADERS s=" + streamId + " pad=" + padding + " end=" + endStream + " prio=" + hasPriority
                + " dep=" + streamDependency + " w=" + weight + " ex=" + exclusive + " block="
                + ByteBufUtil.hexDump(headerBlock));
    }

    @Override
    public void onDiscardedHeaderBlock(int streamId, ByteBuf headerBlock) {
        events.add("DISCARDED s=" + streamId + " block=" + ByteBufUtil.hexDump(headerBlock));
    }

    @Override
    public void onPriority(int streamId, int streamDependency, int weight, boolean exclusive) {
        events.add("PRIORITY s=" + streamId + " dep=" + streamDependency + " w=" + weight + " ex=" + exclusive);
    }

    @Override
    public void onRstStream(int streamId, long errorCode) {
        events.add("RST_STREAM s=" + streamId + " code=" + errorCode);
    }

    @Override
    public void onSettings(Http2Settings settings) {
        lastSettings = settings;
        events.add("SETTINGS " + settings);
    }

    @Override
    public void onSettingsAck() {
        events.add("SETTINGS_ACK");
    }

    @Override
    public void onPing(long data) {
        events.add("PING " + Long.toHexString(data));
    }

    @Override
    public void onPingAck(long data) {
        events.add("PING_ACK " + Long.toHexString(data));
    }

    @Override
    public void onPushPromise(int streamId, int promisedStreamId, ByteBuf headerBlock, int padding) {
        events.add("PUSH_PROMISE s=" + streamId + " promised=" + promisedStreamId + " pad=" + padding + " block="
                + ByteBufUtil.hexDump(headerBlock));
    }

    @Override
    public void onGoAway(int lastStreamId, long errorCode, ByteBuf debugData) {
        events.add("GOAWAY last=" + lastStreamId + " code=" + errorCode + " debug="
                + debugData.toString(StandardCharsets.US_ASCII));
    }

    @Override
    public void onWindowUpdate(int streamId, int windowSizeIncrement) {
        events.add("WINDOW_UPDATE s=" + streamId + " inc=" + windowSizeIncrement);
    }

    @Override
    public void onPriorityUpdate(int prioritizedStreamId, ByteBuf priorityFieldValue) {
        events.add("PRIORITY_UPDATE s=" + prioritizedStreamId + " value="
                + priorityFieldValue.toString(StandardCharsets.US_ASCII));
    }

    @Override
    public void onUnknownFrame(int frameType, int streamId, int flags, ByteBuf payload) {
        events.add("UNKNOWN type=" + frameType + " s=" + streamId + " flags=" + flags + " payload="
                + ByteBufUtil.hexDump(payload));
    }
}
