package io.weir.handler.codec.socksx.v5;

import io.weir.handler.codec.socksx.SocksMessage;
import io.weir.handler.codec.socksx.SocksVersion;

/**
 * A message of the SOCKS5 handshake: a {@link Socks5Request} from the client or a {@link Socks5Response} from the
 * proxy. The username and password subnegotiation of RFC 1929 is part of the handshake, so its two messages are
 * here too although they carry their own version byte (1).
 */
public sealed interface Socks5Message extends SocksMessage permits Socks5Request, Socks5Response {
    /** {@link SocksVersion#SOCKS5}. */
    @Override
    default SocksVersion version() {
        return SocksVersion.SOCKS5;
    }
}
