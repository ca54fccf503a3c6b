/**
 * Weir's buffers: the reference-counted {@link io.weir.buffer.ByteBuf}, its allocators and the
 * {@link io.weir.buffer.Unpooled} helpers.
 */
module io.weir.buffer {
    requires transitive io.weir.common;

    exports io.weir.buffer;
}
