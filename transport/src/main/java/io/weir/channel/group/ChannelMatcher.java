package io.weir.channel.group;

import io.weir.channel.Channel;

/**
 * Chooses which members of a {@link ChannelGroup} an operation acts on. {@link ChannelMatchers} has the usual
 * ones and combines them.
 *
 * <p>A matcher is called on the thread that started the group operation, once per member, while the group
 * iterates its members: it must be thread-safe, quick, and must not block or change the group.
 */
@FunctionalInterface
public interface ChannelMatcher {

    /** Whether the operation should act on {@code channel}; never called with {@code null}. */
    boolean matches(Channel channel);
}
