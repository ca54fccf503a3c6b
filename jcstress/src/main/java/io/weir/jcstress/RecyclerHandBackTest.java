package io.weir.jcstress;

import io.weir.util.Recycler;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The owner thread gets an object, publishes it, and gets twice more; another thread recycles the published
 * object, which must travel back through the owner's hand-back queue. Results: r1 = the owner's first later
 * get returned the object (1) or not (0), r2 = the same for the second get, r3 = the other thread recycled
 * it (1) or had not seen it yet (0).
 */
@JCStressTest
@Description("An object recycled on another thread reaches its owner's get() exactly once, never twice.")
@Outcome(id = "0, 0, 0", expect = Expect.ACCEPTABLE,
        desc = "The other thread had not seen the object yet, so nothing was recycled and both gets made or "
                + "reused other objects.")
@Outcome(id = "0, 0, 1", expect = Expect.ACCEPTABLE,
        desc = "The object was recycled after both gets (or is still in the hand-back queue): neither get saw it.")
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "Recycled before the first get: that get drained it from the hand-back queue; the second did not "
                + "see it again.")
@Outcome(id = "0, 1, 1", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "Recycled between the gets: the second get drained it; the first did not see it.")
@Outcome(expect = Expect.FORBIDDEN,
        desc = "The object was handed out twice, or handed out again without having been recycled.")
@State
public class RecyclerHandBackTest {
    // One recycler for every state: each instance permanently takes a FastThreadLocal slot.
    private static final Recycler<Item> RECYCLER = new Recycler<>(1024, 1) {
        @Override
        protected Item newObject(Handle<Item> handle) {
            return new Item(handle);
        }
    };

    private volatile Item published;

    static final class Item {
        final Recycler.Handle<Item> handle;

        Item(Recycler.Handle<Item> handle) {
            this.handle = handle;
        }
    }

    @Actor
    public void owner(III_Result r) {
        Item item = RECYCLER.get();
        published = item;
        r.r1 = RECYCLER.get() == item ? 1 : 0;
        r.r2 = RECYCLER.get() == item ? 1 : 0;
    }

    @Actor
    public void recycler(III_Result r) {
        Item item = published;
        if (item != null) {
            item.handle.recycle(item);
            r.r3 = 1;
        }
    }
}
