package io.weir.channel;

/** A {@link TestChannel} whose halves can be shut down separately, like a TCP socket. */
final class TestDuplexChannel extends TestChannel implements DuplexChannel {
    private volatile boolean inputShutdown;
    private volatile boolean outputShutdown;

    TestDuplexChannel(EventLoop loop) {
        super(loop);
    }

    @Override
    public boolean isInputShutdown() {
        return inputShutdown || !isOpen();
    }

    @Override
    public boolean isOutputShutdown() {
        return outputShutdown || !isOpen();
    }

    @Override
    protected void doShutdown(ChannelShutdownDirection direction) {
        if (direction == ChannelShutdownDirection.INBOUND) {
            inputShutdown = true;
        } else {
            outputShutdown = true;
        }
    }

    /** The peer ended its stream, as a transport's read loop would report it. */
    void peerClosedOutput() {
        inputEnded();
    }
}
