package io.weir.buffer;

import io.weir.util.IllegalReferenceCountException;
import java.util.Objects;

/**
 * A {@link ByteBufHolder} over one buffer. Subclasses (messages carrying a body) override {@link #replace} to
 * return their own type, and may extend {@link #equals}/{@link #hashCode}/{@link #toString}.
 * Not thread-safe beyond what the content's reference count is.
 */
public class DefaultByteBufHolder implements ByteBufHolder {
    private final ByteBuf data;

    /**
     * @param data the content; its reference passes to this holder, which releases it with itself
     * @throws NullPointerException if {@code data} is {@code null}
     */
    public DefaultByteBufHolder(ByteBuf data) {
        this.data = Objects.requireNonNull(data, "data");
    }

    @Override
    public ByteBuf content() {
        if (data.refCnt() <= 0) {
            throw new IllegalReferenceCountException(data.refCnt(), 0);
        }
        return data;
    }

    @Override
    public ByteBufHolder copy() {
        return replace(data.copy());
    }

    @Override
    public ByteBufHolder duplicate() {
        return replace(data.duplicate());
    }

    @Override
    public ByteBufHolder retainedDuplicate() {
        return replace(data.retainedDuplicate());
    }

    @Override
    public ByteBufHolder replace(ByteBuf content) {
        return new DefaultByteBufHolder(content);
    }

    @Override
    public int refCnt() {
        return data.refCnt();
    }

    @Override
    public ByteBufHolder retain() {
        data.retain();
        return this;
    }

    @Override
    public ByteBufHolder retain(int increment) {
        data.retain(increment);
        return this;
    }

    @Override
    public ByteBufHolder touch() {
        data.touch();
        return this;
    }

    @Override
    public ByteBufHolder touch(Object hint) {
        data.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return data.release();
    }

    @Override
    public boolean release(int decrement) {
        return data.release(decrement);
    }

    /** Equal to a holder of the same class whose content has the same readable bytes. */
    @Override
    public boolean equals(Object o) {
        return this == o || o != null && o.getClass() == getClass() && data.equals(((DefaultByteBufHolder) o).data);
    }

    @Override
    public int hashCode() {
        return data.hashCode();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(" + data + ")";
    }
}
