/**
 * POST bodies: {@link io.weir.handler.codec.http.multipart.HttpPostRequestDecoder} for {@code multipart/form-data}
 * (RFC 7578, with nested {@code multipart/mixed}) and {@code application/x-www-form-urlencoded}, fed chunk by chunk
 * and bounded in field count, field size and buffered bytes; form data held in memory or in temporary files
 * ({@link io.weir.handler.codec.http.multipart.DefaultHttpDataFactory}); and
 * {@link io.weir.handler.codec.http.multipart.HttpPostRequestEncoder} for clients, streaming file uploads through
 * {@code ChunkedWriteHandler}.
 */
package io.weir.handler.codec.http.multipart;
