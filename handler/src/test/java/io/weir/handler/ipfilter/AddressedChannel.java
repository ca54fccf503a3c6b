package io.weir.handler.ipfilter;

import io.weir.channel.AbstractChannel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.embedded.EmbeddedEventLoop;
import io.weir.util.Ticker;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * A test channel with a real remote {@link InetSocketAddress}: either known from the start (like an accepted
 * server channel) or only after {@code connect} (like a client).
 */
final class AddressedChannel extends AbstractChannel {
    private final EmbeddedEventLoop loop;
    private final ChannelConfig config = new DefaultChannelConfig(this);
    private SocketAddress remote;
    private boolean open = true;
    private boolean active;

    private AddressedChannel(EmbeddedEventLoop loop, SocketAddress remote, boolean active) {
        super(null, loop);
        this.loop = loop;
        this.remote = remote;
        this.active = active;
    }

    /** A channel that is active at once but never learns its remote address (a broken transport). */
    static AddressedChannel activeWithoutAddress(ChannelHandler... handlers) {
        AddressedChannel ch = new AddressedChannel(new EmbeddedEventLoop(Ticker.manual()), null, true);
        ch.pipeline().addLast(handlers);
        ch.register();
        ch.runTasks();
        return ch;
    }

    /** An accepted-style channel from {@code host:port}, registered with {@code handlers}. */
    static AddressedChannel accepted(String host, ChannelHandler... handlers) {
        AddressedChannel ch = new AddressedChannel(new EmbeddedEventLoop(Ticker.manual()),
                new InetSocketAddress(host, 40000), true);
        ch.pipeline().addLast(handlers);
        ch.register();
        ch.runTasks();
        return ch;
    }

    /** A client-style channel with no remote address until connected. */
    static AddressedChannel unconnected(ChannelHandler... handlers) {
        AddressedChannel ch = new AddressedChannel(new EmbeddedEventLoop(Ticker.manual()), null, false);
        ch.pipeline().addLast(handlers);
        ch.register();
        ch.runTasks();
        return ch;
    }

    void runTasks() {
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
        return open && active;
    }

    @Override
    protected SocketAddress localAddress0() {
        return new InetSocketAddress("127.0.0.1", 8080);
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return remote;
    }

    @Override
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) {
        remote = remoteAddress;
        active = true;
        return true;
    }

    @Override
    protected void doBind(SocketAddress localAddress) {
    }

    @Override
    protected void doClose() {
        open = false;
    }

    @Override
    protected void doBeginRead() {
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        while (in.current() != null) {
            in.remove();
        }
    }

}
