package io.weir.jcstress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * An object with two owners: one owner retains (for a third owner) while the other releases its reference.
 * Results: r1 = retain (1 ok, -1 threw), r2 = release (1 freed, 0 not, -1 threw), r3 = refCnt afterwards,
 * r4 = deallocations.
 */
@JCStressTest
@Description("A retain racing a non-final release: both take effect, nothing is freed.")
@Outcome(id = "1, 0, 2, 0", expect = Expect.ACCEPTABLE,
        desc = "Whichever ran first, the retain added a reference and the release removed one: two remain, "
                + "nothing was freed.")
@Outcome(expect = Expect.FORBIDDEN,
        desc = "A lost update (wrong count), a spurious exception, or a deallocation while owners remain.")
@State
public class RetainVersusReleaseTest {
    private final CountedObject object = new CountedObject();

    public RetainVersusReleaseTest() {
        object.retain();
    }

    @Actor
    public void retainer(IIII_Result r) {
        r.r1 = object.tryRetain();
    }

    @Actor
    public void releaser(IIII_Result r) {
        r.r2 = object.tryRelease();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r3 = object.refCnt();
        r.r4 = object.deallocations;
    }
}
