package io.weir.channel.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.DefaultChannelId;
import io.weir.channel.ServerChannel;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.channel.local.LocalServerChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ChannelMatchersTest {
    private final EmbeddedChannel a = new EmbeddedChannel(DefaultChannelId.newInstance());
    private final EmbeddedChannel b = new EmbeddedChannel(DefaultChannelId.newInstance());
    // Never registered: only its type matters here.
    private final LocalServerChannel server = new LocalServerChannel(a.embeddedEventLoop(), a.embeddedEventLoop());

    @AfterEach
    void close() {
        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
    }

    @Test
    void allMatchesEveryChannel() {
        assertThat(ChannelMatchers.all().matches(a)).isTrue();
        assertThat(ChannelMatchers.all().matches(server)).isTrue();
    }

    @Test
    void serverAndNonServerChannelsAreToldApart() {
        assertThat(ChannelMatchers.isServerChannel().matches(server)).isTrue();
        assertThat(ChannelMatchers.isServerChannel().matches(a)).isFalse();
        assertThat(ChannelMatchers.isNonServerChannel().matches(a)).isTrue();
        assertThat(ChannelMatchers.isNonServerChannel().matches(server)).isFalse();
    }

    @Test
    void isAndIsNotGoByIdentity() {
        assertThat(ChannelMatchers.is(a).matches(a)).isTrue();
        assertThat(ChannelMatchers.is(a).matches(b)).isFalse();
        assertThat(ChannelMatchers.isNot(a).matches(a)).isFalse();
        assertThat(ChannelMatchers.isNot(a).matches(b)).isTrue();
    }

    @Test
    void instanceMatchersGoByType() {
        assertThat(ChannelMatchers.isInstanceOf(EmbeddedChannel.class).matches(a)).isTrue();
        assertThat(ChannelMatchers.isInstanceOf(ServerChannel.class).matches(a)).isFalse();
        assertThat(ChannelMatchers.isInstanceOf(ServerChannel.class).matches(server)).isTrue();
        assertThat(ChannelMatchers.isNotInstanceOf(EmbeddedChannel.class).matches(a)).isFalse();
        assertThat(ChannelMatchers.isNotInstanceOf(EmbeddedChannel.class).matches(server)).isTrue();
    }

    @Test
    void invertAndComposeCombine() {
        ChannelMatcher notA = ChannelMatchers.invert(ChannelMatchers.is(a));
        assertThat(notA.matches(a)).isFalse();
        assertThat(notA.matches(b)).isTrue();

        ChannelMatcher embeddedButNotA = ChannelMatchers.compose(
                ChannelMatchers.isInstanceOf(EmbeddedChannel.class), ChannelMatchers.isNot(a));
        assertThat(embeddedButNotA.matches(b)).isTrue();
        assertThat(embeddedButNotA.matches(a)).isFalse();
        assertThat(embeddedButNotA.matches(server)).isFalse();
        assertThat(ChannelMatchers.compose().matches(server)).as("no conditions").isTrue();
    }

    @Test
    void composeCopiesItsArgumentsAndStopsAtTheFirstMiss() {
        int[] asked = new int[1];
        ChannelMatcher counting = channel -> {
            asked[0]++;
            return true;
        };
        ChannelMatcher[] matchers = {ChannelMatchers.is(a), counting};
        ChannelMatcher composed = ChannelMatchers.compose(matchers);
        matchers[0] = ChannelMatchers.all();

        assertThat(composed.matches(b)).isFalse();
        assertThat(asked[0]).isZero();
        assertThat(composed.matches(a)).isTrue();
        assertThat(asked[0]).isEqualTo(1);
    }

    @Test
    void nullsAreRefused() {
        assertThatThrownBy(() -> ChannelMatchers.is(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ChannelMatchers.isInstanceOf(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ChannelMatchers.invert(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ChannelMatchers.compose(ChannelMatchers.all(), null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("matchers[1]");
    }
}
