package io.weir.channel;

import io.weir.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A transport for tests: an I/O handle registered with its loop, binds and connects on request, and a
 * socket whose "send buffer" takes writes only while {@link #acceptWrites} is on.
 */
class TestChannel extends AbstractChannel {
    final Queue<Object> written = new ConcurrentLinkedQueue<>();
    final ChannelConfig config = new DefaultChannelConfig(this);
    volatile boolean acceptWrites = true;
    volatile boolean connectCompletesLater;
    private volatile boolean open = true;
    private volatile boolean active;
    private volatile SocketAddress local;
    private volatile SocketAddress remote;

    TestChannel(EventLoop loop) {
        super(null, loop);
    }

    /** A channel whose id is made by {@link #newId()} when first asked for. */
    TestChannel(EventLoop loop, boolean idOnFirstUse) {
        super(null, loop, idOnFirstUse);
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
    protected IoHandle ioHandle() {
        return new IoHandle() {
            @Override
            public void handle(IoRegistration registration, IoEvent event) {
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    protected SocketAddress localAddress0() {
        return local;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return remote;
    }

    @Override
    protected void doBind(SocketAddress localAddress) {
        local = localAddress;
        active = true;
    }

    @Override
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) {
        remote = remoteAddress;
        local = new InetSocketAddress(0);
        if (connectCompletesLater) {
            return false;
        }
        active = true;
        return true;
    }

    @Override
    protected void doFinishConnect() {
        active = true;
    }

    /** Reports the pending connect as done, as a transport does on connect readiness. */
    void connectReady() {
        finishConnect();
    }

    @Override
    protected void doClose() {
        open = false;
        active = false;
    }

    @Override
    protected void doBeginRead() {
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        while (acceptWrites) {
            Object msg = in.current();
            if (msg == null) {
                return;
            }
            written.add(ReferenceCountUtil.retain(msg));
            in.remove();
        }
    }

    /** The socket became writable again. */
    void writable() {
        writeFlushed();
    }
}
