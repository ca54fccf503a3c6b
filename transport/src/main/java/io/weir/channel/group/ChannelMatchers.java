package io.weir.channel.group;

import io.weir.channel.Channel;
import io.weir.channel.ServerChannel;
import java.util.Objects;

/**
 * The common {@link ChannelMatcher}s and ways to combine them. Every matcher returned is stateless or
 * immutable, hence thread-safe, and may be kept and reused.
 */
public final class ChannelMatchers {
    private static final ChannelMatcher ALL = channel -> true;
    private static final ChannelMatcher SERVER_CHANNELS = channel -> channel instanceof ServerChannel;
    private static final ChannelMatcher NON_SERVER_CHANNELS = channel -> !(channel instanceof ServerChannel);

    private ChannelMatchers() {
    }

    /** Matches every channel. */
    public static ChannelMatcher all() {
        return ALL;
    }

    /** Matches {@link ServerChannel}s (listening channels). */
    public static ChannelMatcher isServerChannel() {
        return SERVER_CHANNELS;
    }

    /** Matches channels that are not {@link ServerChannel}s (connections, datagram channels). */
    public static ChannelMatcher isNonServerChannel() {
        return NON_SERVER_CHANNELS;
    }

    /**
     * Matches exactly {@code channel} (by identity).
     *
     * @throws NullPointerException if {@code channel} is null
     */
    public static ChannelMatcher is(Channel channel) {
        Objects.requireNonNull(channel, "channel");
        return candidate -> candidate == channel;
    }

    /**
     * Matches every channel but {@code channel}: for example, to relay one client's message to all the
     * others.
     *
     * @throws NullPointerException if {@code channel} is null
     */
    public static ChannelMatcher isNot(Channel channel) {
        return invert(is(channel));
    }

    /**
     * Matches channels that are instances of {@code type}.
     *
     * @throws NullPointerException if {@code type} is null
     */
    public static ChannelMatcher isInstanceOf(Class<? extends Channel> type) {
        Objects.requireNonNull(type, "type");
        return type::isInstance;
    }

    /**
     * Matches channels that are not instances of {@code type}.
     *
     * @throws NullPointerException if {@code type} is null
     */
    public static ChannelMatcher isNotInstanceOf(Class<? extends Channel> type) {
        return invert(isInstanceOf(type));
    }

    /**
     * Matches the channels {@code matcher} does not match.
     *
     * @throws NullPointerException if {@code matcher} is null
     */
    public static ChannelMatcher invert(ChannelMatcher matcher) {
        Objects.requireNonNull(matcher, "matcher");
        return channel -> !matcher.matches(channel);
    }

    /**
     * Matches the channels that every one of {@code matchers} matches, asking them in order and stopping at
     * the first that does not; with no matchers, every channel. The array is copied.
     *
     * @throws NullPointerException if {@code matchers} or one of its elements is null
     */
    public static ChannelMatcher compose(ChannelMatcher... matchers) {
        ChannelMatcher[] copy = matchers.clone();
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] == null) {
                throw new NullPointerException("matchers[" + i + "]");
            }
        }
        if (copy.length == 0) {
            return ALL;
        }
        if (copy.length == 1) {
            return copy[0];
        }
        return channel -> {
            for (ChannelMatcher m : copy) {
                if (!m.matches(channel)) {
                    return false;
                }
            }
            return true;
        };
    }
}
