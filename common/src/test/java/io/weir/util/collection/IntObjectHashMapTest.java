package io.weir.util.collection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

// Twin of LongObjectHashMapTest: the int and long versions are kept alike line for line (specialised by hand, no
// template in the build, so neither key is boxed). A change to one belongs in the other.
class IntObjectHashMapTest {

    private static void assertSameContent(IntObjectHashMap<String> map, Map<Integer, String> model) {
        assertThat(map.size()).isEqualTo(model.size());
        assertThat(map.isEmpty()).isEqualTo(model.isEmpty());
        Map<Integer, String> seen = new HashMap<>();
        for (IntObjectMap.PrimitiveEntry<String> e : map.entries()) {
            assertThat(seen.put(e.key(), e.value())).as("key %s seen twice", e.key()).isNull();
        }
        assertThat(seen).isEqualTo(model);
        for (Map.Entry<Integer, String> e : model.entrySet()) {
            assertThat(map.get(e.getKey())).isEqualTo(e.getValue());
        }
        assertThat(map.keys()).hasSize(model.size());
    }

    @Test
    void randomOperationsMatchHashMap() {
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            // A small key space forces collisions, long probe runs and many removals inside runs.
            int keySpace = seed % 2 == 0 ? 64 : 5000;
            IntObjectHashMap<String> map = new IntObjectHashMap<>(2, seed % 3 == 0 ? 0.9f : 0.5f);
            Map<Integer, String> model = new HashMap<>();
            for (int op = 0; op < 20_000; op++) {
                int key = random.nextInt(keySpace) - keySpace / 2;
                switch (random.nextInt(4)) {
                    case 0, 1 -> {
                        String value = "v" + op;
                        assertThat(map.put(key, value)).isEqualTo(model.put(key, value));
                    }
                    case 2 -> assertThat(map.remove(key)).isEqualTo(model.remove(key));
                    default -> {
                        assertThat(map.containsKey(key)).isEqualTo(model.containsKey(key));
                        assertThat(map.get(key)).isEqualTo(model.get(key));
                    }
                }
                assertThat(map.size()).isEqualTo(model.size());
            }
            assertSameContent(map, model);
        }
    }

    /** Finds keys whose home slot in a 16-slot table is {@code slot}, by asking an empty map of that size. */
    private static List<Integer> keysHomedAt(int slot, int count) {
        List<Integer> found = new ArrayList<>();
        for (int key = 0; found.size() < count; key++) {
            int h = key * 0x9E3779B9;
            if (((h ^ (h >>> 16)) & 15) == slot) {
                found.add(key);
            }
        }
        return found;
    }

    @Test
    void backwardShiftAcrossTheEndOfTheTableKeepsEveryKeyReachable() {
        // Capacity 16 with load factor 1 (15 usable slots): a run starting at slot 14 wraps to slots 0, 1, 2.
        IntObjectHashMap<String> map = new IntObjectHashMap<>(16, 1f);
        List<Integer> at14 = keysHomedAt(14, 3);
        List<Integer> at15 = keysHomedAt(15, 2);
        List<Integer> at0 = keysHomedAt(0, 1);
        Map<Integer, String> model = new HashMap<>();
        for (int key : List.of(at14.get(0), at14.get(1), at15.get(0), at14.get(2), at15.get(1), at0.get(0))) {
            map.put(key, "k" + key);
            model.put(key, "k" + key);
        }
        // Remove from the head of the run, one by one: each removal shifts wrapped entries back over the end.
        for (int key : List.of(at14.get(0), at15.get(0), at14.get(1))) {
            assertThat(map.remove(key)).isEqualTo(model.remove(key));
            assertSameContent(map, model);
        }
        // An entry homed at 0 must not move to the end of the table (before its home).
        assertThat(map.get(at0.get(0))).isEqualTo("k" + at0.get(0));
    }

    @Test
    void iteratorRemovalVisitsEveryEntryExactlyOnceEvenWhenEntriesShiftAroundTheEnd() {
        for (long seed = 1; seed <= 200; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            IntObjectHashMap<String> map = new IntObjectHashMap<>(16, 1f);
            Map<Integer, String> model = new HashMap<>();
            int n = 1 + random.nextInt(15);
            while (model.size() < n) {
                int key = random.nextInt(100);
                map.put(key, "v" + key);
                model.put(key, "v" + key);
            }
            Map<Integer, String> seen = new HashMap<>();
            Iterator<IntObjectMap.PrimitiveEntry<String>> it = map.entries().iterator();
            while (it.hasNext()) {
                IntObjectMap.PrimitiveEntry<String> e = it.next();
                assertThat(seen.put(e.key(), e.value())).as("seed %s key %s twice", seed, e.key()).isNull();
                if (random.nextBoolean()) {
                    if (random.nextBoolean()) {
                        // Looking ahead before removing must not lose the shifted entry either.
                        it.hasNext();
                    }
                    int key = e.key();
                    it.remove();
                    model.remove(key);
                }
            }
            assertThat(seen.keySet()).as("seed %s", seed).hasSize(n);
            assertSameContent(map, model);
        }
    }

    @Test
    void zeroAndExtremeKeysAreOrdinaryKeys() {
        IntObjectHashMap<String> map = new IntObjectHashMap<>();
        map.put(0, "zero");
        map.put(Integer.MIN_VALUE, "min");
        map.put(Integer.MAX_VALUE, "max");
        map.put(-1, "minus one");
        assertThat(map.get(0)).isEqualTo("zero");
        assertThat(map.get(Integer.MIN_VALUE)).isEqualTo("min");
        assertThat(map.remove(0)).isEqualTo("zero");
        assertThat(map.containsKey(0)).isFalse();
        assertThat(map.get(Integer.MAX_VALUE)).isEqualTo("max");
        assertThat(map.containsValue("minus one")).isTrue();
        assertThat(map.containsValue("zero")).isFalse();
        assertThat(map.toString()).contains("-1=minus one");
    }

    @Test
    void nullValuesAndBadSizesAreRefused() {
        IntObjectHashMap<String> map = new IntObjectHashMap<>();
        assertThatThrownBy(() -> map.put(1, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new IntObjectHashMap<String>(0)).hasMessageContaining("initialCapacity: 0");
        assertThatThrownBy(() -> new IntObjectHashMap<String>(8, 0f)).hasMessageContaining("loadFactor: 0.0");
        assertThatThrownBy(() -> new IntObjectHashMap<String>(8, 1.5f)).hasMessageContaining("1.5");
    }

    @Test
    void entriesCanBeUpdatedInPlaceAndModificationDuringIterationIsDetected() {
        IntObjectHashMap<String> map = new IntObjectHashMap<>();
        for (int i = 0; i < 10; i++) {
            map.put(i, "v" + i);
        }
        for (IntObjectMap.PrimitiveEntry<String> e : map.entries()) {
            e.setValue("w" + e.key());
        }
        assertThat(map.get(7)).isEqualTo("w7");
        Iterator<IntObjectMap.PrimitiveEntry<String>> it = map.entries().iterator();
        it.next();
        map.put(100, "new");
        assertThatThrownBy(it::hasNext).isInstanceOf(ConcurrentModificationException.class);
        Iterator<IntObjectMap.PrimitiveEntry<String>> fresh = map.entries().iterator();
        assertThatThrownBy(fresh::remove).isInstanceOf(IllegalStateException.class);
        map.clear();
        assertThat(map.isEmpty()).isTrue();
        assertThat(map.entries().iterator().hasNext()).isFalse();
        assertThat(map.get(3)).isNull();
    }

    @Test
    void growsPastManyThousandsOfSequentialKeys() {
        IntObjectHashMap<Integer> map = new IntObjectHashMap<>();
        for (int i = 0; i < 100_000; i++) {
            map.put(i, i);
        }
        for (int i = 0; i < 100_000; i += 2) {
            assertThat(map.remove(i)).isEqualTo(i);
        }
        assertThat(map.size()).isEqualTo(50_000);
        for (int i = 0; i < 100_000; i++) {
            assertThat(map.get(i)).isEqualTo(i % 2 == 0 ? null : i);
        }
    }
}
