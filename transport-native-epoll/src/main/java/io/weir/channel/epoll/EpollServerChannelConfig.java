package io.weir.channel.epoll;

import io.weir.channel.ChannelOption;
import io.weir.channel.unix.Socket;
import java.util.Map;

/**
 * The config of an epoll server channel: {@link EpollChannelConfig} plus {@link ChannelOption#SO_BACKLOG}, which
 * is kept here and read when the channel binds. Thread-safe.
 */
final class EpollServerChannelConfig extends EpollChannelConfig {
    private volatile int backlog;

    EpollServerChannelConfig(AbstractEpollServerChannel channel, Socket socket, int backlog, int maxAcceptsPerRead,
                             ChannelOption<?>... socketOptions) {
        super(channel, socket, maxAcceptsPerRead, socketOptions);
        this.backlog = backlog;
    }

    /** {@link ChannelOption#SO_BACKLOG}. */
    int backlog() {
        return backlog;
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        return getOptions(super.getOptions(), ChannelOption.SO_BACKLOG);
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T getOption(ChannelOption<T> option) {
        return option == ChannelOption.SO_BACKLOG ? (T) Integer.valueOf(backlog) : super.getOption(option);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        if (option == ChannelOption.SO_BACKLOG) {
            option.validate(value);
            backlog = (Integer) value;
            return true;
        }
        return super.setOption(option, value);
    }
}
