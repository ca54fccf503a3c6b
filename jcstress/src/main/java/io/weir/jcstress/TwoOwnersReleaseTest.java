package io.weir.jcstress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Correct use under a race: two owners release their references at the same time, so one release is
 * non-final (a getAndAdd) and the other final (a compare-and-set), and a stale read may send either down the
 * wrong path first. Results: r1, r2 = each release (1 freed, 0 not, -1 threw), r3 = deallocations.
 */
@JCStressTest
@Description("Two owners releasing at once: the last one out deallocates, once.")
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE,
        desc = "The second actor released first; the first actor's release was the last and freed the object.")
@Outcome(id = "0, 1, 1", expect = Expect.ACCEPTABLE,
        desc = "The first actor released first; the second actor's release was the last and freed the object.")
@Outcome(expect = Expect.FORBIDDEN,
        desc = "Both or neither freed the object, or a correct release threw.")
@State
public class TwoOwnersReleaseTest {
    private final CountedObject object = new CountedObject();

    public TwoOwnersReleaseTest() {
        object.retain();
    }

    @Actor
    public void first(III_Result r) {
        r.r1 = object.tryRelease();
    }

    @Actor
    public void second(III_Result r) {
        r.r2 = object.tryRelease();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = object.deallocations;
    }
}
