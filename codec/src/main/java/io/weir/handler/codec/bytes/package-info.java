/** Codecs between buffers and byte arrays. */
package io.weir.handler.codec.bytes;
