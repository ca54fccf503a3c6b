package io.weir.handler.codec.http2;

import java.util.Objects;

/**
 * A SETTINGS frame without ACK (RFC 9113 §6.5). Inbound, the codec has applied the peer's settings and queued the
 * acknowledgement; outbound, the codec sends them and applies the ones that concern its own receiving side once
 * the peer acknowledges.
 *
 * @param settings the values; the frame's owner may not change them after handing the frame on
 */
public record Http2SettingsFrame(Http2Settings settings) implements Http2Frame {

    /** @throws NullPointerException if {@code settings} is null */
    public Http2SettingsFrame {
        Objects.requireNonNull(settings, "settings");
    }

    @Override
    public String name() {
        return "SETTINGS";
    }
}
