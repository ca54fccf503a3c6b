package io.weir.channel;

import java.io.Serializable;

/**
 * The identity of a {@link Channel}, unique within and (with overwhelming probability) across processes.
 * Equality and order depend only on the id's bytes; both texts are stable for the id's life.
 */
public interface ChannelId extends Serializable, Comparable<ChannelId> {

    /** A short text, unique enough for log lines but not guaranteed unique. */
    String asShortText();

    /** The full text: globally unique. */
    String asLongText();
}
