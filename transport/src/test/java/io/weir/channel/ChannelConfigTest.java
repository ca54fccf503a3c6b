package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.UnpooledByteBufAllocator;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.IdentityHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ChannelConfigTest {
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final ChannelConfig config = channel.config();

    @AfterEach
    void tearDown() {
        channel.finish();
    }

    @Test
    void outOfRangeValuesAreRejectedNamingTheValue() {
        assertThatThrownBy(() -> config.setOption(ChannelOption.WRITE_SPIN_COUNT, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("WRITE_SPIN_COUNT: 0");
        assertThatThrownBy(() -> config.setConnectTimeoutMillis(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> config.setMaxMessagesPerRead(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DefaultChannelConfig(new EmbeddedChannel(), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MAX_MESSAGES_PER_READ: 0");
        assertThatThrownBy(() -> ChannelOption.IP_TOS.validate(256)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ChannelOption.SO_RCVBUF.validate(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> config.setOption(ChannelOption.AUTO_READ, null))
                .isInstanceOf(NullPointerException.class);
        assertThat(config.getWriteSpinCount()).isEqualTo(DefaultChannelConfig.DEFAULT_WRITE_SPIN_COUNT);
    }

    @Test
    void waterMarksMustBeOrdered() {
        assertThatThrownBy(() -> new WriteBufferWaterMark(10, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("high: 5");
        assertThatThrownBy(() -> new WriteBufferWaterMark(-1, 5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void typedOptionsRoundTrip() {
        assertThat(config.setOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, 1234)).isTrue();
        assertThat(config.getOption(ChannelOption.CONNECT_TIMEOUT_MILLIS)).isEqualTo(1234);
        WriteBufferWaterMark marks = new WriteBufferWaterMark(1, 2);
        config.setOption(ChannelOption.WRITE_BUFFER_WATER_MARK, marks);
        assertThat(config.getWriteBufferWaterMark()).isSameAs(marks);
        config.setOption(ChannelOption.ALLOCATOR, UnpooledByteBufAllocator.DEFAULT);
        assertThat(channel.alloc()).isSameAs(UnpooledByteBufAllocator.DEFAULT);
        assertThat(config.getOptions()).containsEntry(ChannelOption.CONNECT_TIMEOUT_MILLIS, 1234)
                .containsKey(ChannelOption.AUTO_READ);
    }

    @Test
    void unknownOptionsAreRefusedNotIgnoredSilently() {
        assertThat(config.setOption(ChannelOption.TCP_NODELAY, true)).isFalse();
        assertThat(config.getOption(ChannelOption.TCP_NODELAY)).isNull();
        Map<ChannelOption<?>, Object> options = new IdentityHashMap<>();
        options.put(ChannelOption.AUTO_CLOSE, false);
        options.put(ChannelOption.SO_KEEPALIVE, true);
        assertThat(config.setOptions(options)).isFalse();
        assertThat(config.isAutoClose()).isFalse();
    }

    @Test
    void optionsAreInternedByName() {
        assertThat(ChannelOption.valueOf("TCP_NODELAY")).isSameAs(ChannelOption.TCP_NODELAY);
        ChannelOption<String> custom = ChannelOption.valueOf("io.weir.test.custom");
        assertThat(ChannelOption.exists("io.weir.test.custom")).isTrue();
        custom.validate("anything");
    }

    @Test
    void turningAutoReadBackOnAsksForARead() {
        int[] reads = new int[1];
        channel.pipeline().addLast(new ChannelHandler() {
            @Override
            public void read(ChannelHandlerContext ctx) {
                reads[0]++;
                ctx.read();
            }
        });
        config.setAutoRead(false);
        assertThat(reads[0]).isZero();
        config.setAutoRead(true);
        assertThat(reads[0]).isEqualTo(1);
        config.setAutoRead(true);
        assertThat(reads[0]).isEqualTo(1);
    }
}
