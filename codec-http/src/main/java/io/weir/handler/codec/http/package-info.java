/**
 * HTTP/1.1 (RFC 9110 semantics, RFC 9112 message syntax): message and header types, strict and bounded
 * decoders, encoders, server and client codecs, aggregation, keep-alive and {@code Expect: 100-continue}, and
 * the read-side timeouts a server needs against slow and silent clients
 * ({@link io.weir.handler.codec.http.HttpServerTimeoutHandler}).
 *
 * <p>Decoding is strict by default: a malformed or oversized message becomes a failed
 * {@link io.weir.handler.codec.DecoderResult} on the message and the server codec answers it with the
 * matching status and closes the connection.
 */
package io.weir.handler.codec.http;
