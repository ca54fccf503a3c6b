package io.weir.channel;

import io.weir.util.Ticker;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.RejectedExecutionHandler;
import io.weir.util.concurrent.SingleThreadEventExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/** A real one-thread loop for tests that need a thread other than the caller's; it has no I/O handler. */
final class TestEventLoop extends SingleThreadEventExecutor implements EventLoop {
    final AtomicInteger registrations = new AtomicInteger();
    final AtomicInteger cancellations = new AtomicInteger();
    volatile boolean refuseRegistrations;

    TestEventLoop(Ticker ticker) {
        super(null, null, ticker, Integer.MAX_VALUE, RejectedExecutionHandler.REJECT, null);
    }

    @Override
    protected void run() {
        for (;;) {
            Runnable task = takeTask();
            if (task != null) {
                runTask(task);
            }
            if (confirmShutdown()) {
                return;
            }
        }
    }

    @Override
    public EventLoop next() {
        return this;
    }

    @Override
    public EventLoopGroup parent() {
        return null;
    }

    @Override
    public Future<IoRegistration> register(IoHandle handle) {
        registrations.incrementAndGet();
        if (refuseRegistrations) {
            return newFailedFuture(new IllegalStateException("registration refused"));
        }
        return newSucceededFuture(new IoRegistration() {
            private volatile boolean valid = true;

            @Override
            public long submit(IoOps ops) {
                return 0;
            }

            @Override
            public boolean isValid() {
                return valid;
            }

            @Override
            public boolean cancel() {
                boolean was = valid;
                valid = false;
                cancellations.incrementAndGet();
                return was;
            }

            @Override
            public <T> T attachment() {
                return null;
            }
        });
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return true;
    }
}
