package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AttributeMapTest {

    @Test
    void sameKeySameAttributeUntilRemoved() {
        DefaultAttributeMap map = new DefaultAttributeMap();
        AttributeKey<String> key = AttributeKey.valueOf("AttributeMapTest.name");
        assertThat(map.hasAttr(key)).isFalse();
        assertThat(map).hasToString("DefaultAttributeMap[]");
        Attribute<String> attr = map.attr(key);
        assertThat(map.attr(key)).isSameAs(attr);
        assertThat(attr.setIfAbsent("a")).isNull();
        assertThat(attr.setIfAbsent("b")).isEqualTo("a");
        assertThat(attr.compareAndSet("a", "c")).isTrue();
        assertThat(attr.getAndRemove()).isEqualTo("c");
        assertThat(map.hasAttr(key)).isFalse();
        assertThat(map.attr(key)).isNotSameAs(attr);
    }

    @Test
    void keysAreInternedAndNewInstanceRefusesTakenNames() {
        AttributeKey<Integer> a = AttributeKey.valueOf("AttributeMapTest.interned");
        assertThat(AttributeKey.<Integer>valueOf("AttributeMapTest.interned")).isSameAs(a);
        assertThatThrownBy(() -> AttributeKey.newInstance("AttributeMapTest.interned"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AttributeKey.valueOf("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void concurrentAddsKeepEveryAttribute() throws Exception {
        DefaultAttributeMap map = new DefaultAttributeMap();
        int threads = 4;
        int keysPerThread = 200;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread w = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < keysPerThread; i++) {
                    map.attr(AttributeKey.<Integer>valueOf("AttributeMapTest.c" + id + '.' + i)).set(i);
                }
            });
            w.start();
            workers.add(w);
        }
        start.countDown();
        for (Thread w : workers) {
            w.join(TimeUnit.SECONDS.toMillis(30));
        }
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < keysPerThread; i++) {
                AttributeKey<Integer> key = AttributeKey.valueOf("AttributeMapTest.c" + t + '.' + i);
                assertThat(map.hasAttr(key)).isTrue();
                assertThat(map.attr(key).get()).isEqualTo(i);
            }
        }
    }

    @Test
    void contextAttributesAreTheChannels() {
        io.weir.channel.embedded.EmbeddedChannel ch = new io.weir.channel.embedded.EmbeddedChannel(
                new ChannelHandler() {
                });
        AttributeKey<String> key = AttributeKey.valueOf("AttributeMapTest.ctx");
        ch.pipeline().firstContext().attr(key).set("v");
        assertThat(ch.attr(key).get()).isEqualTo("v");
        ch.finish();
    }
}
