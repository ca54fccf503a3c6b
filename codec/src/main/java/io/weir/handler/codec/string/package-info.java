/** Codecs between buffers and text: {@link io.weir.handler.codec.string.StringDecoder}, {@link io.weir.handler.codec.string.StringEncoder} and {@link io.weir.handler.codec.string.LineEncoder}. */
package io.weir.handler.codec.string;
