package io.weir.handler.codec.http;

import io.weir.handler.codec.DecoderResultProvider;

/**
 * Anything an HTTP/1.x codec reads or writes: a message head ({@link HttpMessage}) or a piece of content
 * ({@link HttpContent}). A decoder records on each object whether it was decoded cleanly
 * ({@link #decoderResult()}); objects built by the application carry {@code SUCCESS}.
 */
public interface HttpObject extends DecoderResultProvider {
}
