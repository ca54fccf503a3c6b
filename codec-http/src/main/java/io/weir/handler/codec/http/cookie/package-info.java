/**
 * HTTP cookies (RFC 6265, with the SameSite and Partitioned attributes of RFC 6265bis/CHIPS): the {@link
 * io.weir.handler.codec.http.cookie.Cookie} model, decoders for the {@code Cookie} request header and the
 * {@code Set-Cookie} response header, and encoders for both. Every decoder and encoder exists in a STRICT and a
 * LAX flavour; in both, a cookie name can never carry header syntax.
 */
package io.weir.handler.codec.http.cookie;
