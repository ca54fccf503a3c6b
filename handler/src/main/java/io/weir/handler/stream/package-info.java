/**
 * Writing large data in chunks with backpressure: {@link io.weir.handler.stream.ChunkedWriteHandler} and the
 * {@link io.weir.handler.stream.ChunkedInput}s for files and streams.
 */
package io.weir.handler.stream;
