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
 * The owner of the only reference releases it while another thread, which holds no reference (a bug in the
 * caller), retains. Results: r1 = release (1 freed, 0 not, -1 threw), r2 = retain (1 ok, -1 threw),
 * r3 = refCnt afterwards, r4 = deallocations.
 */
@JCStressTest
@Description("A retain racing the final release never resurrects a freed object.")
@Outcome(id = "1, -1, 0, 1", expect = Expect.ACCEPTABLE,
        desc = "The release came first and freed the object; the retain found it freed, threw "
                + "IllegalReferenceCountException and left it freed.")
@Outcome(id = "0, 1, 1, 0", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "The retain came first: the release dropped one of two references, so the object lives on with "
                + "one reference (owned by the retainer) and nothing was freed.")
@Outcome(expect = Expect.FORBIDDEN,
        desc = "A freed object was retained (resurrected), freed twice, or the count went wrong.")
@State
public class ReleaseVersusRetainAfterFreeTest {
    private final CountedObject object = new CountedObject();

    @Actor
    public void releaser(IIII_Result r) {
        r.r1 = object.tryRelease();
    }

    @Actor
    public void retainer(IIII_Result r) {
        r.r2 = object.tryRetain();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r3 = object.refCnt();
        r.r4 = object.deallocations;
    }
}
