package io.weir.util.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class DefaultPriorityQueueTest {

    /** Orders by value, then by sequence, so the reference TreeSet can hold equal values. */
    private static final Comparator<Node> ORDER =
            Comparator.<Node>comparingInt(n -> n.value).thenComparingLong(n -> n.sequence);

    private static final class Node implements PriorityQueueNode {
        final int value;
        final long sequence;
        int index = INDEX_NOT_IN_QUEUE;

        Node(int value, long sequence) {
            this.value = value;
            this.sequence = sequence;
        }

        @Override
        public int priorityQueueIndex() {
            return index;
        }

        @Override
        public void priorityQueueIndex(int index) {
            this.index = index;
        }
    }

    @Test
    void randomInsertRemovePollMatchesSortedReferenceModel() {
        Random random = new Random(42);
        DefaultPriorityQueue<Node> queue = new DefaultPriorityQueue<>(ORDER, 0);
        TreeSet<Node> model = new TreeSet<>(ORDER);
        List<Node> present = new ArrayList<>();
        long sequence = 0;
        for (int step = 0; step < 200_000; step++) {
            int op = random.nextInt(10);
            if (op < 5 || present.isEmpty()) {
                Node node = new Node(random.nextInt(1000), sequence++);
                queue.add(node);
                model.add(node);
                present.add(node);
            } else if (op < 8) {
                Node victim = present.remove(random.nextInt(present.size()));
                assertThat(queue.remove(victim)).isTrue();
                assertThat(victim.index).isEqualTo(PriorityQueueNode.INDEX_NOT_IN_QUEUE);
                assertThat(queue.remove(victim)).isFalse();
                model.remove(victim);
            } else {
                Node polled = queue.poll();
                assertThat(polled).isSameAs(model.pollFirst());
                present.remove(polled);
            }
            assertThat(queue.size()).isEqualTo(model.size());
            assertThat(queue.peek()).isSameAs(model.isEmpty() ? null : model.first());
        }
        while (!model.isEmpty()) {
            assertThat(queue.poll()).isSameAs(model.pollFirst());
        }
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.poll()).isNull();
    }

    @Test
    void removingInAnyOrderLeavesTheQueueEmptyAndConsistent() {
        DefaultPriorityQueue<Node> queue = new DefaultPriorityQueue<>(ORDER);
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            Node node = new Node(i % 97, i);
            nodes.add(node);
            queue.add(node);
        }
        java.util.Collections.shuffle(nodes, new Random(7));
        for (Node node : nodes) {
            assertThat(queue.contains(node)).isTrue();
            assertThat(queue.remove(node)).isTrue();
            assertThat(queue.contains(node)).isFalse();
        }
        assertThat(queue.size()).isZero();
    }

    @Test
    void nodeOfAnotherQueueIsNotRemovedByIndexCoincidence() {
        DefaultPriorityQueue<Node> first = new DefaultPriorityQueue<>(ORDER);
        DefaultPriorityQueue<Node> second = new DefaultPriorityQueue<>(ORDER);
        Node inFirst = new Node(1, 0);
        Node inSecond = new Node(2, 1);
        first.add(inFirst);
        second.add(inSecond);

        assertThat(first.remove(inSecond)).isFalse();
        assertThat(first.contains(inSecond)).isFalse();
        assertThat(second.peek()).isSameAs(inSecond);
        assertThat(first.peek()).isSameAs(inFirst);
    }

    @Test
    void addingANodeTwiceIsRejected() {
        DefaultPriorityQueue<Node> queue = new DefaultPriorityQueue<>(ORDER);
        Node node = new Node(1, 0);
        queue.add(node);
        assertThatThrownBy(() -> queue.add(node))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already in a queue");
        assertThat(queue.size()).isEqualTo(1);
    }

    @Test
    void clearResetsIndexesSoNodesCanBeAddedAgain() {
        DefaultPriorityQueue<Node> queue = new DefaultPriorityQueue<>(ORDER);
        Node a = new Node(3, 0);
        Node b = new Node(1, 1);
        queue.add(a);
        queue.add(b);
        queue.clear();
        assertThat(queue.isEmpty()).isTrue();
        assertThat(a.index).isEqualTo(PriorityQueueNode.INDEX_NOT_IN_QUEUE);
        queue.add(a);
        queue.add(b);
        assertThat(queue.poll()).isSameAs(b);
        assertThat(queue.poll()).isSameAs(a);
    }

    @Test
    void negativeInitialCapacityIsRejectedWithTheValue() {
        assertThatThrownBy(() -> new DefaultPriorityQueue<Node>(ORDER, -3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-3");
    }
}
