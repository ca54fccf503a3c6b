package io.weir.handler.codec.socksx.v5;

/** What a SOCKS5 proxy answers, in this order: the chosen method, the password verdict if asked, the reply. */
public sealed interface Socks5Response extends Socks5Message
        permits Socks5InitialResponse, Socks5PasswordAuthResponse, Socks5CommandResponse {
}
