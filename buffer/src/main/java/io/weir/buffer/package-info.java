/**
 * Reference-counted byte buffers.
 *
 * <ul>
 *   <li>{@link io.weir.buffer.ByteBuf}: the buffer, with separate reader and writer indexes, big- and
 *       little-endian accessors, bulk transfers, searches and derived views (slices, duplicates, read-only
 *       views) that share its content and reference count.</li>
 *   <li>{@link io.weir.buffer.ByteBufAllocator}: where buffers come from; {@link io.weir.buffer.ByteBufAllocator#DEFAULT}
 *       is {@link io.weir.buffer.UnpooledByteBufAllocator} until the pooled allocator exists.</li>
 *   <li>{@link io.weir.buffer.Unpooled}: new, wrapped and copied buffers, and the shared
 *       {@link io.weir.buffer.Unpooled#EMPTY_BUFFER}.</li>
 *   <li>{@link io.weir.buffer.CompositeByteBuf}: several buffers seen as one without copying; it owns its
 *       components.</li>
 *   <li>{@link io.weir.buffer.ByteBufUtil}: hex dumps, UTF-8 and ASCII writing, strict UTF-8 validation,
 *       comparisons and sub-buffer search.</li>
 *   <li>{@link io.weir.buffer.ByteBufHolder}: messages that carry a buffer and share its count.</li>
 * </ul>
 *
 * <p>Ownership everywhere in this package: whoever allocates a buffer (or receives one that a method documents
 * as handed over) owns one reference and releases it exactly once; methods that merely take a buffer argument
 * neither keep nor release it.
 */
package io.weir.buffer;
