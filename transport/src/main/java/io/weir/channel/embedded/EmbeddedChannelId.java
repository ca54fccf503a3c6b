package io.weir.channel.embedded;

import io.weir.channel.ChannelId;

/** The id every {@link EmbeddedChannel} has unless given another: the text {@code "embedded"}. */
public final class EmbeddedChannelId implements ChannelId {
    private static final long serialVersionUID = 1L;

    /** The one instance. */
    public static final EmbeddedChannelId INSTANCE = new EmbeddedChannelId();

    private EmbeddedChannelId() {
    }

    private Object readResolve() {
        return INSTANCE;
    }

    @Override
    public String asShortText() {
        return toString();
    }

    @Override
    public String asLongText() {
        return toString();
    }

    @Override
    public int compareTo(ChannelId o) {
        return o instanceof EmbeddedChannelId ? 0 : asLongText().compareTo(o.asLongText());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EmbeddedChannelId;
    }

    @Override
    public int hashCode() {
        return 0;
    }

    @Override
    public String toString() {
        return "embedded";
    }
}
