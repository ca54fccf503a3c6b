/**
 * The base codecs: {@link io.weir.handler.codec.ByteToMessageDecoder} (cumulation, decode loop, end of input),
 * {@link io.weir.handler.codec.ReplayingDecoder}, the encoders and message-to-message codecs, and the frame
 * decoders, each bounded by a maximum frame length.
 */
package io.weir.handler.codec;
