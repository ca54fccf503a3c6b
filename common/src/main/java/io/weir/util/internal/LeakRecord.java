package io.weir.util.internal;

/**
 * One access record of a leak tracker, in a singly linked stack whose head is the newest record.
 *
 * <p>The stack is captured by {@link Throwable}'s native back-trace when the record is created and turned into
 * {@link StackTraceElement}s only if a leak is reported. A record is published by the compare-and-set that
 * makes it the stack's head; its fields are written only before that, by the thread that created it.
 *
 * <pre>
 * head -&gt; [access n] -&gt; [access n-1] -&gt; ... -&gt; [access 1] -&gt; [creation, position 0] -&gt; null
 * </pre>
 */
public final class LeakRecord extends Throwable {
    private static final long serialVersionUID = 7380531146402358234L;

    /** The head of a tracker that keeps no records (at SIMPLE level): no stack, position 0. */
    public static final LeakRecord NO_RECORDS = new LeakRecord();

    private final String hint;
    // Where the stack trace lives: this record itself, or the original one a copy was made from.
    private final LeakRecord site;
    private LeakRecord next;
    private int position;

    /** A record of the caller's stack with an optional hint, not yet linked. */
    public LeakRecord(String hint) {
        super(null, null, false, true);
        this.hint = hint;
        this.site = this;
    }

    private LeakRecord() {
        super(null, null, false, false);
        this.hint = null;
        this.site = this;
    }

    private LeakRecord(LeakRecord original, LeakRecord next, int position) {
        // No stack capture: a copy only re-links an existing record.
        super(null, null, false, false);
        this.hint = original.hint;
        this.site = original.site;
        this.next = next;
        this.position = position;
    }

    /** Links this unpublished record on top of {@code below}, at {@code position}. */
    public void link(LeakRecord below, int position) {
        this.next = below;
        this.position = position;
    }

    /** A copy of this record (sharing its stack) linked on top of {@code below}, at {@code position}. */
    public LeakRecord copyOnto(LeakRecord below, int position) {
        return new LeakRecord(this, below, position);
    }

    /** The record below this one, or {@code null} for the bottom. */
    public LeakRecord next() {
        return next;
    }

    /** The number of access records from the bottom up to this one; {@code 0} for the creation record. */
    public int position() {
        return position;
    }

    /** The hint given with the access, or {@code null}. */
    public String hint() {
        return hint;
    }

    /** Whether this record has a stack (every record except {@link #NO_RECORDS}). */
    public boolean hasStack() {
        return this != NO_RECORDS;
    }

    /**
     * Appends this record's stack to {@code out}, one {@code \tat frame} line each, leaving out the frames
     * before the first one outside {@code ownClass} and its nested classes (the detector that made the record).
     */
    public void appendStack(StringBuilder out, String ownClass) {
        StackTraceElement[] frames = site.getStackTrace();
        int i = 0;
        while (i < frames.length && isOwn(frames[i].getClassName(), ownClass)) {
            i++;
        }
        for (; i < frames.length; i++) {
            out.append("\tat ").append(frames[i]).append('\n');
        }
    }

    private static boolean isOwn(String className, String ownClass) {
        return className.startsWith(ownClass)
                && (className.length() == ownClass.length() || className.charAt(ownClass.length()) == '$');
    }
}
