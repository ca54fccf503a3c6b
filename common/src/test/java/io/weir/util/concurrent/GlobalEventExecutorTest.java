package io.weir.util.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class GlobalEventExecutorTest {
    private static final long TIMEOUT_SECONDS = 10;
    private static final GlobalEventExecutor GLOBAL = GlobalEventExecutor.INSTANCE;

    @Test
    void threadExitsWhenIdleAndANewOneStartsOnDemand() throws Exception {
        Thread first = GLOBAL.submit(Thread::currentThread).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(first.isDaemon()).isTrue();
        assertThat(GLOBAL.awaitInactivity(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(first.isAlive()).isFalse();

        Thread second = GLOBAL.submit(Thread::currentThread).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(second).isNotSameAs(first);
        assertThat(GLOBAL.inEventLoop(second)).isTrue();
    }

    @Test
    void scheduledTaskKeepsTheThreadUntilItRuns() throws Exception {
        ScheduledFuture<String> future = GLOBAL.schedule(() -> "later", 10, TimeUnit.MILLISECONDS);
        assertThat(future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("later");
    }

    @Test
    void cannotBeShutDown() {
        assertThatThrownBy(GLOBAL::shutdown).isInstanceOf(UnsupportedOperationException.class);
        assertThat(GLOBAL.shutdownGracefully().isDone()).isTrue();
        assertThat(GLOBAL.isShuttingDown()).isFalse();
        assertThat(GLOBAL.terminationFuture().cause()).isInstanceOf(UnsupportedOperationException.class);
    }
}
