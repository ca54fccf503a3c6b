package io.weir.bootstrap;

import io.weir.channel.Channel;
import io.weir.channel.DefaultChannelPromise;

/**
 * The future {@link Bootstrap#connect} returns when a name may resolve to several addresses: each try has its own
 * channel, and {@link #channel()} is the current try's (the connected one once it succeeds). Listeners are notified
 * on the first channel's event loop, which every try shares. Thread-safe.
 */
final class ConnectPromise extends DefaultChannelPromise {
    private volatile Channel current;

    ConnectPromise(Channel first) {
        super(first);
        this.current = first;
    }

    /** The try under way is on {@code channel}. Event loop only. */
    void current(Channel channel) {
        current = channel;
    }

    @Override
    public Channel channel() {
        return current;
    }
}
