package io.weir.channel.uring;

import io.weir.channel.ChannelOption;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.UnixChannelConfig;

/**
 * The config of an io_uring channel: {@link UnixChannelConfig}'s options over the channel's socket; turning
 * auto-read off clears the channel's pending read. Thread-safe as {@link UnixChannelConfig}.
 */
final class IoUringChannelConfig extends UnixChannelConfig {

    IoUringChannelConfig(AbstractIoUringChannel channel, Socket socket, int maxMessagesPerRead, int backlog,
                         ChannelOption<?>... socketOptions) {
        super(channel, socket, maxMessagesPerRead, backlog, socketOptions);
    }

    @Override
    protected void autoReadCleared() {
        ((AbstractIoUringChannel) channel).clearReadPending();
    }
}
