package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

class ChannelInitializerTest {

    private static final class Marker implements ChannelHandler {
    }

    @Test
    void addsHandlersThenRemovesItself() {
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast("marker", new Marker());
            }
        };
        EmbeddedChannel a = new EmbeddedChannel(init);
        EmbeddedChannel b = new EmbeddedChannel(init);
        assertThat(a.pipeline().names()).containsExactly("marker");
        assertThat(b.pipeline().names()).containsExactly("marker");
        a.finish();
        b.finish();
    }

    @Test
    void failingInitializationClosesTheChannel() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                throw new IllegalStateException("bad config");
            }
        });
        ch.runPendingTasks();
        assertThat(ch.isOpen()).isFalse();
        assertThat(ch.pipeline().names()).isEmpty();
    }
}
