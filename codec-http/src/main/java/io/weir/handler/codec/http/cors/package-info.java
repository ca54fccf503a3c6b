/**
 * Cross-Origin Resource Sharing (the WHATWG Fetch standard's CORS protocol) for HTTP servers:
 * {@link io.weir.handler.codec.http.cors.CorsConfigBuilder} describes which origins may call, with which
 * methods, headers and credentials; {@link io.weir.handler.codec.http.cors.CorsHandler} answers preflight
 * requests and adds the CORS headers to responses.
 */
package io.weir.handler.codec.http.cors;
