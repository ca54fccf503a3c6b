package io.weir.channel.group;

import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.util.concurrent.FutureListener;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/**
 * A channel that is {@code delegate} in every respect but one: its close future records which listeners are
 * registered on it, so a test can see whether a group left one behind. Listeners still run on the real close
 * future. Thread-safe as far as the delegate's id and close future are.
 */
final class CloseListenerProbe {
    private final Channel delegate;
    private final Channel channel;
    private final ChannelFuture closeFuture;
    private final List<Object> registered = new ArrayList<>();

    CloseListenerProbe(Channel delegate) {
        this.delegate = delegate;
        ClassLoader loader = CloseListenerProbe.class.getClassLoader();
        this.closeFuture = (ChannelFuture) Proxy.newProxyInstance(loader, new Class<?>[] {ChannelFuture.class},
                this::onCloseFuture);
        this.channel = (Channel) Proxy.newProxyInstance(loader, new Class<?>[] {Channel.class}, this::onChannel);
    }

    /** The probing channel, to add to groups. */
    Channel channel() {
        return channel;
    }

    /** How many listeners are registered on the close future through the probe and not removed. */
    synchronized int listeners() {
        return registered.size();
    }

    private Object onChannel(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "closeFuture":
                return closeFuture;
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return "probe" + delegate;
            default:
                return invoke(delegate, method, args);
        }
    }

    @SuppressWarnings("unchecked")
    private Object onCloseFuture(Object proxy, Method method, Object[] args) throws Throwable {
        ChannelFuture real = delegate.closeFuture();
        switch (method.getName()) {
            case "addListener":
                synchronized (this) {
                    registered.add(args[0]);
                }
                real.addListener((FutureListener<? super Void>) args[0]);
                return proxy;
            case "removeListener":
                synchronized (this) {
                    registered.remove(args[0]);
                }
                real.removeListener((FutureListener<? super Void>) args[0]);
                return proxy;
            case "channel":
                return channel;
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            default:
                return invoke(real, method, args);
        }
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
