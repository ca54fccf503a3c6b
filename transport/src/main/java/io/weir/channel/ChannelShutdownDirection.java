package io.weir.channel;

/** Which half of a {@link DuplexChannel} a shutdown acts on. */
public enum ChannelShutdownDirection {
    /** The input: nothing more will be read. */
    INBOUND,
    /** The output: nothing more will be written; the peer sees the end of the stream. */
    OUTBOUND
}
