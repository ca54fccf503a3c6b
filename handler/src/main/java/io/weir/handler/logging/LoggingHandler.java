package io.weir.handler.logging;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufHolder;
import io.weir.buffer.ByteBufUtil;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.ChannelShutdownDirection;
import io.weir.channel.ChannelShutdownEvent;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.SocketAddress;
import java.util.Objects;

/**
 * Logs every inbound event and outbound operation that passes it, in both directions, with the channel's
 * id and addresses, then passes the event on unchanged. {@code ByteBuf} and {@code ByteBufHolder} messages
 * are shown as their size and, with {@link ByteBufFormat#HEX_DUMP}, a pretty hex dump.
 *
 * <p>Nothing is formatted unless the logger has the configured {@link Level} enabled
 * ({@link Logger#isLoggable} is asked first), so a handler left in a production pipeline at
 * {@code DEBUG} costs one check per event.
 *
 * <p>{@link Sharable}: it keeps no per-channel state. Never takes or releases the messages it logs.
 * Subclasses may change the line format by overriding the {@code format} methods.
 */
@ChannelHandler.Sharable
public class LoggingHandler implements ChannelHandler {
    /** The level used when none is given. */
    public static final Level DEFAULT_LEVEL = Level.DEBUG;

    private final Logger logger;
    private final Level level;
    private final ByteBufFormat byteBufFormat;

    /** Logs at {@link #DEFAULT_LEVEL} with hex dumps, to the logger named after this class. */
    public LoggingHandler() {
        this(DEFAULT_LEVEL);
    }

    /** Logs at {@code level} with hex dumps, to the logger named after this class. */
    public LoggingHandler(Level level) {
        this(level, ByteBufFormat.HEX_DUMP);
    }

    /** Logs at {@code level} in {@code byteBufFormat}, to the logger named after this class. */
    public LoggingHandler(Level level, ByteBufFormat byteBufFormat) {
        this(System.getLogger(LoggingHandler.class.getName()), level, byteBufFormat);
    }

    /** Logs at {@code level} with hex dumps, to the logger named {@code name}. */
    public LoggingHandler(String name, Level level) {
        this(System.getLogger(Objects.requireNonNull(name, "name")), level, ByteBufFormat.HEX_DUMP);
    }

    /** Logs at {@code level} with hex dumps, to the logger named after {@code clazz}. */
    public LoggingHandler(Class<?> clazz, Level level) {
        this(Objects.requireNonNull(clazz, "clazz").getName(), level);
    }

    /**
     * Logs at {@code level} in {@code byteBufFormat} to {@code logger}.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code level} is {@link Level#OFF} or {@link Level#ALL}, which are
     *         thresholds rather than levels a message can have
     */
    public LoggingHandler(Logger logger, Level level, ByteBufFormat byteBufFormat) {
        this.logger = Objects.requireNonNull(logger, "logger");
        this.level = Objects.requireNonNull(level, "level");
        this.byteBufFormat = Objects.requireNonNull(byteBufFormat, "byteBufFormat");
        if (level == Level.OFF || level == Level.ALL) {
            throw new IllegalArgumentException("level: " + level + " (expected: TRACE, DEBUG, INFO, WARNING or ERROR)");
        }
    }

    /** The level events are logged at. */
    public Level level() {
        return level;
    }

    /** How buffers are rendered. */
    public ByteBufFormat byteBufFormat() {
        return byteBufFormat;
    }

    private boolean enabled() {
        return logger.isLoggable(level);
    }

