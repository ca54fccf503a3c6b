package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.UnpooledByteBufAllocator;
import io.weir.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RecvByteBufAllocatorTest {
    private final EmbeddedChannel channel = new EmbeddedChannel();

    @AfterEach
    void tearDown() {
        channel.finish();
    }

    /** One read loop in which every read returns {@code bytes} of {@code attempted}. */
    private void readLoop(RecvByteBufAllocator.Handle handle, int reads, int bytes) {
        handle.reset(channel.config());
        for (int i = 0; i < reads; i++) {
            handle.attemptedBytesRead(handle.guess());
            handle.lastBytesRead(Math.min(bytes, handle.guess()));
            handle.incMessagesRead(1);
        }
        handle.readComplete();
    }

    @Test
    void adaptiveGrowsAtOnceWhenReadsFillTheBuffer() {
        RecvByteBufAllocator.Handle handle = new AdaptiveRecvByteBufAllocator(64, 1024, 65536).newHandle();
        assertThat(handle.guess()).isEqualTo(1024);
        readLoop(handle, 1, Integer.MAX_VALUE);
        assertThat(handle.guess()).isGreaterThan(1024);
        for (int i = 0; i < 10; i++) {
            readLoop(handle, 1, Integer.MAX_VALUE);
        }
        assertThat(handle.guess()).isEqualTo(65536);
    }

    @Test
    void adaptiveShrinksOnlyAfterTwoSmallReadLoops() {
        RecvByteBufAllocator.Handle handle = new AdaptiveRecvByteBufAllocator(64, 1024, 65536).newHandle();
        readLoop(handle, 1, 10);
        assertThat(handle.guess()).isEqualTo(1024);
        readLoop(handle, 1, 10);
        assertThat(handle.guess()).isLessThan(1024);
        for (int i = 0; i < 100; i++) {
            readLoop(handle, 1, 10);
        }
        assertThat(handle.guess()).isEqualTo(64);
    }

    @Test
    void adaptiveBoundsAreValidated() {
        assertThatThrownBy(() -> new AdaptiveRecvByteBufAllocator(0, 1, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AdaptiveRecvByteBufAllocator(64, 32, 128))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initial: 32");
        assertThatThrownBy(() -> new AdaptiveRecvByteBufAllocator(64, 128, 100)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fixedAlwaysGuessesTheSameAndAllocatesIt() {
        RecvByteBufAllocator.Handle handle = new FixedRecvByteBufAllocator(300).newHandle();
        readLoop(handle, 3, Integer.MAX_VALUE);
        assertThat(handle.guess()).isEqualTo(300);
        ByteBuf buf = handle.allocate(UnpooledByteBufAllocator.DEFAULT);
        try {
            assertThat(buf.writableBytes()).isEqualTo(300);
        } finally {
            buf.release();
        }
        assertThatThrownBy(() -> new FixedRecvByteBufAllocator(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readLoopStopsAtTheMessageLimitOrAShortRead() {
        channel.config().setMaxMessagesPerRead(3);
        RecvByteBufAllocator.Handle handle = new FixedRecvByteBufAllocator(100).newHandle();
        handle.reset(channel.config());
        handle.attemptedBytesRead(100);
        handle.lastBytesRead(100);
        handle.incMessagesRead(1);
        assertThat(handle.continueReading()).isTrue();
        handle.attemptedBytesRead(100);
        handle.lastBytesRead(40);
        handle.incMessagesRead(1);
        assertThat(handle.continueReading()).isFalse();

        handle.reset(channel.config());
        for (int i = 0; i < 3; i++) {
            handle.attemptedBytesRead(100);
            handle.lastBytesRead(100);
            handle.incMessagesRead(1);
        }
        assertThat(handle.continueReading()).isFalse();
    }

    @Test
    void messageChannelsAreLimitedByCountAndAutoRead() {
        channel.config().setMaxMessagesPerRead(2);
        RecvByteBufAllocator.Handle handle = AdaptiveRecvByteBufAllocator.DEFAULT.newHandle();
        handle.reset(channel.config());
        handle.incMessagesRead(1);
        assertThat(handle.continueReading()).isTrue();
        handle.incMessagesRead(1);
        assertThat(handle.continueReading()).isFalse();
        channel.config().setAutoRead(false);
        handle.reset(channel.config());
        assertThat(handle.continueReading()).isFalse();
    }
}
