package io.weir.example.chat;

import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelInitializer;
import io.weir.handler.codec.LineBasedFrameDecoder;
import io.weir.handler.codec.string.LineEncoder;
import io.weir.handler.codec.string.LineSeparator;
import io.weir.handler.codec.string.StringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The chat's pipeline, the same on both ends: bytes split into lines (without their delimiter), lines decoded
 * from UTF-8 into {@code String}s for the chat handler, and each {@code String} written encoded in UTF-8 and
 * ended by {@code \n}. Sharable, like every {@link ChannelInitializer}; the decoders are new for each channel
 * because they hold per-connection state.
 */
public final class ChatPipeline extends ChannelInitializer<Channel> {
    /** The longest line accepted, without its delimiter; a longer one is dropped and reported to its sender. */
    public static final int MAX_LINE_LENGTH_BYTES = 8192;

    private final ChannelHandler chatHandler;

    /** A pipeline ending in {@code chatHandler}, which receives and writes {@code String} lines. */
    public ChatPipeline(ChannelHandler chatHandler) {
        this.chatHandler = Objects.requireNonNull(chatHandler, "chatHandler");
    }

    @Override
    protected void initChannel(Channel channel) {
        channel.pipeline().addLast(
                new LineBasedFrameDecoder(MAX_LINE_LENGTH_BYTES),
                new StringDecoder(StandardCharsets.UTF_8),
                new LineEncoder(LineSeparator.UNIX, StandardCharsets.UTF_8),
                chatHandler);
    }
}
