package io.weir.channel;

import static io.weir.channel.ChannelHandlerMask.*;

import io.weir.util.Recycler;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketAddress;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;

/**
 * A handler's node in the pipeline's doubly linked list. Links are volatile because the pipeline may be
 * changed from any thread while the event loop walks it; everything else is final or confined to the loop.
 */
final class DefaultChannelHandlerContext implements ChannelHandlerContext {
    private static final LoopLogger LOGGER = LoopLogger.of(DefaultChannelHandlerContext.class);

    /** Linked, handlerAdded not called yet: events pass the handler by. Zero, a new context's state unwritten. */
    static final int ADD_PENDING = 0;
    /** handlerAdded called (or being called): events reach the handler. */
    static final int ADD_COMPLETE = 1;
    /** Unlinked and handlerRemoved called. */
    static final int REMOVE_COMPLETE = 2;

    // Links and state change with release stores: a reader on another thread needs to see a context complete
    // once it sees it linked, which a release gives; a volatile store's fence would only order later loads, and
    // a stream's channel builds and tears down a pipeline per request.
    private static final VarHandle NEXT = field("next", DefaultChannelHandlerContext.class);
    private static final VarHandle PREV = field("prev", DefaultChannelHandlerContext.class);
    private static final VarHandle HANDLER_STATE = field("handlerState", int.class);

    volatile DefaultChannelHandlerContext next;
    volatile DefaultChannelHandlerContext prev;

    private final DefaultChannelPipeline pipeline;
    private final String name;
    private final ChannelHandler handler;
    private final EventLoop executor;
    final int executionMask;
    /** The handler's class, as the pipeline knows it. */
    final HandlerType type;
    private volatile int handlerState;
    /** Taken out of the list; guarded by the pipeline's lock. */
    boolean unlinked;

    /** @param type {@code HandlerType.of(handler.getClass())} */
    DefaultChannelHandlerContext(DefaultChannelPipeline pipeline, String name, ChannelHandler handler,
                                 HandlerType type) {
        this.pipeline = pipeline;
        this.name = name;
        this.handler = handler;
        this.executor = pipeline.channel().eventLoop();
        this.type = type;
        this.executionMask = type.mask;
    }

    @Override
    public Channel channel() {
        return pipeline.channel();
    }

