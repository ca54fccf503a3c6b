/**
 * Weir's DNS codec: messages, questions and resource records (RFC 1035, with EDNS0 from RFC 6891), a bounded
 * decoder that refuses hostile input with a typed exception, and an encoder, for UDP datagrams and for TCP.
 */
module io.weir.codec.dns {
    requires transitive io.weir.codec;

    exports io.weir.handler.codec.dns;
}
