package io.weir.handler.codec.http2;

/**
 * A SETTINGS frame with ACK (RFC 9113 §6.5.3), fired inbound when the peer acknowledged our settings. The codec
 * sends acknowledgements itself; writing this frame is refused.
 */
public enum Http2SettingsAckFrame implements Http2Frame {
    /** The one instance. */
    INSTANCE;

    @Override
    public String toString() {
        return "Http2SettingsAckFrame";
    }
}