    @Override
    public EventLoop executor() {
        return executor;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ChannelHandler handler() {
        return handler;
    }

    @Override
    public boolean isRemoved() {
        return handlerState == REMOVE_COMPLETE;
    }

    @Override
    public ChannelPipeline pipeline() {
        return pipeline;
    }

    private static VarHandle field(String name, Class<?> type) {
        try {
            return MethodHandles.lookup().findVarHandle(DefaultChannelHandlerContext.class, name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Sets this context's own links while no other context points to it: plain stores. */
    void initLinks(DefaultChannelHandlerContext prev, DefaultChannelHandlerContext next) {
        PREV.set(this, prev);
        NEXT.set(this, next);
    }

    /** Links {@code ctx} after this one (publishing it, if new). */
    void linkNext(DefaultChannelHandlerContext ctx) {
        NEXT.setRelease(this, ctx);
    }

    /** Links {@code ctx} before this one (publishing it, if new). */
    void linkPrev(DefaultChannelHandlerContext ctx) {
        PREV.setRelease(this, ctx);
    }

    /** The head and tail, while their pipeline is built: a plain store. */
    void initAddComplete() {
        HANDLER_STATE.set(this, ADD_COMPLETE);
    }

    void setAddComplete() {
        HANDLER_STATE.setRelease(this, ADD_COMPLETE);
    }

    void setRemoved() {
        HANDLER_STATE.setRelease(this, REMOVE_COMPLETE);
    }

    void callHandlerAdded() throws Exception {
        // Before the call: events the handler fires from handlerAdded must be able to come back to it.
        setAddComplete();
        handler.handlerAdded(this);
    }

    void callHandlerRemoved() throws Exception {
        try {
            if (handlerState == ADD_COMPLETE) {
                handler.handlerRemoved(this);
            }
        } finally {
            setRemoved();
        }
    }

    /** Whether events should reach the handler, rather than pass it by. */
    private boolean invokeHandler() {
        return handlerState == ADD_COMPLETE;
    }

    private DefaultChannelHandlerContext findContextInbound(int mask) {
        DefaultChannelHandlerContext ctx = this;
        do {
            ctx = ctx.next;
        } while ((ctx.executionMask & mask) == 0);
        return ctx;
    }

    private DefaultChannelHandlerContext findContextOutbound(int mask) {
        DefaultChannelHandlerContext ctx = this;
        do {
            ctx = ctx.prev;
        } while ((ctx.executionMask & mask) == 0);
        return ctx;
    }

    private void execute(Runnable task) {
        executor.execute(task);
    }

    // ---------------------------------------------------------------- inbound

    @Override
    public ChannelHandlerContext fireChannelRegistered() {
        invokeChannelRegistered(findContextInbound(MASK_CHANNEL_REGISTERED));
        return this;
    }

    static void invokeChannelRegistered(DefaultChannelHandlerContext next) {
        if (next.executor.inEventLoop()) {
            next.invokeChannelRegistered();
        } else {
            next.execute(next::invokeChannelRegistered);
        }
    }

    private void invokeChannelRegistered() {
        if (invokeHandler()) {
            try {
                handler.channelRegistered(this);
            } catch (Throwable t) {
                invokeExceptionCaughtNow(t);
            }
        } else {
            fireChannelRegistered();
        }
    }

    @Override
    public ChannelHandlerContext fireChannelUnregistered() {
        invokeChannelUnregistered(findContextInbound(MASK_CHANNEL_UNREGISTERED));
        return this;
    }

    static void invokeChannelUnregistered(DefaultChannelHandlerContext next) {
        if (next.executor.inEventLoop()) {
            next.invokeChannelUnregistered();
        } else {
            next.execute(next::invokeChannelUnregistered);
        }
    }

    private void invokeChannelUnregistered() {
        if (invokeHandler()) {
            try {
                handler.channelUnregistered(this);
            } catch (Throwable t) {
                invokeExceptionCaughtNow(t);
            }
        } else {
            fireChannelUnregistered();
        }
    }

    @Override
    public ChannelHandlerContext fireChannelActive() {
        invokeChannelActive(findContextInbound(MASK_CHANNEL_ACTIVE));
        return this;
    }

    static void invokeChannelActive(DefaultChannelHandlerContext next) {
        if (next.executor.inEventLoop()) {
            next.invokeChannelActive();
        } else {
            next.execute(next::invokeChannelActive);
        }
    }

    private void invokeChannelActive() {
        if (invokeHandler()) {
            try {
                handler.channelActive(this);
            } catch (Throwable t) {
                invokeExceptionCaughtNow(t);
            }
        } else {
            fireChannelActive();
        }
    }

    @Override
    public ChannelHandlerContext fireChannelInactive() {
        invokeChannelInactive(findContextInbound(MASK_CHANNEL_INACTIVE));
        return this;
    }

    static void invokeChannelInactive(DefaultChannelHandlerContext next) {
        if (next.executor.inEventLoop()) {
            next.invokeChannelInactive();
        } else {
            next.execute(next::invokeChannelInactive);
        }
    }

    private void invokeChannelInactive() {
        if (invokeHandler()) {
            try {
                handler.channelInactive(this);
            } catch (Throwable t) {
                invokeExceptionCaughtNow(t);
            }
        } else {
            fireChannelInactive();
        }
    }

    @Override
    public ChannelHandlerContext fireChannelShutdown(ChannelShutdownEvent event) {
        Objects.requireNonNull(event, "event");
        invokeChannelShutdown(findContextInbound(MASK_CHANNEL_SHUTDOWN), event);
        return this;
    }

    static void invokeChannelShutdown(DefaultChannelHandlerContext next, ChannelShutdownEvent event) {
        if (next.executor.inEventLoop()) {
            next.invokeChannelShutdown(event);
        } else {
            next.execute(() -> next.invokeChannelShutdown(event));
        }
    }

    private void invokeChannelShutdown(ChannelShutdownEvent event) {
        if (invokeHandler()) {
            try {
                handler.channelShutdown(this, event);
            } catch (Throwable t) {
                invokeExceptionCaughtNow(t);
            }
        } else {
            fireChannelShutdown(event);
        }
    }

    @Override
    public ChannelHandlerContext fireExceptionCaught(Throwable cause) {
        Objects.requireNonNull(cause, "cause");
        invokeExceptionCaught(findContextInbound(MASK_EXCEPTION_CAUGHT), cause);
        return this;
    }

    static void invokeExceptionCaught(DefaultChannelHandlerContext next, Throwable cause) {
        if (next.executor.inEventLoop()) {
            next.invokeExceptionCaughtNow(cause);
        } else {
            try {
                next.execute(() -> next.invokeExceptionCaughtNow(cause));
            } catch (RejectedExecutionException e) {
                LOGGER.log(Level.WARNING, "The event loop refused an exception event; the exception was: ", cause);
            }
        }
    }

    private void invokeExceptionCaughtNow(Throwable cause) {
        if (invokeHandler()) {
            try {
                handler.exceptionCaught(this, cause);
            } catch (Throwable t) {
                // Feeding this back into the pipeline could loop forever; log both and stop here.
                try {
                    t.addSuppressed(cause);
                } catch (Throwable ignored) {
                    // addSuppressed can throw (t == cause, or an exception that refuses suppression): log t alone.
                }
                LOGGER.log(Level.WARNING, "exceptionCaught() of handler ", name,
                        " threw while handling an exception (suppressed)", t);
            }
        } else {
            fireExceptionCaught(cause);
        }
    }

    @Override
    public ChannelHandlerContext fireUserEventTriggered(Object evt) {
        Objects.requireNonNull(evt, "evt");
        invokeUserEventTriggered(findContextInbound(MASK_USER_EVENT_TRIGGERED), evt);
        return this;
    }

    static void invokeUserEventTriggered(DefaultChannelHandlerContext next, Object evt) {
        if (next.executor.inEventLoop()) {
            next.invokeUserEventTriggered(evt);
        } else {
            next.execute(() -> next.invokeUserEventTriggered(evt));
        }
    }

    private void invokeUserEventTriggered(Object evt) {
        if (invokeHandler()) {
            try {
                handler.userEventTriggered(this, evt);
            } catch (Throwable t) {
                invokeExceptionCaughtNow(t);
            }
        } else {
            fireUserEventTriggered(evt);
        }
    }

    @Override
    public ChannelHandlerContext fireChannelRead(Object msg) {
        Objects.requireNonNull(msg, "msg");
        invokeChannelRead(findContextInbound(MASK_CHANNEL_READ), msg);
        return this;
    }

    static void invokeChannelRead(DefaultChannelHandlerContext next, Object msg) {
        Object m = next.pipeline.touch(msg, next);
        if (next.executor.inEventLoop()) {
            next.invokeChannelRead(m);
        } else {
            next.execute(() -> next.invokeChannelRead(m));
        }
    }

    private void invokeChannelRead(Object msg) {
        if (invokeHandler()) {
            try {
                handler.channelRead(this, msg);
            } catch (Throwable t) {
                invokeExceptionCaughtNow(t);
            }
        } else {
            fireChannelRead(msg);
        }
    }

    @Override
    public ChannelHandlerContext fireChannelReadComplete() {
        invokeChannelReadComplete(findContextInbound(MASK_CHANNEL_READ_COMPLETE));
        return this;
    }

    static void invokeChannelReadComplete(DefaultChannelHandlerContext next) {
        if (next.executor.inEventLoop()) {
            next.invokeChannelReadComplete();
        } else {
            next.execute(next::invokeChannelReadComplete);
        }
    }

    private void invokeChannelReadComplete() {
        if (invokeHandler()) {
            try {
                handler.channelReadComplete(this);
            } catch (Throwable t) {
                invokeExceptionCaughtNow(t);
            }
        } else {
            fireChannelReadComplete();
        }
    }

    @Override
    public ChannelHandlerContext fireChannelWritabilityChanged() {
        invokeChannelWritabilityChanged(findContextInbound(MASK_CHANNEL_WRITABILITY_CHANGED));
        return this;
    }

    static void invokeChannelWritabilityChanged(DefaultChannelHandlerContext next) {
        if (next.executor.inEventLoop()) {
            next.invokeChannelWritabilityChanged();
        } else {
            next.execute(next::invokeChannelWritabilityChanged);
        }
    }

    private void invokeChannelWritabilityChanged() {
        if (invokeHandler()) {
            try {
                handler.channelWritabilityChanged(this);
            } catch (Throwable t) {
                invokeExceptionCaughtNow(t);
            }
        } else {
            fireChannelWritabilityChanged();
        }
    }

    // ---------------------------------------------------------------- outbound

    /**
     * Whether the operation should be dropped: the promise is already cancelled.
     *
     * @throws IllegalArgumentException if the promise belongs to another channel or is already done
     */
    private boolean isNotValidPromise(ChannelPromise promise) {
        Objects.requireNonNull(promise, "promise");
        if (promise.isDone()) {
            if (promise.isCancelled()) {
                return true;
            }
            throw new IllegalArgumentException("promise already done: " + promise);
        }
        if (promise.channel() != channel()) {
            throw new IllegalArgumentException("promise of another channel: promise.channel()="
                    + promise.channel() + ", channel=" + channel());
        }
        return false;
    }

    /** An outbound handler threw: the operation failed. */
    private static void failOutbound(ChannelPromise promise, Throwable cause) {
        if (!promise.tryFailure(cause) && !promise.isVoid()) {
            LOGGER.log(Level.WARNING, "Failed to fail ", promise, " after a handler threw", cause);
        }
    }

    @Override
    public ChannelFuture bind(SocketAddress localAddress, ChannelPromise promise) {
        Objects.requireNonNull(localAddress, "localAddress");
        if (isNotValidPromise(promise)) {
            return promise;
        }
        DefaultChannelHandlerContext next = findContextOutbound(MASK_BIND);
        if (next.executor.inEventLoop()) {
            next.invokeBind(localAddress, promise);
        } else {
            safeExecute(() -> next.invokeBind(localAddress, promise), promise, null);
        }
        return promise;
    }

    private void invokeBind(SocketAddress localAddress, ChannelPromise promise) {
        if (invokeHandler()) {
            try {
                handler.bind(this, localAddress, promise);
            } catch (Throwable t) {
                failOutbound(promise, t);
            }
        } else {
            bind(localAddress, promise);
        }
    }

    @Override
    public ChannelFuture connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
        Objects.requireNonNull(remoteAddress, "remoteAddress");
        if (isNotValidPromise(promise)) {
            return promise;
        }
        DefaultChannelHandlerContext next = findContextOutbound(MASK_CONNECT);
        if (next.executor.inEventLoop()) {
            next.invokeConnect(remoteAddress, localAddress, promise);
        } else {
            safeExecute(() -> next.invokeConnect(remoteAddress, localAddress, promise), promise, null);
        }
        return promise;
    }

    private void invokeConnect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
        if (invokeHandler()) {
            try {
                handler.connect(this, remoteAddress, localAddress, promise);
            } catch (Throwable t) {
                failOutbound(promise, t);
            }
        } else {
            connect(remoteAddress, localAddress, promise);
        }
    }

    @Override
    public ChannelFuture disconnect(ChannelPromise promise) {
        if (!channel().metadata().hasDisconnect()) {
            // Without a notion of disconnection, handlers see the close they would otherwise miss.
            return close(promise);
        }
        if (isNotValidPromise(promise)) {
            return promise;
        }
        DefaultChannelHandlerContext next = findContextOutbound(MASK_DISCONNECT);
        if (next.executor.inEventLoop()) {
            next.invokeDisconnect(promise);
        } else {
            safeExecute(() -> next.invokeDisconnect(promise), promise, null);
        }
        return promise;
    }

    private void invokeDisconnect(ChannelPromise promise) {
        if (invokeHandler()) {
            try {
                handler.disconnect(this, promise);
            } catch (Throwable t) {
                failOutbound(promise, t);
            }
        } else {
            disconnect(promise);
        }
    }

    @Override
    public ChannelFuture close(ChannelPromise promise) {
        if (isNotValidPromise(promise)) {
            return promise;
        }
        DefaultChannelHandlerContext next = findContextOutbound(MASK_CLOSE);
        if (next.executor.inEventLoop()) {
            next.invokeClose(promise);
        } else {
            safeExecute(() -> next.invokeClose(promise), promise, null);
        }
        return promise;
    }

    private void invokeClose(ChannelPromise promise) {
        if (invokeHandler()) {
            try {
                handler.close(this, promise);
            } catch (Throwable t) {
                failOutbound(promise, t);
            }
        } else {
            close(promise);
        }
    }

    @Override
    public ChannelFuture register(ChannelPromise promise) {
        if (isNotValidPromise(promise)) {
            return promise;
        }
        DefaultChannelHandlerContext next = findContextOutbound(MASK_REGISTER);
        if (next.executor.inEventLoop()) {
            next.invokeRegister(promise);
        } else {
            safeExecute(() -> next.invokeRegister(promise), promise, null);
        }
        return promise;
    }

    private void invokeRegister(ChannelPromise promise) {
        if (invokeHandler()) {
            try {
                handler.register(this, promise);
            } catch (Throwable t) {
                failOutbound(promise, t);
            }
        } else {
            register(promise);
        }
    }

    @Override
    public ChannelFuture deregister(ChannelPromise promise) {
        if (isNotValidPromise(promise)) {
            return promise;
        }
        DefaultChannelHandlerContext next = findContextOutbound(MASK_DEREGISTER);
        if (next.executor.inEventLoop()) {
            next.invokeDeregister(promise);
        } else {
            safeExecute(() -> next.invokeDeregister(promise), promise, null);
        }
        return promise;
    }

    private void invokeDeregister(ChannelPromise promise) {
        if (invokeHandler()) {
            try {
                handler.deregister(this, promise);
            } catch (Throwable t) {
                failOutbound(promise, t);
            }
        } else {
            deregister(promise);
        }
    }

    @Override
    public ChannelFuture shutdown(ChannelShutdownDirection direction, ChannelPromise promise) {
        Objects.requireNonNull(direction, "direction");
        if (isNotValidPromise(promise)) {
            return promise;
        }
        DefaultChannelHandlerContext next = findContextOutbound(MASK_SHUTDOWN);
        if (next.executor.inEventLoop()) {
            next.invokeShutdown(direction, promise);
        } else {
            safeExecute(() -> next.invokeShutdown(direction, promise), promise, null);
        }
        return promise;
    }

    private void invokeShutdown(ChannelShutdownDirection direction, ChannelPromise promise) {
        if (invokeHandler()) {
            try {
                handler.shutdown(this, direction, promise);
            } catch (Throwable t) {
                failOutbound(promise, t);
            }
        } else {
            shutdown(direction, promise);
        }
    }

    @Override
    public ChannelHandlerContext read() {
        DefaultChannelHandlerContext next = findContextOutbound(MASK_READ);
        if (next.executor.inEventLoop()) {
            next.invokeRead();
        } else {
            next.execute(next::invokeRead);
        }
        return this;
    }

    private void invokeRead() {
        if (invokeHandler()) {
            try {
                handler.read(this);
            } catch (Throwable t) {
                invokeExceptionCaughtNow(t);
            }
        } else {
            read();
        }
    }

    @Override
    public ChannelFuture write(Object msg, ChannelPromise promise) {
        write(msg, false, promise);
        return promise;
    }

    @Override
    public ChannelFuture writeAndFlush(Object msg, ChannelPromise promise) {
        write(msg, true, promise);
        return promise;
    }

    private void write(Object msg, boolean flush, ChannelPromise promise) {
        Objects.requireNonNull(msg, "msg");
        try {
            if (isNotValidPromise(promise)) {
                ReferenceCountUtil.release(msg);
                return;
            }
        } catch (RuntimeException e) {
            ReferenceCountUtil.release(msg);
            throw e;
        }
        DefaultChannelHandlerContext next = findContextOutbound(flush ? MASK_WRITE | MASK_FLUSH : MASK_WRITE);
        msg = pipeline.touch(msg, next);
        if (next.executor.inEventLoop()) {
            if (flush) {
                next.invokeWriteAndFlush(msg, promise);
            } else {
                next.invokeWrite(msg, promise);
            }
        } else {
            WriteTask task = WriteTask.newInstance(next, msg, promise, flush);
            safeExecute(task, promise, msg);
        }
    }

    private void invokeWrite(Object msg, ChannelPromise promise) {
        if (invokeHandler()) {
            invokeWrite0(msg, promise);
        } else {
            write(msg, promise);
        }
    }

    private void invokeWrite0(Object msg, ChannelPromise promise) {
        try {
            handler.write(this, msg, promise);
        } catch (Throwable t) {
            failOutbound(promise, t);
        }
    }

    private void invokeWriteAndFlush(Object msg, ChannelPromise promise) {
        if (invokeHandler()) {
            invokeWrite0(msg, promise);
            invokeFlush0();
        } else {
            writeAndFlush(msg, promise);
        }
    }

    @Override
    public ChannelHandlerContext flush() {
        DefaultChannelHandlerContext next = findContextOutbound(MASK_FLUSH);
        if (next.executor.inEventLoop()) {
            next.invokeFlush();
        } else {
            next.execute(next::invokeFlush);
        }
        return this;
    }

    private void invokeFlush() {
        if (invokeHandler()) {
            invokeFlush0();
        } else {
            flush();
        }
    }

    private void invokeFlush0() {
        try {
            handler.flush(this);
        } catch (Throwable t) {
            invokeExceptionCaughtNow(t);
        }
    }

    /** Hands an outbound operation to the loop; if the loop refuses it, fails the promise and releases {@code msg}. */
    private void safeExecute(Runnable task, ChannelPromise promise, Object msg) {
        try {
            executor.execute(task);
        } catch (Throwable cause) {
            try {
                if (task instanceof WriteTask writeTask) {
                    writeTask.recycle();
                }
                if (msg != null) {
                    ReferenceCountUtil.release(msg);
                }
            } finally {
                promise.tryFailure(cause);
            }
        }
    }

    // ---------------------------------------------------------------- factories

    @Override
    public ChannelPromise newPromise() {
        return channel().newPromise();
    }

    @Override
    public ChannelProgressivePromise newProgressivePromise() {
        return channel().newProgressivePromise();
    }

    @Override
    public ChannelFuture newSucceededFuture() {
        return channel().newSucceededFuture();
    }

    @Override
    public ChannelFuture newFailedFuture(Throwable cause) {
        return channel().newFailedFuture(cause);
    }

    @Override
    public ChannelPromise voidPromise() {
        return channel().voidPromise();
    }

    @Override
    public String toString() {
        return "ChannelHandlerContext(" + name + ", " + channel() + ')';
    }

    /**
     * A write started off the event loop. Its estimated size counts towards the channel's pending bytes from
     * the moment it is queued, so writability reflects writes still travelling to the loop. Pooled.
     */
    static final class WriteTask implements Runnable {
        /** Bytes a queued write task is counted for beyond its message: the task object itself. */
        static final int WRITE_TASK_OVERHEAD_BYTES = 32;

        private static final Recycler<WriteTask> RECYCLER = new Recycler<>() {
            @Override
            protected WriteTask newObject(Handle<WriteTask> handle) {
                return new WriteTask(handle);
            }
        };

        private final Recycler.Handle<WriteTask> handle;
        private DefaultChannelHandlerContext ctx;
        private Object msg;
        private ChannelPromise promise;
        private int size;
        private boolean flush;

        private WriteTask(Recycler.Handle<WriteTask> handle) {
            this.handle = handle;
        }

        static WriteTask newInstance(DefaultChannelHandlerContext ctx, Object msg, ChannelPromise promise,
                                     boolean flush) {
            WriteTask task = RECYCLER.get();
            task.ctx = ctx;
            task.msg = msg;
            task.promise = promise;
            task.flush = flush;
            AbstractChannel channel = ctx.pipeline.abstractChannel();
            ChannelOutboundBuffer buffer = channel.outboundBufferOrNull();
            if (buffer != null) {
                int size = channel.estimatorHandle().size(msg) + WRITE_TASK_OVERHEAD_BYTES;
                task.size = size;
                buffer.incrementPendingOutboundBytes(size);
            } else {
                task.size = 0;
            }
            return task;
        }

        @Override
        public void run() {
            try {
                decrementPendingOutboundBytes();
                size = 0;
                if (flush) {
                    ctx.invokeWriteAndFlush(msg, promise);
                } else {
                    ctx.invokeWrite(msg, promise);
                }
            } finally {
                recycle();
            }
        }

        private void decrementPendingOutboundBytes() {
            if (size > 0) {
                ChannelOutboundBuffer buffer = ctx.pipeline.abstractChannel().outboundBufferOrNull();
                if (buffer != null) {
                    buffer.decrementPendingOutboundBytes(size);
                }
            }
        }

        void recycle() {
            decrementPendingOutboundBytes();
            size = 0;
            ctx = null;
            msg = null;
            promise = null;
            handle.recycle(this);
        }
    }
}
