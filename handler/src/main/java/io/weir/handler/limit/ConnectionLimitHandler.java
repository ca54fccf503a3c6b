package io.weir.handler.limit;

import io.weir.channel.Channel;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Caps the connections a server holds open at once: placed on a server channel (with
 * {@code ServerBootstrap.handler(...)}), it passes each accepted channel on while fewer than
 * {@linkplain #maxConnections() the limit} are open, and closes it at once, unregistered, otherwise, counting it in
 * {@link #rejectedConnections()}. A connection frees its place when it closes.
 *
 * <pre>{@code
 * ConnectionLimitHandler limit = new ConnectionLimitHandler(10_000);
 * new ServerBootstrap().group(group).channel(...).handler(limit).childHandler(...);
 * }</pre>
 *
 * <h2>Why close, not stop accepting</h2>
 * The other way to cap is to stop accepting (auto-read off on the server channel) until a connection closes. Then
 * the excess waits in the kernel's accept queue, invisible to the server: clients see a connect that succeeds and
 * then a request that hangs (a health check times out instead of failing), and once the queue is full the kernel
 * drops new handshakes and clients retry with backoff for seconds. Closing at once makes the refusal immediate and
 * visible to the client, its load balancer and this counter; it keeps draining the accept queue, so connections
 * accepted when a place frees up are fresh, not ones whose clients gave up long ago. It costs an
 * {@code accept} and a {@code close} per refused connection, and the cap must stay below the process's descriptor
 * limit by the few descriptors that takes. Keep the cap in place with the read timeouts
 * ({@code HttpServerTimeoutHandler}): the timeouts free places held by silent or slow clients, the cap bounds how
 * many they can hold meanwhile.
 *
 * <h2>Threads</h2>
 * {@link ChannelHandler.Sharable}: one instance may be added to several server channels, which then share one
 * cap. Accepted channels are counted on the server channel's loop and released from their own loops' close
 * futures; the counts are atomic and may be read from any thread.
 */
@ChannelHandler.Sharable
public final class ConnectionLimitHandler implements ChannelHandler {
    private final int maxConnections;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong rejected = new AtomicLong();
    private final ChannelFutureListener released = future -> open.decrementAndGet();

    /**
     * A cap of {@code maxConnections} connections open at once.
     *
     * @throws IllegalArgumentException if {@code maxConnections} is not positive
     */
    public ConnectionLimitHandler(int maxConnections) {
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("maxConnections: " + maxConnections + " (expected: > 0)");
        }
        this.maxConnections = maxConnections;
    }

    /** The most connections held open at once. */
    public int maxConnections() {
        return maxConnections;
    }

    /** The connections accepted and passed on that are not closed yet. */
    public int openConnections() {
        return open.get();
    }

    /** How many accepted connections were closed at once because the cap was reached, since this was built. */
    public long rejectedConnections() {
        return rejected.get();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof Channel child)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (open.incrementAndGet() > maxConnections) {
            open.decrementAndGet();
            rejected.incrementAndGet();
            child.close();
            return;
        }
        child.closeFuture().addListener(released);
        ctx.fireChannelRead(child);
    }

    @Override
    public String toString() {
        return "ConnectionLimitHandler(" + open.get() + "/" + maxConnections + " open, " + rejected.get()
                + " rejected)";
    }
}
