package io.weir.channel;

/** A pipeline was misused: a duplicate name, an unknown handler, a non-sharable handler added twice. */
public class ChannelPipelineException extends ChannelException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message. */
    public ChannelPipelineException(String message) {
        super(message);
    }

    /** An exception with a message and a cause. */
    public ChannelPipelineException(String message, Throwable cause) {
        super(message, cause);
    }
}
