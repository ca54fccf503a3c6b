package io.weir.util.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class FastThreadLocalTest {

    private static <T> T onThread(ThreadFactory factory, java.util.concurrent.Callable<T> task) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = factory.newThread(() -> {
            try {
                result.complete(task.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        t.start();
        T value = result.get(10, TimeUnit.SECONDS);
        t.join(10_000);
        assertThat(t.isAlive()).isFalse();
        return value;
    }

    @Test
    void initialValueIsComputedOncePerThread() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        FastThreadLocal<Integer> local = new FastThreadLocal<>() {
            @Override
            protected Integer initialValue() {
                return calls.incrementAndGet();
            }
        };
        for (ThreadFactory f : List.of(new DefaultThreadFactory("ftl"), Executors.defaultThreadFactory())) {
            int before = calls.get();
            Integer first = onThread(f, () -> {
                Integer a = local.get();
                assertThat(local.get()).isSameAs(a);
                assertThat(local.isSet()).isTrue();
                return a;
            });
            assertThat(first).isEqualTo(before + 1);
        }
        assertThat(calls.get()).isEqualTo(2);
    }

    @Test
    void valuesAreSeparatePerThreadAndPerInstance() throws Exception {
        FastThreadLocal<String> a = new FastThreadLocal<>();
        FastThreadLocal<String> b = new FastThreadLocal<>();
        a.set("main-a");
        b.set("main-b");
        String other = onThread(new DefaultThreadFactory("ftl"), () -> {
            assertThat(a.get()).isNull();
            a.set("other-a");
            return a.get() + "," + b.getIfExists();
        });
        assertThat(other).isEqualTo("other-a,null");
        assertThat(a.get()).isEqualTo("main-a");
        assertThat(b.get()).isEqualTo("main-b");
        a.remove();
        b.remove();
        assertThat(a.isSet()).isFalse();
    }

    @Test
    void onRemovalRunsWhenFastThreadLocalThreadEnds() throws Exception {
        List<String> removed = new CopyOnWriteArrayList<>();
        FastThreadLocal<String> local = new FastThreadLocal<>() {
            @Override
            protected void onRemoval(String value) {
                removed.add(value + "@" + Thread.currentThread().getName());
            }
        };
        String name = onThread(new DefaultThreadFactory("cleanup"), () -> {
            local.set("v");
            return Thread.currentThread().getName();
        });
        assertThat(removed).containsExactly("v@" + name);
    }

    @Test
    void removeAllClearsEveryValueOfAPlainThread() throws Exception {
        List<Object> removed = new CopyOnWriteArrayList<>();
        FastThreadLocal<Object> x = new FastThreadLocal<>() {
            @Override
            protected void onRemoval(Object value) {
                removed.add(value);
            }
        };
        FastThreadLocal<Object> y = new FastThreadLocal<>() {
            @Override
            protected void onRemoval(Object value) {
                removed.add(value);
            }
        };
        boolean cleared = onThread(Executors.defaultThreadFactory(), () -> {
            x.set(1);
            y.set(2);
            FastThreadLocal.removeAll();
            return !x.isSet() && !y.isSet();
        });
        assertThat(cleared).isTrue();
        assertThat(removed).containsExactlyInAnyOrder(1, 2);
    }

    @Test
    void manyInstancesGrowTheMap() {
        FastThreadLocal<?>[] locals = new FastThreadLocal<?>[300];
        for (int i = 0; i < locals.length; i++) {
            @SuppressWarnings("unchecked")
            FastThreadLocal<Integer> l = new FastThreadLocal<>();
            l.set(i);
            locals[i] = l;
        }
        for (int i = 0; i < locals.length; i++) {
            assertThat(locals[i].get()).isEqualTo(i);
            locals[i].remove();
        }
    }

    @Test
    void failingInitialValueIsWrapped() {
        FastThreadLocal<String> local = new FastThreadLocal<>() {
            @Override
            protected String initialValue() throws Exception {
                throw new java.io.IOException("boom");
            }
        };
        assertThatThrownBy(local::get).isInstanceOf(IllegalStateException.class).hasRootCauseMessage("boom");
        assertThat(local.isSet()).isFalse();
    }

    @Test
    void shortLivedPlainThreadsLeaveNothingBehind() throws Exception {
        // Thread-confined maps: a million short-lived threads must not pile up memory anywhere global.
        FastThreadLocal<byte[]> local = new FastThreadLocal<>() {
            @Override
            protected byte[] initialValue() {
                return new byte[1024];
            }
        };
        ThreadFactory factory = Executors.defaultThreadFactory();
        for (int i = 0; i < 2_000; i++) {
            assertThat(onThread(factory, () -> local.get().length)).isEqualTo(1024);
        }
    }

    @Test
    void threadFactoryNamesAndFlags() {
        DefaultThreadFactory f = new DefaultThreadFactory("pool", true, Thread.MAX_PRIORITY);
        Thread t = f.newThread(() -> { });
        assertThat(t).isInstanceOf(FastThreadLocalThread.class);
        assertThat(((FastThreadLocalThread) t).willCleanupFastThreadLocals()).isTrue();
        assertThat(t.getName()).matches("pool-\\d+-1");
        assertThat(t.isDaemon()).isTrue();
        assertThat(t.getPriority()).isEqualTo(Thread.MAX_PRIORITY);
        assertThat(DefaultThreadFactory.toPoolName(FastThreadLocalTest.class)).isEqualTo("fastThreadLocalTest");
        assertThatThrownBy(() -> new DefaultThreadFactory("p", false, 42)).isInstanceOf(IllegalArgumentException.class);
    }
}
