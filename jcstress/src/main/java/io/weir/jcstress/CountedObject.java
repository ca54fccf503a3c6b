package io.weir.jcstress;

import io.weir.util.AbstractReferenceCounted;
import io.weir.util.IllegalReferenceCountException;

/** A reference-counted object that counts its deallocations; the subject of the reference-count tests. */
final class CountedObject extends AbstractReferenceCounted {
    /** Written only by the deallocating thread; the arbiter reads it after all actors finished. */
    int deallocations;

    @Override
    protected void deallocate() {
        deallocations++;
    }

    /** 1 if release() freed the object, 0 if it did not, -1 if it threw IllegalReferenceCountException. */
    int tryRelease() {
        try {
            return release() ? 1 : 0;
        } catch (IllegalReferenceCountException e) {
            return -1;
        }
    }

    /** 1 if retain() succeeded, -1 if it threw IllegalReferenceCountException. */
    int tryRetain() {
        try {
            retain();
            return 1;
        } catch (IllegalReferenceCountException e) {
            return -1;
        }
    }
}
