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
 * A double release: an object with one reference is released by two threads at once (a bug in the caller,
 * which Weir must survive). Results: r1, r2 = each release (1 freed, 0 not, -1 threw), r3 = deallocations.
 */
@JCStressTest
@Description("Two racing final releases: exactly one deallocates, the other is refused.")
@Outcome(id = "1, -1, 1", expect = Expect.ACCEPTABLE,
        desc = "The first actor's release freed the object; the second found it freed and threw "
                + "IllegalReferenceCountException. Deallocated exactly once.")
@Outcome(id = "-1, 1, 1", expect = Expect.ACCEPTABLE,
        desc = "The second actor's release freed the object; the first found it freed and threw "
                + "IllegalReferenceCountException. Deallocated exactly once.")
@Outcome(expect = Expect.FORBIDDEN,
        desc = "Both freed it (double deallocation), neither did (leak), or a release returned without "
                + "freeing or throwing.")
@State
public class RacingFinalReleasesTest {
    private final CountedObject object = new CountedObject();

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
