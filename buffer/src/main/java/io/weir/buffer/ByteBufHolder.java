package io.weir.buffer;

import io.weir.util.ReferenceCounted;

/**
 * An object that carries a {@link ByteBuf} (a message, a frame) and whose reference count is that buffer's:
 * {@code retain}/{@code release} on the holder act on {@link #content()}. Whoever owns the holder releases it,
 * and with it the content, exactly once.
 */
public interface ByteBufHolder extends ReferenceCounted {
    /**
     * The carried buffer, shared (not retained): it lives as long as the holder's reference count.
     *
     * @throws io.weir.util.IllegalReferenceCountException if the holder was already freed
     */
    ByteBuf content();

    /** A new holder over {@link ByteBuf#copy()} of the content, owned by the caller. */
    ByteBufHolder copy();

    /** A new holder over {@link ByteBuf#duplicate()} of the content, sharing this holder's reference count. */
    ByteBufHolder duplicate();

    /** A new holder over {@link ByteBuf#retainedDuplicate()} of the content; the caller must release it. */
    ByteBufHolder retainedDuplicate();

    /** A new holder of the same kind carrying {@code content}, whose ownership passes to the new holder. */
    ByteBufHolder replace(ByteBuf content);

    @Override
    ByteBufHolder retain();

    @Override
    ByteBufHolder retain(int increment);

    @Override
    ByteBufHolder touch();

    @Override
    ByteBufHolder touch(Object hint);
}
