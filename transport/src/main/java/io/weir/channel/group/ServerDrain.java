package io.weir.channel.group;

import io.weir.channel.Channel;
import io.weir.channel.ChannelDrainEvent;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.ServerChannel;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.GlobalEventExecutor;
import io.weir.util.concurrent.Promise;
import io.weir.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A graceful drain of a server in one call: it stops accepting, lets every connection finish what is in flight in
 * its protocol's terms, and resets whatever is still open at a deadline. The event loops can then be shut down
 * with nothing left to cut.
 *
 * <pre>{@code
 * ChannelGroup channels = new DefaultChannelGroup("http", GlobalEventExecutor.INSTANCE, true);
 * // in the child initializer: channels.add(ch); after bind: channels.add(serverChannel);
 * ServerDrain.drain(channels, 30, TimeUnit.SECONDS).awaitUninterruptibly();
 * group.shutdownGracefully();
 * }</pre>
 *
 * <ol>
 * <li>The group's {@link ServerChannel}s are closed: no new connection is accepted. The drain goes on once they
 *     have closed, so a connection accepted before that is already a member (with a {@code stayClosed} group,
 *     one added later is closed at once).</li>
 * <li>A {@link ChannelDrainEvent} is fired through every connection's pipeline, on its event loop. HTTP/1.1
 *     closes idle keep-alive connections at once and the others after the response in flight (marked
 *     {@code Connection: close}); HTTP/2 sends GOAWAY, answers the streams already open and sends the final
 *     GOAWAY; a WebSocket sends close 1001.</li>
 * <li>At the deadline every connection still open is reset: {@code SO_LINGER} 0 where the transport has it, then
 *     a close that skips the pipeline's handlers (their graceful closes already had their time).</li>
 * </ol>
 *
 * <p>Thread-safe; may be called from any thread but an event loop of the group's channels when the caller then
 * waits on the result.
 */
public final class ServerDrain {
    /** The default deadline: time for responses in flight to finish. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 30_000;

    private ServerDrain() {
    }

    /**
     * Drains the server whose listening channels and connections are members of {@code channels}, with a
     * deadline of {@code timeout}.
     *
     * @return a future on {@link GlobalEventExecutor#INSTANCE} that completes once every connection has closed,
     *         with how many of them had to be reset at the deadline (0: all finished in time)
     * @throws NullPointerException if {@code channels} or {@code unit} is null
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public static Future<Integer> drain(ChannelGroup channels, long timeout, TimeUnit unit) {
        Objects.requireNonNull(channels, "channels");
        Objects.requireNonNull(unit, "unit");
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout: " + timeout + " " + unit + " (expected: >= 0)");
        }
        long deadlineNanos = System.nanoTime() + unit.toNanos(timeout);
        Promise<Integer> result = GlobalEventExecutor.INSTANCE.newPromise();
        channels.close(ChannelMatchers.isServerChannel()).addListener(f -> drainConnections(channels,
                Math.max(0, deadlineNanos - System.nanoTime()), result));
        return result;
    }

    /** {@link #drain(ChannelGroup, long, TimeUnit)} with {@link #DEFAULT_TIMEOUT_MILLIS}. */
    public static Future<Integer> drain(ChannelGroup channels) {
        return drain(channels, DEFAULT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    }

    private static void drainConnections(ChannelGroup channels, long remainingNanos, Promise<Integer> result) {
        List<Channel> connections = new ArrayList<>();
        for (Channel ch : channels) {
            if (!(ch instanceof ServerChannel)) {
                connections.add(ch);
            }
        }
        if (connections.isEmpty()) {
            result.trySuccess(0);
            return;
        }
        AtomicInteger open = new AtomicInteger(connections.size());
        AtomicInteger reset = new AtomicInteger();
        ScheduledFuture<?> deadline = GlobalEventExecutor.INSTANCE.schedule(() -> {
            for (Channel ch : connections) {
                if (ch.isOpen()) {
                    reset.incrementAndGet();
                    ch.eventLoop().execute(() -> reset(ch));
                }
            }
        }, remainingNanos, TimeUnit.NANOSECONDS);
        for (Channel ch : connections) {
            ch.closeFuture().addListener(f -> {
                if (open.decrementAndGet() == 0) {
                    deadline.cancel(false);
                    result.trySuccess(reset.get());
                }
            });
            ch.eventLoop().execute(() -> ch.pipeline().fireUserEventTriggered(ChannelDrainEvent.INSTANCE));
        }
    }

    /** Closes {@code ch} at once, with a reset where the transport can send one. Runs on its event loop. */
    private static void reset(Channel ch) {
        if (!ch.isOpen()) {
            return;
        }
        try {
            // Refused (false) by transports without it (local, embedded): a plain close is the best they have.
            ch.config().setOption(ChannelOption.SO_LINGER, 0);
        } catch (RuntimeException closedMeanwhile) {
            // The socket went away under us: the close below finds nothing left to reset.
        }
        // From the first handler's context the close goes straight to the transport, past every handler's own
        // graceful close (which already had until the deadline).
        ChannelHandlerContext first = ch.pipeline().firstContext();
        if (first != null) {
            first.close();
        } else {
            ch.close();
        }
    }
}
