package io.weir.handler.codec.socksx.v4;

import io.weir.handler.codec.socksx.SocksMessage;
import io.weir.handler.codec.socksx.SocksVersion;

/** A SOCKS4 or 4a message: the client's request or the proxy's reply. */
public sealed interface Socks4Message extends SocksMessage permits Socks4CommandRequest, Socks4CommandResponse {
    /** {@link SocksVersion#SOCKS4A}. */
    @Override
    default SocksVersion version() {
        return SocksVersion.SOCKS4A;
    }
}
