package io.weir.channel;

import io.weir.util.ReferenceCountUtil;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Objects;

/**
 * A handler for inbound messages of one type: messages of type {@code I} go to {@link #messageReceived}
 * and, by default, are released afterwards (whether it returns or throws); other messages are passed on
 * untouched. The type is read from the subclass's type argument ({@code extends
 * SimpleChannelInboundHandler<HttpRequest>}) or given to the constructor when it cannot be (a subclass that
 * is itself generic).
 *
 * <p>With auto-release on, a message {@code messageReceived} wants to keep or pass on must be retained
 * first. Called on the channel's event loop, like every handler method.
 *
 * @param <I> the type of message handled
 */
public abstract class SimpleChannelInboundHandler<I> implements ChannelHandler {
    private final Class<?> messageType;
    private final boolean autoRelease;

    /**
     * Handles messages of the type argument, releasing them afterwards.
     *
     * @throws IllegalStateException if the type argument cannot be determined from the class
     */
    protected SimpleChannelInboundHandler() {
        this(true);
    }

    /**
     * Handles messages of the type argument.
     *
     * @param autoRelease whether to release each handled message after {@link #messageReceived}
     * @throws IllegalStateException if the type argument cannot be determined from the class
     */
    protected SimpleChannelInboundHandler(boolean autoRelease) {
        this.messageType = findMessageType(getClass());
        this.autoRelease = autoRelease;
    }

    /**
     * Handles messages of {@code messageType}.
     *
     * @param autoRelease whether to release each handled message after {@link #messageReceived}
     */
    protected SimpleChannelInboundHandler(Class<? extends I> messageType, boolean autoRelease) {
        this.messageType = Objects.requireNonNull(messageType, "messageType");
        this.autoRelease = autoRelease;
    }

    private static Class<?> findMessageType(Class<?> type) {
        Class<?> c = type;
        while (c.getSuperclass() != SimpleChannelInboundHandler.class) {
            c = c.getSuperclass();
        }
        Type argument = ((ParameterizedType) c.getGenericSuperclass()).getActualTypeArguments()[0];
        if (argument instanceof Class<?> cls) {
            return cls;
        }
        if (argument instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
            return raw;
        }
        throw new IllegalStateException("cannot tell the message type of " + type.getName() + " (type argument "
                + argument + "); pass it to the SimpleChannelInboundHandler(Class, boolean) constructor");
    }

    /** Whether {@code msg} is for {@link #messageReceived}; by default, whether it is of the message type. */
    public boolean acceptInboundMessage(Object msg) {
        return messageType.isInstance(msg);
    }

    @SuppressWarnings("unchecked")
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!acceptInboundMessage(msg)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            messageReceived(ctx, (I) msg);
        } finally {
            if (autoRelease) {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    /** Handles one message; it is released after this returns or throws if auto-release is on. */
    protected abstract void messageReceived(ChannelHandlerContext ctx, I msg) throws Exception;
}
