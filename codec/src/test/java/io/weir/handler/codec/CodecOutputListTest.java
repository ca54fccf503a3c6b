package io.weir.handler.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CodecOutputListTest {

    @Test
    void aListTakenAgainAfterRecycleOnTheSameThreadIsTheSameObject() {
        CodecOutputList first = CodecOutputList.newInstance();
        first.add("a");
        first.recycle();
        CodecOutputList second = CodecOutputList.newInstance();
        try {
            assertThat(second).isSameAs(first);
            assertThat(second).isEmpty();
            assertThat(second.insertSinceRecycled()).isFalse();
        } finally {
            second.recycle();
        }
    }

    @Test
    void nestedListsAreDistinctAndAllComeBack() {
        CodecOutputList outer = CodecOutputList.newInstance();
        CodecOutputList inner = CodecOutputList.newInstance();
        assertThat(inner).isNotSameAs(outer);
        inner.recycle();
        outer.recycle();
        CodecOutputList again = CodecOutputList.newInstance();
        assertThat(again).isSameAs(outer);
        again.recycle();
    }

    @Test
    void moreListsThanThePoolHoldsAreStillUsable() {
        List<CodecOutputList> taken = new ArrayList<>();
        for (int i = 0; i < CodecOutputList.POOL_SIZE + 3; i++) {
            CodecOutputList l = CodecOutputList.newInstance();
            l.add(i);
            taken.add(l);
        }
        assertThat(distinct(taken)).isEqualTo(taken.size());
        for (int i = taken.size() - 1; i >= 0; i--) {
            assertThat(taken.get(i).get(0)).isEqualTo(i);
            taken.get(i).recycle();
        }
        // Every pooled list came back: the pool hands out POOL_SIZE distinct lists again.
        List<CodecOutputList> again = new ArrayList<>();
        for (int i = 0; i < CodecOutputList.POOL_SIZE; i++) {
            again.add(CodecOutputList.newInstance());
        }
        assertThat(distinct(again)).isEqualTo(again.size());
        assertThat(again).allMatch(l -> taken.stream().anyMatch(t -> t == l));
        again.forEach(CodecOutputList::recycle);
    }

    private static int distinct(List<CodecOutputList> lists) {
        java.util.Set<CodecOutputList> set = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        set.addAll(lists);
        return set.size();
    }

    @Test
    void growsBeyondItsInitialCapacityKeepingOrder() {
        CodecOutputList list = CodecOutputList.newInstance();
        try {
            int n = CodecOutputList.INITIAL_CAPACITY * 4 + 1;
            for (int i = 0; i < n; i++) {
                list.add(i);
            }
            assertThat(list).hasSize(n);
            assertThat(list.capacity()).isGreaterThanOrEqualTo(n);
            for (int i = 0; i < n; i++) {
                assertThat(list.get(i)).isEqualTo(i);
            }
            list.clear();
            assertThat(list).isEmpty();
            assertThat(list.insertSinceRecycled()).isTrue();
        } finally {
            list.recycle();
        }
    }

    @Test
    void insertAndRemoveInTheMiddleShiftElements() {
        CodecOutputList list = CodecOutputList.newInstance();
        try {
            list.add("a");
            list.add("c");
            list.add(1, "b");
            assertThat(list).containsExactly("a", "b", "c");
            assertThat(list.set(0, "z")).isEqualTo("a");
            assertThat(list.remove(1)).isEqualTo("b");
            assertThat(list).containsExactly("z", "c");
        } finally {
            list.recycle();
        }
    }

    @Test
    void nullsAndOutOfRangeIndexesAreRefused() {
        CodecOutputList list = CodecOutputList.newInstance();
        try {
            assertThatThrownBy(() -> list.add(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> list.get(0)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> list.add(2, "x")).isInstanceOf(IndexOutOfBoundsException.class);
        } finally {
            list.recycle();
        }
    }

    @Test
    void eachThreadHasItsOwnPool() throws Exception {
        CodecOutputList mine = CodecOutputList.newInstance();
        mine.recycle();
        CodecOutputList theirs = CompletableFuture.supplyAsync(() -> {
            CodecOutputList l = CodecOutputList.newInstance();
            l.recycle();
            return l;
        }).get(10, TimeUnit.SECONDS);
        assertThat(theirs).isNotSameAs(mine);
    }
}
