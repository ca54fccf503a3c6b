package io.weir.handler.codec.http2;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;

/** Records the frames a codec fires (DATA frames as their length, released at once unless kept). */
final class FrameRecorder implements ChannelHandler {
    final List<Http2Frame> frames = new ArrayList<>();
    boolean keepData;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        frames.add((Http2Frame) msg);
        if (!keepData) {
            ReferenceCountUtil.release(msg);
        }
    }

    <T> List<T> of(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (Http2Frame f : frames) {
            if (type.isInstance(f)) {
                out.add(type.cast(f));
            }
        }
        return out;
    }

    void releaseAll() {
        if (keepData) {
            for (Http2Frame f : frames) {
                ReferenceCountUtil.release(f);
            }
        }
        frames.clear();
    }
}