    // ---------------------------------------------------------------- inbound

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "REGISTERED"));
        }
        ctx.fireChannelRegistered();
    }

    @Override
    public void channelUnregistered(ChannelHandlerContext ctx) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "UNREGISTERED"));
        }
        ctx.fireChannelUnregistered();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "ACTIVE"));
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "INACTIVE"));
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "SHUTDOWN", event));
        }
        ctx.fireChannelShutdown(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "EXCEPTION", cause), cause);
        }
        ctx.fireExceptionCaught(cause);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "USER_EVENT", evt));
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "READ", msg));
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "READ COMPLETE"));
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "WRITABILITY CHANGED", ctx.channel().isWritable()));
        }
        ctx.fireChannelWritabilityChanged();
    }

    // ---------------------------------------------------------------- outbound

    @Override
    public void bind(ChannelHandlerContext ctx, SocketAddress localAddress, ChannelPromise promise) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "BIND", localAddress));
        }
        ctx.bind(localAddress, promise);
    }

    @Override
    public void connect(ChannelHandlerContext ctx, SocketAddress remoteAddress, SocketAddress localAddress,
                        ChannelPromise promise) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "CONNECT", remoteAddress, localAddress));
        }
        ctx.connect(remoteAddress, localAddress, promise);
    }

    @Override
    public void disconnect(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "DISCONNECT"));
        }
        ctx.disconnect(promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "CLOSE"));
        }
        ctx.close(promise);
    }

    @Override
    public void register(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "REGISTER"));
        }
        ctx.register(promise);
    }

    @Override
    public void deregister(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "DEREGISTER"));
        }
        ctx.deregister(promise);
    }

    @Override
    public void shutdown(ChannelHandlerContext ctx, ChannelShutdownDirection direction, ChannelPromise promise)
            throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "SHUTDOWN", direction));
        }
        ctx.shutdown(direction, promise);
    }

    @Override
    public void read(ChannelHandlerContext ctx) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "READ REQUEST"));
        }
        ctx.read();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "WRITE", msg));
        }
        ctx.write(msg, promise);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) throws Exception {
        if (enabled()) {
            logger.log(level, format(ctx, "FLUSH"));
        }
        ctx.flush();
    }

    // ---------------------------------------------------------------- formatting

    /** The line for an event without argument: the channel, a space, the event name. */
    protected String format(ChannelHandlerContext ctx, String eventName) {
        String channel = ctx.channel().toString();
        return new StringBuilder(channel.length() + 1 + eventName.length())
                .append(channel).append(' ').append(eventName).toString();
    }

    /** The line for an event with one argument; buffers are rendered in the configured {@link ByteBufFormat}. */
    protected String format(ChannelHandlerContext ctx, String eventName, Object arg) {
        if (arg instanceof ByteBuf buf) {
            return formatByteBuf(ctx, eventName, buf, null);
        }
        if (arg instanceof ByteBufHolder holder) {
            return formatByteBuf(ctx, eventName, holder.content(), holder);
        }
        String channel = ctx.channel().toString();
        String argument = String.valueOf(arg);
        return new StringBuilder(channel.length() + eventName.length() + argument.length() + 3)
                .append(channel).append(' ').append(eventName).append(": ").append(argument).toString();
    }

    /** The line for an event with two arguments (connect: remote and local address). */
    protected String format(ChannelHandlerContext ctx, String eventName, Object first, Object second) {
        if (second == null) {
            return format(ctx, eventName, first);
        }
        return new StringBuilder(64).append(ctx.channel()).append(' ').append(eventName).append(": ")
                .append(first).append(", ").append(second).toString();
    }

    private String formatByteBuf(ChannelHandlerContext ctx, String eventName, ByteBuf buf, ByteBufHolder holder) {
        String channel = ctx.channel().toString();
        int length = buf.readableBytes();
        StringBuilder sb = new StringBuilder(channel.length() + eventName.length() + 32
                + (byteBufFormat == ByteBufFormat.HEX_DUMP && length > 0 ? 80 + length * 4 : 0));
        sb.append(channel).append(' ').append(eventName).append(": ");
        if (holder != null) {
            sb.append(holder.getClass().getSimpleName()).append(", ");
        }
        sb.append(length).append('B');
        if (byteBufFormat == ByteBufFormat.HEX_DUMP && length > 0) {
            sb.append('\n');
            ByteBufUtil.appendPrettyHexDump(sb, buf);
        }
        return sb.toString();
    }
}
