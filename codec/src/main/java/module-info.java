/**
 * Weir's base codecs: {@link io.weir.handler.codec.ByteToMessageDecoder} and its cumulators, the encoders and
 * message-to-message codecs, the frame decoders (length field, line, delimiter, fixed length),
 * {@link io.weir.handler.codec.ReplayingDecoder}, and the string and byte-array codecs.
 */
module io.weir.codec {
    requires transitive io.weir.transport;

    exports io.weir.handler.codec;
    exports io.weir.handler.codec.bytes;
    exports io.weir.handler.codec.string;
}
