package io.weir.channel;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * A lock-free {@link AttributeMap}: attributes live in an array sorted by key id that is replaced, never
 * modified, by compare-and-set. Lookups are a binary search over a handful of entries with no lock and no
 * allocation; adding or removing an attribute copies the array, which is fine because channels carry few
 * attributes and add them rarely. Built for extension (channels extend it); thread-safe.
 */
public class DefaultAttributeMap implements AttributeMap {
    private static final DefaultAttribute<?>[] EMPTY = new DefaultAttribute<?>[0];

    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<DefaultAttributeMap, DefaultAttribute[]> ATTRIBUTES =
            AtomicReferenceFieldUpdater.newUpdater(DefaultAttributeMap.class, DefaultAttribute[].class, "attributes");

    /**
     * Null until the first attribute: no initializer, because a volatile store in the constructor costs a fence
     * per channel, and an HTTP/2 stream's channel is made per request.
     */
    private volatile DefaultAttribute<?>[] attributes;

    /** An empty map. */
    public DefaultAttributeMap() {
    }

    private static int search(DefaultAttribute<?>[] sorted, int keyId) {
        int low = 0;
        int high = sorted.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int midId = sorted[mid].key.id();
            if (midId < keyId) {
                low = mid + 1;
            } else if (midId > keyId) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -(low + 1);
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> Attribute<T> attr(AttributeKey<T> key) {
        Objects.requireNonNull(key, "key");
        DefaultAttribute<T> created = null;
        for (;;) {
            DefaultAttribute<?>[] seen = attributes;
            DefaultAttribute<?>[] current = seen == null ? EMPTY : seen;
            int index = search(current, key.id());
            if (index >= 0) {
                return (DefaultAttribute<T>) current[index];
            }
            if (created == null) {
                created = new DefaultAttribute<>(this, key);
            }
            int insert = -(index + 1);
            DefaultAttribute<?>[] next = new DefaultAttribute<?>[current.length + 1];
            System.arraycopy(current, 0, next, 0, insert);
            next[insert] = created;
            System.arraycopy(current, insert, next, insert + 1, current.length - insert);
            if (ATTRIBUTES.compareAndSet(this, seen, next)) {
                return created;
            }
        }
    }

    @Override
    public <T> boolean hasAttr(AttributeKey<T> key) {
        Objects.requireNonNull(key, "key");
        DefaultAttribute<?>[] current = attributes;
        return current != null && search(current, key.id()) >= 0;
    }

    private void removeAttribute(DefaultAttribute<?> attribute) {
        for (;;) {
            DefaultAttribute<?>[] current = attributes;
            if (current == null) {
                return;
            }
            int index = search(current, attribute.key.id());
            if (index < 0 || current[index] != attribute) {
                return;
            }
            DefaultAttribute<?>[] next;
            if (current.length == 1) {
                next = EMPTY;
            } else {
                next = new DefaultAttribute<?>[current.length - 1];
                System.arraycopy(current, 0, next, 0, index);
                System.arraycopy(current, index + 1, next, index, current.length - index - 1);
            }
            if (ATTRIBUTES.compareAndSet(this, current, next)) {
                return;
            }
        }
    }

    @Override
    public String toString() {
        DefaultAttribute<?>[] current = attributes;
        return getClass().getSimpleName() + Arrays.toString(current == null ? EMPTY : current);
    }

    private static final class DefaultAttribute<T> extends AtomicReference<T> implements Attribute<T> {
        private static final long serialVersionUID = 1L;

        private final transient DefaultAttributeMap map;
        private final transient AttributeKey<T> key;

        DefaultAttribute(DefaultAttributeMap map, AttributeKey<T> key) {
            this.map = map;
            this.key = key;
        }

        @Override
        public AttributeKey<T> key() {
            return key;
        }

        @Override
        public T setIfAbsent(T value) {
            while (!compareAndSet(null, value)) {
                T old = get();
                if (old != null) {
                    return old;
                }
            }
            return null;
        }

        @Override
        public T getAndRemove() {
            T old = getAndSet(null);
            map.removeAttribute(this);
            return old;
        }

        @Override
        public void remove() {
            set(null);
            map.removeAttribute(this);
        }

        @Override
        public String toString() {
            return key + "=" + get();
        }
    }
}
