package io.weir.handler.codec.socksx.v5;

/** What a SOCKS5 client sends, in this order: the initial request, the password request if asked, the command. */
public sealed interface Socks5Request extends Socks5Message
        permits Socks5InitialRequest, Socks5PasswordAuthRequest, Socks5CommandRequest {
}
