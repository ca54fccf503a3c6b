package io.weir.channel;

import io.weir.util.ReferenceCountUtil;
import io.weir.util.ResourceLeakDetector;
import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * The {@link ChannelPipeline} of every {@link AbstractChannel}. Structural changes take the pipeline's lock;
 * event propagation takes none and follows volatile links, so a handler removed while an event travels
 * still forwards that event to its old neighbour.
 */
final class DefaultChannelPipeline implements ChannelPipeline {
    private static final LoopLogger LOGGER = LoopLogger.of(DefaultChannelPipeline.class);
    // Every pipeline's head and tail: their types are looked up once, not per channel.
    private static final HandlerType HEAD_TYPE = HandlerType.of(HeadHandler.class);
    private static final HandlerType TAIL_TYPE = HandlerType.of(TailHandler.class);
    private static final VarHandle LOCK;

    static {
        try {
            LOCK = MethodHandles.lookup().findVarHandle(DefaultChannelPipeline.class, "lock", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AbstractChannel channel;
    /** Whether leak records are kept (ADVANCED or above): then messages are touched at every handler. */
    private final boolean touch = ResourceLeakDetector.level().compareTo(ResourceLeakDetector.Level.ADVANCED) >= 0;
    final DefaultChannelHandlerContext head;
    final DefaultChannelHandlerContext tail;
    /**
     * Guards changes to the list (events take no lock: see the class comment): 1 while a thread changes it. A
     * compare-and-set to take it and a release store to give it back, one atomic instruction per change where a
     * monitor costs two; an HTTP/2 stream's channel adds and removes its handlers per request. Held only for a few
     * links and name checks, never across a handler's callback, so a thread that finds it taken spins briefly.
     */
    @SuppressWarnings("unused") // through LOCK only
    private int lock;

    DefaultChannelPipeline(AbstractChannel channel) {
        this.channel = channel;
        // The head and tail handlers are stateless and shared by every pipeline (two objects fewer per channel,
        // which counts for an HTTP/2 stream's channel); they find their channel through the context.
        head = new DefaultChannelHandlerContext(this, "head", HeadHandler.INSTANCE, HEAD_TYPE);
        tail = new DefaultChannelHandlerContext(this, "tail", TailHandler.INSTANCE, TAIL_TYPE);
        // Plain stores: this pipeline reaches other threads through its channel's final field.
        head.initLinks(null, tail);
        tail.initLinks(head, null);
        head.initAddComplete();
        tail.initAddComplete();
    }

    private void lock() {
        if (!LOCK.compareAndSet(this, 0, 1)) {
            lockContended();
        }
    }

    private void lockContended() {
        for (int spins = 0; !LOCK.compareAndSet(this, 0, 1); spins++) {
            if (spins < 64) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    private void unlock() {
        LOCK.setRelease(this, 0);
    }

    @Override
    public Channel channel() {
        return channel;
    }

    AbstractChannel abstractChannel() {
        return channel;
    }

    /** Records that {@code msg} reached {@code ctx}, so a leak report names the last handlers that held it. */
    Object touch(Object msg, DefaultChannelHandlerContext ctx) {
        return touch ? ReferenceCountUtil.touch(msg, ctx) : msg;
    }

    // ---------------------------------------------------------------- structure

    private String filterName(String name, HandlerType type) {
        if (name == null) {
            for (int i = 0;; i++) {
                // The first few names of a class are shared strings: a generated name costs a connection nothing.
                String candidate = type.name(i);
                if (context0(candidate) == null) {
                    return candidate;
                }
            }
        }
        if (context0(name) != null) {
            throw new ChannelPipelineException("duplicate handler name: " + name);
        }
        return name;
    }

    private DefaultChannelHandlerContext newContext(String name, ChannelHandler handler) {
        HandlerType type = HandlerType.of(Objects.requireNonNull(handler, "handler").getClass());
        NonSharableHandlers.claim(handler, type);
        DefaultChannelHandlerContext ctx =
                new DefaultChannelHandlerContext(this, filterName(name, type), handler, type);
        NonSharableHandlers.claimed(ctx);
        return ctx;
    }

    /** Links {@code ctx} between {@code prev} and {@code prev.next}; forward links are published last. */
    private static void linkAfter(DefaultChannelHandlerContext prev, DefaultChannelHandlerContext ctx) {
        DefaultChannelHandlerContext next = prev.next;
        ctx.initLinks(prev, next);
        prev.linkNext(ctx);
        next.linkPrev(ctx);
    }

    private static void unlink(DefaultChannelHandlerContext ctx) {
        DefaultChannelHandlerContext prev = ctx.prev;
        DefaultChannelHandlerContext next = ctx.next;
        prev.linkNext(next);
        next.linkPrev(prev);
        ctx.unlinked = true;
    }

    @Override
    public ChannelPipeline addFirst(String name, ChannelHandler handler) {
        DefaultChannelHandlerContext ctx;
        lock();
        try {
            ctx = newContext(name, handler);
            linkAfter(head, ctx);
        } finally {
            unlock();
        }
        callHandlerAdded(ctx);
        return this;
    }

    @Override
    public ChannelPipeline addFirst(ChannelHandler... handlers) {
        Objects.requireNonNull(handlers, "handlers");
        for (int i = handlers.length - 1; i >= 0; i--) {
            addFirst(null, handlers[i]);
        }
        return this;
    }

    @Override
    public ChannelPipeline addLast(String name, ChannelHandler handler) {
        DefaultChannelHandlerContext ctx;
        lock();
        try {
            ctx = newContext(name, handler);
            linkAfter(tail.prev, ctx);
        } finally {
            unlock();
        }
        callHandlerAdded(ctx);
        return this;
    }

    @Override
    public ChannelPipeline addLast(ChannelHandler... handlers) {
        Objects.requireNonNull(handlers, "handlers");
        for (ChannelHandler h : handlers) {
            addLast(null, h);
        }
        return this;
    }

    @Override
    public ChannelPipeline addBefore(String baseName, String name, ChannelHandler handler) {
        DefaultChannelHandlerContext ctx;
        lock();
        try {
            DefaultChannelHandlerContext base = getContextOrDie(baseName);
            ctx = newContext(name, handler);
            linkAfter(base.prev, ctx);
        } finally {
            unlock();
        }
        callHandlerAdded(ctx);
        return this;
    }

    @Override
    public ChannelPipeline addAfter(String baseName, String name, ChannelHandler handler) {
        DefaultChannelHandlerContext ctx;
        lock();
        try {
            DefaultChannelHandlerContext base = getContextOrDie(baseName);
            ctx = newContext(name, handler);
            linkAfter(base, ctx);
        } finally {
            unlock();
        }
        callHandlerAdded(ctx);
        return this;
    }

    @Override
    public ChannelPipeline remove(ChannelHandler handler) {
        remove(getContextOrDie(handler));
        return this;
    }

    @Override
    public ChannelHandler remove(String name) {
        return remove(getContextOrDie(name)).handler();
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T extends ChannelHandler> T remove(Class<T> handlerType) {
        return (T) remove(getContextOrDie(handlerType)).handler();
    }

    @Override
    public ChannelHandler removeIfExists(String name) {
        Objects.requireNonNull(name, "name");
        DefaultChannelHandlerContext ctx;
        lock();
        try {
            ctx = context0(name);
            if (ctx == null) {
                return null;
            }
            unlink(ctx);
        } finally {
            unlock();
        }
        callHandlerRemoved(ctx);
        return ctx.handler();
    }

    @Override
    public ChannelHandler removeFirst() {
        DefaultChannelHandlerContext ctx;
        lock();
        try {
            ctx = head.next;
            if (ctx == tail) {
                throw new NoSuchElementException("the pipeline is empty");
            }
            unlink(ctx);
        } finally {
            unlock();
        }
        callHandlerRemoved(ctx);
        return ctx.handler();
    }

    @Override
    public ChannelHandler removeLast() {
        DefaultChannelHandlerContext ctx;
        lock();
        try {
            ctx = tail.prev;
            if (ctx == head) {
                throw new NoSuchElementException("the pipeline is empty");
            }
            unlink(ctx);
        } finally {
            unlock();
        }
        callHandlerRemoved(ctx);
        return ctx.handler();
    }

    private DefaultChannelHandlerContext remove(DefaultChannelHandlerContext ctx) {
        lock();
        try {
            if (ctx.unlinked) {
                throw new NoSuchElementException("handler already removed: " + ctx.name());
            }
            unlink(ctx);
        } finally {
            unlock();
        }
        callHandlerRemoved(ctx);
        return ctx;
    }

    @Override
    public ChannelPipeline replace(ChannelHandler oldHandler, String newName, ChannelHandler newHandler) {
        replace(getContextOrDie(oldHandler), newName, newHandler);
        return this;
    }

    @Override
    public ChannelHandler replace(String oldName, String newName, ChannelHandler newHandler) {
        return replace(getContextOrDie(oldName), newName, newHandler);
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T extends ChannelHandler> T replace(Class<T> oldHandlerType, String newName, ChannelHandler newHandler) {
        return (T) replace(getContextOrDie(oldHandlerType), newName, newHandler);
    }

    private ChannelHandler replace(DefaultChannelHandlerContext old, String newName, ChannelHandler newHandler) {
        Objects.requireNonNull(newHandler, "newHandler");
        DefaultChannelHandlerContext ctx;
        lock();
        try {
            if (old.unlinked) {
                throw new NoSuchElementException("handler already removed: " + old.name());
            }
            HandlerType type = HandlerType.of(newHandler.getClass());
            NonSharableHandlers.claim(newHandler, type);
            String name = newName != null && newName.equals(old.name()) ? newName : filterName(newName, type);
            ctx = new DefaultChannelHandlerContext(this, name, newHandler, type);
            NonSharableHandlers.claimed(ctx);
            DefaultChannelHandlerContext prev = old.prev;
            DefaultChannelHandlerContext next = old.next;
            ctx.initLinks(prev, next);
            prev.linkNext(ctx);
            next.linkPrev(ctx);
            // Events still travelling through the old context continue into its replacement.
            old.linkPrev(ctx);
            old.linkNext(ctx);
            old.unlinked = true;
        } finally {
            unlock();
        }
        // Added before the old one is removed: its handlerRemoved may already send events to the new one.
        callHandlerAdded(ctx);
        callHandlerRemoved(old);
        return old.handler();
    }

    private void callHandlerAdded(DefaultChannelHandlerContext ctx) {
        EventLoop loop = channel.eventLoop();
        if (loop.inEventLoop()) {
            callHandlerAdded0(ctx);
        } else {
            loop.execute(() -> callHandlerAdded0(ctx));
        }
    }

    private void callHandlerAdded0(DefaultChannelHandlerContext ctx) {
        try {
            ctx.callHandlerAdded();
        } catch (Throwable t) {
            boolean removed = false;
            try {
                lock();
                try {
                    if (!ctx.unlinked) {
                        unlink(ctx);
                    }
                } finally {
                    unlock();
                }
                ctx.callHandlerRemoved();
                removed = true;
            } catch (Throwable t2) {
                LOGGER.log(Level.WARNING, "Failed to remove a handler: " + ctx.name(), t2);
            } finally {
                NonSharableHandlers.release(ctx);
            }
            fireExceptionCaught(new ChannelPipelineException(ctx.handler().getClass().getName()
                    + ".handlerAdded() has thrown an exception; " + (removed ? "removed." : "also failed to remove."),
                    t));
        }
    }

    private void callHandlerRemoved(DefaultChannelHandlerContext ctx) {
        EventLoop loop = channel.eventLoop();
        if (loop.inEventLoop()) {
            callHandlerRemoved0(ctx);
        } else {
            loop.execute(() -> callHandlerRemoved0(ctx));
        }
    }

    private void callHandlerRemoved0(DefaultChannelHandlerContext ctx) {
        try {
            ctx.callHandlerRemoved();
        } catch (Throwable t) {
            fireExceptionCaught(new ChannelPipelineException(
                    ctx.handler().getClass().getName() + ".handlerRemoved() has thrown an exception.", t));
        } finally {
            NonSharableHandlers.release(ctx);
        }
    }

    /**
     * Removes every handler, last first, calling handlerRemoved; once the channel is closed and unregistered. The
     * handlers are taken out under one lock (a stream's channel is destroyed per request), then told one by one:
     * a handlerRemoved that looks for another of them in the pipeline finds none (each hears its own removal).
     * Handlers added meanwhile, by a handlerRemoved say, are removed the same way.
     */
    void destroy() {
        for (;;) {
            DefaultChannelHandlerContext last;
            lock();
            try {
                last = tail.prev;
                if (last == head) {
                    return;
                }
                for (DefaultChannelHandlerContext ctx = last; ctx != head; ctx = ctx.prev) {
                    ctx.unlinked = true;
                }
                // The chain keeps its own links (the first's to head, the last's to tail), so that it can be walked
                // below and an event in flight in it still finds its way out, as unlink leaves a context's links.
                head.linkNext(tail);
                tail.linkPrev(head);
            } finally {
                unlock();
            }
            for (DefaultChannelHandlerContext ctx = last; ctx != head; ) {
                DefaultChannelHandlerContext prev = ctx.prev;
                callHandlerRemoved0(ctx);
                ctx = prev;
            }
            if (tail.prev == head) {
                return;
            }
        }
    }

    // ---------------------------------------------------------------- lookup

    private DefaultChannelHandlerContext context0(String name) {
        for (DefaultChannelHandlerContext ctx = head.next; ctx != tail; ctx = ctx.next) {
            if (ctx.name().equals(name)) {
                return ctx;
            }
        }
        return null;
    }

    private DefaultChannelHandlerContext getContextOrDie(String name) {
        DefaultChannelHandlerContext ctx = (DefaultChannelHandlerContext) context(name);
        if (ctx == null) {
            throw new NoSuchElementException("no handler named " + name);
        }
        return ctx;
    }

    private DefaultChannelHandlerContext getContextOrDie(ChannelHandler handler) {
        DefaultChannelHandlerContext ctx = (DefaultChannelHandlerContext) context(handler);
        if (ctx == null) {
            throw new NoSuchElementException("not in the pipeline: " + handler.getClass().getName());
        }
        return ctx;
    }

    private DefaultChannelHandlerContext getContextOrDie(Class<? extends ChannelHandler> type) {
        DefaultChannelHandlerContext ctx = (DefaultChannelHandlerContext) context(type);
        if (ctx == null) {
            throw new NoSuchElementException("no handler of type " + type.getName());
        }
        return ctx;
    }

    @Override
    public ChannelHandler first() {
        ChannelHandlerContext ctx = firstContext();
        return ctx == null ? null : ctx.handler();
    }

    @Override
    public ChannelHandlerContext firstContext() {
        DefaultChannelHandlerContext ctx = head.next;
        return ctx == tail ? null : ctx;
    }

    @Override
    public ChannelHandler last() {
        ChannelHandlerContext ctx = lastContext();
        return ctx == null ? null : ctx.handler();
    }

    @Override
    public ChannelHandlerContext lastContext() {
        DefaultChannelHandlerContext ctx = tail.prev;
        return ctx == head ? null : ctx;
    }

    @Override
    public ChannelHandler get(String name) {
        ChannelHandlerContext ctx = context(name);
        return ctx == null ? null : ctx.handler();
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T extends ChannelHandler> T get(Class<T> handlerType) {
        ChannelHandlerContext ctx = context(handlerType);
        return ctx == null ? null : (T) ctx.handler();
    }

    @Override
    public ChannelHandlerContext context(ChannelHandler handler) {
        Objects.requireNonNull(handler, "handler");
        for (DefaultChannelHandlerContext ctx = head.next; ctx != tail; ctx = ctx.next) {
            if (ctx.handler() == handler) {
                return ctx;
            }
        }
        return null;
    }

    @Override
    public ChannelHandlerContext context(String name) {
        return context0(Objects.requireNonNull(name, "name"));
    }

    @Override
    public ChannelHandlerContext context(Class<? extends ChannelHandler> handlerType) {
        Objects.requireNonNull(handlerType, "handlerType");
        for (DefaultChannelHandlerContext ctx = head.next; ctx != tail; ctx = ctx.next) {
            if (handlerType.isInstance(ctx.handler())) {
                return ctx;
            }
        }
        return null;
    }

    @Override
    public List<String> names() {
        List<String> names = new ArrayList<>();
        for (DefaultChannelHandlerContext ctx = head.next; ctx != tail; ctx = ctx.next) {
            names.add(ctx.name());
        }
        return names;
    }

    @Override
    public Map<String, ChannelHandler> toMap() {
        Map<String, ChannelHandler> map = new LinkedHashMap<>();
        for (DefaultChannelHandlerContext ctx = head.next; ctx != tail; ctx = ctx.next) {
            map.put(ctx.name(), ctx.handler());
        }
        return map;
    }

    @Override
    public Iterator<Map.Entry<String, ChannelHandler>> iterator() {
        return toMap().entrySet().iterator();
    }

    // ---------------------------------------------------------------- inbound

    @Override
    public ChannelPipeline fireChannelRegistered() {
        head.fireChannelRegistered();
        return this;
    }

    @Override
    public ChannelPipeline fireChannelUnregistered() {
        DefaultChannelHandlerContext.invokeChannelUnregistered(head);
        return this;
    }

    @Override
    public ChannelPipeline fireChannelActive() {
        DefaultChannelHandlerContext.invokeChannelActive(head);
        return this;
    }

    @Override
    public ChannelPipeline fireChannelInactive() {
        head.fireChannelInactive();
        return this;
    }

    @Override
    public ChannelPipeline fireChannelShutdown(ChannelShutdownEvent event) {
        head.fireChannelShutdown(event);
        return this;
    }

    @Override
    public ChannelPipeline fireExceptionCaught(Throwable cause) {
        head.fireExceptionCaught(cause);
        return this;
    }

    @Override
    public ChannelPipeline fireUserEventTriggered(Object evt) {
        head.fireUserEventTriggered(evt);
        return this;
    }

    @Override
    public ChannelPipeline fireChannelRead(Object msg) {
        head.fireChannelRead(msg);
        return this;
    }

    @Override
    public ChannelPipeline fireChannelReadComplete() {
        DefaultChannelHandlerContext.invokeChannelReadComplete(head);
        return this;
    }

    @Override
    public ChannelPipeline fireChannelWritabilityChanged() {
        head.fireChannelWritabilityChanged();
        return this;
    }

    // ---------------------------------------------------------------- outbound

    @Override
    public ChannelFuture bind(SocketAddress localAddress, ChannelPromise promise) {
        return tail.bind(localAddress, promise);
    }

    @Override
    public ChannelFuture connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
        return tail.connect(remoteAddress, localAddress, promise);
    }

    @Override
    public ChannelFuture disconnect(ChannelPromise promise) {
        return tail.disconnect(promise);
    }

    @Override
    public ChannelFuture close(ChannelPromise promise) {
        return tail.close(promise);
    }

    @Override
    public ChannelFuture register(ChannelPromise promise) {
        return tail.register(promise);
    }

    @Override
    public ChannelFuture deregister(ChannelPromise promise) {
        return tail.deregister(promise);
    }

    @Override
    public ChannelFuture shutdown(ChannelShutdownDirection direction, ChannelPromise promise) {
        return tail.shutdown(direction, promise);
    }

    @Override
    public ChannelPipeline read() {
        tail.read();
        return this;
    }

    @Override
    public ChannelFuture write(Object msg, ChannelPromise promise) {
        return tail.write(msg, promise);
    }

    @Override
    public ChannelPipeline flush() {
        tail.flush();
        return this;
    }

    @Override
    public ChannelFuture writeAndFlush(Object msg, ChannelPromise promise) {
        return tail.writeAndFlush(msg, promise);
    }

    @Override
    public ChannelPromise newPromise() {
        return channel.newPromise();
    }

    @Override
    public ChannelProgressivePromise newProgressivePromise() {
        return channel.newProgressivePromise();
    }

    @Override
    public ChannelFuture newSucceededFuture() {
        return channel.newSucceededFuture();
    }

    @Override
    public ChannelFuture newFailedFuture(Throwable cause) {
        return channel.newFailedFuture(cause);
    }

    @Override
    public ChannelPromise voidPromise() {
        return channel.voidPromise();
    }

    @Override
    public String toString() {
        StringBuilder buf = new StringBuilder("DefaultChannelPipeline{");
        boolean first = true;
        for (DefaultChannelHandlerContext ctx = head.next; ctx != tail; ctx = ctx.next) {
            if (!first) {
                buf.append(", ");
            }
            first = false;
            buf.append('(').append(ctx.name()).append(" = ").append(ctx.handler().getClass().getName()).append(')');
        }
        return buf.append('}').toString();
    }

    /** Hands outbound operations to the transport; also drives auto-read and tears the pipeline down. */
    private static final class HeadHandler implements ChannelHandler {
        static final HeadHandler INSTANCE = new HeadHandler();

        private static AbstractChannel channel(ChannelHandlerContext ctx) {
            return (AbstractChannel) ctx.channel();
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.fireChannelActive();
            readIfAutoRead(channel(ctx));
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.fireChannelReadComplete();
            readIfAutoRead(channel(ctx));
        }

        @Override
        public void channelUnregistered(ChannelHandlerContext ctx) {
            ctx.fireChannelUnregistered();
            if (!ctx.channel().isOpen()) {
                ((DefaultChannelPipeline) ctx.pipeline()).destroy();
            }
        }

        private static void readIfAutoRead(AbstractChannel channel) {
            if (channel.config().isAutoRead()) {
                channel.read();
            }
        }

        @Override
        public void bind(ChannelHandlerContext ctx, SocketAddress localAddress, ChannelPromise promise) {
            channel(ctx).bind0(localAddress, promise);
        }

        @Override
        public void connect(ChannelHandlerContext ctx, SocketAddress remoteAddress, SocketAddress localAddress,
                            ChannelPromise promise) {
            channel(ctx).connect0(remoteAddress, localAddress, promise);
        }

        @Override
        public void disconnect(ChannelHandlerContext ctx, ChannelPromise promise) {
            channel(ctx).disconnect0(promise);
        }

        @Override
        public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
            channel(ctx).close0(promise);
        }

        @Override
        public void register(ChannelHandlerContext ctx, ChannelPromise promise) {
            channel(ctx).register0(promise);
        }

        @Override
        public void deregister(ChannelHandlerContext ctx, ChannelPromise promise) {
            channel(ctx).deregister0(promise);
        }

        @Override
        public void shutdown(ChannelHandlerContext ctx, ChannelShutdownDirection direction, ChannelPromise promise) {
            channel(ctx).shutdown0(direction, promise);
        }

        @Override
        public void read(ChannelHandlerContext ctx) {
            channel(ctx).read0();
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            channel(ctx).write0(msg, promise);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            channel(ctx).flush0();
        }
    }

    /** Receives what no handler consumed and hands it to the channel's unhandled-event hooks. */
    private static final class TailHandler implements ChannelHandler {
        static final TailHandler INSTANCE = new TailHandler();

        private static AbstractChannel channel(ChannelHandlerContext ctx) {
            return (AbstractChannel) ctx.channel();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            channel(ctx).onUnhandledInboundException(cause);
        }

        @Override
        public void channelRegistered(ChannelHandlerContext ctx) {
        }

        @Override
        public void channelUnregistered(ChannelHandlerContext ctx) {
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
        }

        @Override
        public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) {
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            channel(ctx).onUnhandledInboundMessage(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            channel(ctx).onUnhandledInboundUserEvent(evt);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        }
    }
}
