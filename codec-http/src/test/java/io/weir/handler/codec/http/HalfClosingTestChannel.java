package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.channel.AbstractChannel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelShutdownDirection;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.DuplexChannel;
import io.weir.channel.embedded.EmbeddedEventLoop;
import io.weir.util.ManualTicker;
import io.weir.util.Ticker;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A channel that half-closes like a TCP socket ({@link DuplexChannel}, half-closure allowed), driven by the test
 * thread on an {@link EmbeddedEventLoop} with a manual clock, for what {@code EmbeddedChannel} (not a duplex
 * channel) cannot show: {@link HttpServerCodec}'s graceful close. Reads are fed with {@link #receive}, the peer's
 * end of stream with {@link #peerClosesOutput()}; what the transport "sends" is kept as text. Like a socket whose
 * peer reads at its own pace, the transport takes only as many bytes as {@link #peerReads} allowed (unlimited
 * until {@link #peerStopsReading()}); the rest waits in the outbound buffer.
 */
final class HalfClosingTestChannel extends AbstractChannel implements DuplexChannel {
    private final EmbeddedEventLoop loop;
    private final ManualTicker ticker;
    private final ChannelConfig config = new DefaultChannelConfig(this);
    private final StringBuilder sent = new StringBuilder();
    private final SocketAddress address = InetSocketAddress.createUnresolved("test", 80);
    private boolean open = true;
    private boolean active;
    private boolean inputShutdown;
    private boolean outputShutdown;
    private long socketRoom = Long.MAX_VALUE;

    HalfClosingTestChannel(ChannelHandler... handlers) {
        this(new EmbeddedEventLoop(Ticker.manual()), handlers);
    }

    private HalfClosingTestChannel(EmbeddedEventLoop loop, ChannelHandler... handlers) {
        super(null, loop);
        this.loop = loop;
        this.ticker = (ManualTicker) loop.ticker();
        config.setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        pipeline().addLast(handlers);
        register();
        loop.runPendingTasks();
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public boolean isActive() {
        return active;
    }

    @Override
    public boolean isInputShutdown() {
        return inputShutdown || !open;
    }

    @Override
    public boolean isOutputShutdown() {
        return outputShutdown || !open;
    }

    /** One read bringing {@code s}, then the end of that read; runs the tasks it queued. */
    void receive(String s) {
        pipeline().fireChannelRead(HttpTestSupport.bytes(s));
        pipeline().fireChannelReadComplete();
        loop.runPendingTasks();
    }

    /** The client shut its output down (a FIN), as a transport's read loop reports it. */
    void peerClosesOutput() {
        inputEnded();
        loop.runPendingTasks();
    }

    /** From now on the transport takes nothing more until {@link #peerReads} makes room. */
    void peerStopsReading() {
        socketRoom = 0;
    }

    /** The peer reads {@code bytes}: that many more may be sent, and what waits is written now. */
    void peerReads(long bytes) {
        socketRoom += bytes;
        flush();
        loop.runPendingTasks();
    }

    /** Moves the clock on and runs what became due. */
    void advance(long amount, TimeUnit unit) {
        ticker.advance(amount, unit);
        loop.runPendingTasks();
    }

    /** Nanoseconds until the next scheduled task is due, or -1 if none is scheduled. */
    long nextScheduledTaskNanos() {
        return loop.nextScheduledTaskNanos();
    }

    /** Everything sent to the client since the last call. */
    String takeSent() {
        String s = sent.toString();
        sent.setLength(0);
        return s;
    }

    @Override
    protected void doRegister() {
        active = true;
    }

    @Override
    protected SocketAddress localAddress0() {
        return active ? address : null;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return active ? address : null;
    }

    @Override
    protected void doBind(SocketAddress localAddress) {
        // Bound to its one address from the start.
    }

    @Override
    protected void doClose() {
        open = false;
        active = false;
    }

    @Override
    protected void doShutdown(ChannelShutdownDirection direction) {
        if (direction == ChannelShutdownDirection.INBOUND) {
            inputShutdown = true;
        } else {
            outputShutdown = true;
        }
    }

    @Override
    protected void doBeginRead() {
        // Reads arrive only through receive().
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        for (Object msg; (msg = in.current()) != null; ) {
            if (!(msg instanceof ByteBuf buf)) {
                throw new AssertionError("not bytes: " + msg);
            }
            int n = (int) Math.min(buf.readableBytes(), socketRoom);
            if (n == 0 && buf.isReadable()) {
                return; // the "socket" is full: the rest waits for peerReads
            }
            sent.append(buf.toString(buf.readerIndex(), n, StandardCharsets.ISO_8859_1));
            socketRoom -= n;
            in.removeBytes(n);
        }
    }

    /** Closes (handlers release what they hold) and runs what the close queued. */
    void finish() {
        close();
        loop.runPendingTasks();
    }
}
