/**
 * Weir's buffers: the reference-counted {@link io.weir.buffer.ByteBuf}, its allocators and the
 * {@link io.weir.buffer.Unpooled} helpers.
 */
module io.weir.buffer {
    requires transitive io.weir.common;
    // sun.misc.Unsafe (through JCTools) for range-checked-once byte[] stores, only when PlatformInfo.hasUnsafe();
    // see ByteArrayStores, whose twin is a plain array store.
    requires org.jctools.core;
    requires jdk.unsupported;

    exports io.weir.buffer;
}
