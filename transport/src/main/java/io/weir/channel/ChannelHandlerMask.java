package io.weir.channel;

import java.lang.reflect.Method;
import java.net.SocketAddress;

/**
 * The events a handler class really handles, as a bit mask computed once per class by reflection: an event
 * counts as handled when the class (or a superclass or an interface below {@link ChannelHandler}) overrides
 * its default method and the override is not marked {@link ChannelHandler.Skip}. Propagation uses the mask
 * to jump straight over handlers that would only forward an event.
 */
final class ChannelHandlerMask {
    static final int MASK_EXCEPTION_CAUGHT = 1;
    static final int MASK_CHANNEL_REGISTERED = 1 << 1;
    static final int MASK_CHANNEL_UNREGISTERED = 1 << 2;
    static final int MASK_CHANNEL_ACTIVE = 1 << 3;
    static final int MASK_CHANNEL_INACTIVE = 1 << 4;
    static final int MASK_CHANNEL_SHUTDOWN = 1 << 5;
    static final int MASK_CHANNEL_READ = 1 << 6;
    static final int MASK_CHANNEL_READ_COMPLETE = 1 << 7;
    static final int MASK_USER_EVENT_TRIGGERED = 1 << 8;
    static final int MASK_CHANNEL_WRITABILITY_CHANGED = 1 << 9;
    static final int MASK_BIND = 1 << 10;
    static final int MASK_CONNECT = 1 << 11;
    static final int MASK_DISCONNECT = 1 << 12;
    static final int MASK_CLOSE = 1 << 13;
    static final int MASK_REGISTER = 1 << 14;
    static final int MASK_DEREGISTER = 1 << 15;
    static final int MASK_SHUTDOWN = 1 << 16;
    static final int MASK_READ = 1 << 17;
    static final int MASK_WRITE = 1 << 18;
    static final int MASK_FLUSH = 1 << 19;

    static final int MASK_ALL_INBOUND = MASK_EXCEPTION_CAUGHT | MASK_CHANNEL_REGISTERED | MASK_CHANNEL_UNREGISTERED
            | MASK_CHANNEL_ACTIVE | MASK_CHANNEL_INACTIVE | MASK_CHANNEL_SHUTDOWN | MASK_CHANNEL_READ
            | MASK_CHANNEL_READ_COMPLETE | MASK_USER_EVENT_TRIGGERED | MASK_CHANNEL_WRITABILITY_CHANGED;
    static final int MASK_ALL_OUTBOUND = MASK_BIND | MASK_CONNECT | MASK_DISCONNECT | MASK_CLOSE | MASK_REGISTER
            | MASK_DEREGISTER | MASK_SHUTDOWN | MASK_READ | MASK_WRITE | MASK_FLUSH;

    private static final Class<?> CTX = ChannelHandlerContext.class;
    private static final Class<?> PROMISE = ChannelPromise.class;

    /** Event methods in bit order: name and parameter types. */
    private static final Object[][] METHODS = {
            {"exceptionCaught", new Class<?>[] {CTX, Throwable.class}},
            {"channelRegistered", new Class<?>[] {CTX}},
            {"channelUnregistered", new Class<?>[] {CTX}},
            {"channelActive", new Class<?>[] {CTX}},
            {"channelInactive", new Class<?>[] {CTX}},
            {"channelShutdown", new Class<?>[] {CTX, ChannelShutdownEvent.class}},
            {"channelRead", new Class<?>[] {CTX, Object.class}},
            {"channelReadComplete", new Class<?>[] {CTX}},
            {"userEventTriggered", new Class<?>[] {CTX, Object.class}},
            {"channelWritabilityChanged", new Class<?>[] {CTX}},
            {"bind", new Class<?>[] {CTX, SocketAddress.class, PROMISE}},
            {"connect", new Class<?>[] {CTX, SocketAddress.class, SocketAddress.class, PROMISE}},
            {"disconnect", new Class<?>[] {CTX, PROMISE}},
            {"close", new Class<?>[] {CTX, PROMISE}},
            {"register", new Class<?>[] {CTX, PROMISE}},
            {"deregister", new Class<?>[] {CTX, PROMISE}},
            {"shutdown", new Class<?>[] {CTX, ChannelShutdownDirection.class, PROMISE}},
            {"read", new Class<?>[] {CTX}},
            {"write", new Class<?>[] {CTX, Object.class, PROMISE}},
            {"flush", new Class<?>[] {CTX}},
    };

    private ChannelHandlerMask() {
    }

    /** Works out the mask of {@code type} by reflection, once per class: {@link HandlerType} keeps it. */
    static int compute(Class<?> type) {
        int mask = 0;
        for (int bit = 0; bit < METHODS.length; bit++) {
            if (handles(type, (String) METHODS[bit][0], (Class<?>[]) METHODS[bit][1])) {
                mask |= 1 << bit;
            }
        }
        return mask;
    }

    private static boolean handles(Class<?> type, String name, Class<?>[] parameterTypes) {
        Method m;
        try {
            m = type.getMethod(name, parameterTypes);
        } catch (NoSuchMethodException | SecurityException e) {
            // Cannot tell: call the handler, which is always correct, only slower.
            return true;
        }
        return m.getDeclaringClass() != ChannelHandler.class && !m.isAnnotationPresent(ChannelHandler.Skip.class);
    }
}
