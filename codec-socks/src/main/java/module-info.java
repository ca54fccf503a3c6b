/**
 * Weir's SOCKS codec: the messages of SOCKS4 and its 4a extension, and of SOCKS5 (RFC 1928) with username and
 * password authentication (RFC 1929), with decoders and encoders for both sides of the handshake.
 */
module io.weir.codec.socks {
    requires transitive io.weir.codec;

    exports io.weir.handler.codec.socksx;
    exports io.weir.handler.codec.socksx.v4;
    exports io.weir.handler.codec.socksx.v5;
}
