package io.weir.channel.uring;

import io.weir.channel.ChannelOption;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.UnixChannelConfig;
import java.io.IOException;

/**
 * The config of an io_uring channel: {@link UnixChannelConfig}'s options over the channel's socket; turning
 * auto-read off clears the channel's pending read. Thread-safe as {@link UnixChannelConfig}.
 */
final class IoUringChannelConfig extends UnixChannelConfig {
    // IoUringChannelOption.SEND_ZC_THRESHOLD, for the channels whose option list names it; written anywhere.
    private volatile int sendZeroCopyThreshold = IoUringChannelOption.SEND_ZC_DISABLED;

    IoUringChannelConfig(AbstractIoUringChannel channel, Socket socket, int maxMessagesPerRead, int backlog,
                         ChannelOption<?>... socketOptions) {
        super(channel, socket, maxMessagesPerRead, backlog, socketOptions);
    }

    /** {@link IoUringChannelOption#SEND_ZC_THRESHOLD}: bytes, or {@link IoUringChannelOption#SEND_ZC_DISABLED}. */
    int sendZeroCopyThreshold() {
        return sendZeroCopyThreshold;
    }

    @Override
    protected Object getTransportOption(ChannelOption<?> option) throws IOException {
        if (option == IoUringChannelOption.SEND_ZC_THRESHOLD) {
            return sendZeroCopyThreshold;
        }
        return super.getTransportOption(option);
    }

    @Override
    protected void setTransportOption(ChannelOption<?> option, Object value) throws IOException {
        if (option == IoUringChannelOption.SEND_ZC_THRESHOLD) {
            int bytes = (Integer) value;
            if (bytes < IoUringChannelOption.SEND_ZC_DISABLED) {
                throw new IllegalArgumentException(option + ": " + bytes + " (expected: >= 0, or "
                        + IoUringChannelOption.SEND_ZC_DISABLED + " for never)");
            }
            sendZeroCopyThreshold = bytes;
            return;
        }
        super.setTransportOption(option, value);
    }

    @Override
    protected void autoReadCleared() {
        ((AbstractIoUringChannel) channel).clearReadPending();
    }
}
