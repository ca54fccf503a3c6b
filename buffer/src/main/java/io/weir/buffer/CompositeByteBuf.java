package io.weir.buffer;

import io.weir.util.ByteProcessor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * One buffer made of several: the readable bytes of each added buffer (a <em>component</em>) appear one after
 * the other, without being copied.
 *
 * <h2>Layout</h2>
 * Components live in a flat array, each holding the buffer whose memory it reads (an added slice or duplicate
 * is unwrapped to the buffer underneath, so an access costs no extra indirection), the distance between a
 * composite index and the index in that buffer, and its start and end offsets inside the composite. The
 * component for an index is found by a binary search over the offsets, after checking the component accessed
 * last, so sequential access costs one comparison. A multi-byte value may straddle two components; it is then
 * assembled from its parts.
 *
 * <h2>Ownership</h2>
 * The composite owns its components. Adding a buffer transfers the caller's reference to the composite,
 * <em>even if the add fails</em>: the buffer is then released before the exception is thrown, so a caller
 * never has to clean up after a failed add. Removing a component, and the composite's own deallocation,
 * release each component exactly once. A view returned by {@link #component(int)} is not retained: it is valid
 * while the component stays in the composite.
 *
 * <h2>Component count</h2>
 * When an add or a growth pushes the number of components above {@link #maxNumComponents()}, all components are
 * {@linkplain #consolidate() consolidated} into one, which bounds the search cost and the size of
 * {@link #nioBuffers()}.
 *
 * <p>Not thread-safe (see {@link ByteBuf}).
 */
public sealed class CompositeByteBuf extends AbstractReferenceCountedByteBuf permits LeakAwareCompositeByteBuf {
    /** The default for {@link #maxNumComponents()}. */
    public static final int DEFAULT_MAX_NUM_COMPONENTS = 16;

    private static final Component[] NO_COMPONENTS = {};
    private static final ByteBuffer EMPTY_NIO_BUFFER = ByteBuffer.allocate(0);
    private static final byte[] EMPTY_BYTES = {};

    private final ByteBufAllocator alloc;
    private final boolean direct;
    private final int maxNumComponents;
    private final int maxCapacity;
    private Component[] components;
    private int componentCount;
    /** The component an access found last; checked before the binary search. Null when none. */
    private Component lastAccessed;

    /**
     * An empty composite ({@code capacity() == 0}).
     *
     * @param alloc where consolidation and growth take their memory
     * @param direct whether memory taken from {@code alloc} is direct
     * @param maxNumComponents how many components it holds before consolidating them
     * @throws IllegalArgumentException if {@code maxNumComponents} is below 1
     */
    public CompositeByteBuf(ByteBufAllocator alloc, boolean direct, int maxNumComponents) {
        this(alloc, direct, maxNumComponents, AbstractByteBufAllocator.DEFAULT_MAX_CAPACITY_BYTES);
    }

    CompositeByteBuf(ByteBufAllocator alloc, boolean direct, int maxNumComponents, int maxCapacity) {
        this.alloc = Objects.requireNonNull(alloc, "alloc");
        if (maxNumComponents < 1) {
            throw new IllegalArgumentException("maxNumComponents: " + maxNumComponents + " (expected: >= 1)");
        }
        if (maxCapacity < 0) {
            throw new IllegalArgumentException("maxCapacity: " + maxCapacity + " (expected: >= 0)");
        }
        this.direct = direct;
        this.maxNumComponents = maxNumComponents;
        this.maxCapacity = maxCapacity;
        this.components = NO_COMPONENTS;
    }

    /** One component: {@code [offset, endOffset)} of the composite is {@code buf[offset + adjustment, ...)}. */
    private static final class Component {
        final AbstractByteBuf buf;
        int adjustment;
        int offset;
        int endOffset;

        Component(AbstractByteBuf buf, int adjustment, int offset, int endOffset) {
            this.buf = buf;
            this.adjustment = adjustment;
            this.offset = offset;
            this.endOffset = endOffset;
        }

        int length() {
            return endOffset - offset;
        }

        /** Moves the component by {@code delta} inside the composite, reading the same bytes. */
        void shift(int delta) {
            offset += delta;
            endOffset += delta;
            adjustment -= delta;
        }
    }

    // ---- adding ----

    /**
     * Appends {@code buffer}'s readable bytes as a new last component, without moving the writer index.
     * Takes over the caller's reference (see the class comment, also on failure).
     *
     * @throws IllegalArgumentException if the capacity would exceed {@link #maxCapacity()}, or if
     *         {@code buffer} is this composite or a view of it
     */
    public CompositeByteBuf addComponent(ByteBuf buffer) {
        return addComponent(false, buffer);
    }

    /**
     * Appends {@code buffer}'s readable bytes as a new last component; if {@code increaseWriterIndex}, the
     * writer index advances past them. Takes over the caller's reference, also on failure.
     *
     * @throws IllegalArgumentException if the capacity would exceed {@link #maxCapacity()}
     */
    public CompositeByteBuf addComponent(boolean increaseWriterIndex, ByteBuf buffer) {
        return addComponent(increaseWriterIndex, componentCount, buffer);
    }

    /**
     * Inserts {@code buffer}'s readable bytes as component {@code cIndex}, moving the later components (and
     * their bytes' indexes) up; the writer index does not move. Takes over the caller's reference, also on
     * failure.
     *
     * @throws IndexOutOfBoundsException if {@code cIndex} is not in {@code [0, numComponents()]}
     * @throws IllegalArgumentException if the capacity would exceed {@link #maxCapacity()}
     */
    public CompositeByteBuf addComponent(int cIndex, ByteBuf buffer) {
        return addComponent(false, cIndex, buffer);
    }

    /**
     * Inserts {@code buffer}'s readable bytes as component {@code cIndex}; if {@code increaseWriterIndex}, the
     * writer index advances by their number. Takes over the caller's reference, also on failure.
     *
     * @throws IndexOutOfBoundsException if {@code cIndex} is not in {@code [0, numComponents()]}
     * @throws IllegalArgumentException if the capacity would exceed {@link #maxCapacity()}
     */
    public CompositeByteBuf addComponent(boolean increaseWriterIndex, int cIndex, ByteBuf buffer) {
        Objects.requireNonNull(buffer, "buffer");
        try {
            ensureAccessible();
            checkComponentIndex(cIndex);
            int length = buffer.readableBytes();
            checkRoomFor(length);
            // Built before any slot moves, so that a refused buffer leaves the composite as it was.
            Component added = newComponent(buffer, cIndex == 0 ? 0 : components[cIndex - 1].endOffset);
            makeRoom(cIndex, 1);
            components[cIndex] = added;
            shiftFrom(cIndex + 1, length);
            if (increaseWriterIndex) {
                setIndex0(readerIndex(), writerIndex() + length);
            }
        } catch (Throwable t) {
            buffer.release();
            throw t;
        }
        consolidateIfNeeded();
        return this;
    }

    /**
     * Appends the readable bytes of each of {@code buffers}, in order, without moving the writer index. Takes
     * over a reference to every one of them, also on failure.
     *
     * @throws NullPointerException if an element is null (the others are released)
     * @throws IllegalArgumentException if the capacity would exceed {@link #maxCapacity()}
     */
    public CompositeByteBuf addComponents(ByteBuf... buffers) {
        return addComponents(false, componentCount, buffers);
    }

    /** As {@link #addComponents(ByteBuf...)}, advancing the writer index if {@code increaseWriterIndex}. */
    public CompositeByteBuf addComponents(boolean increaseWriterIndex, ByteBuf... buffers) {
        return addComponents(increaseWriterIndex, componentCount, buffers);
    }

    /** As {@link #addComponents(ByteBuf...)}, advancing the writer index if {@code increaseWriterIndex}. */
    public CompositeByteBuf addComponents(boolean increaseWriterIndex, Iterable<ByteBuf> buffers) {
        return addComponents(increaseWriterIndex, componentCount, toArray(buffers));
    }

    /**
     * Inserts the readable bytes of each of {@code buffers}, in order, as components {@code cIndex, cIndex + 1,
     * ...}, without moving the writer index. Costs one shift of the later components, whatever the number of
     * buffers. Takes over a reference to every one of them, also on failure.
     *
     * @throws IndexOutOfBoundsException if {@code cIndex} is not in {@code [0, numComponents()]}
     */
    public CompositeByteBuf addComponents(int cIndex, ByteBuf... buffers) {
        return addComponents(false, cIndex, buffers);
    }

    /** As {@link #addComponents(int, ByteBuf...)}. */
    public CompositeByteBuf addComponents(int cIndex, Iterable<ByteBuf> buffers) {
        return addComponents(false, cIndex, toArray(buffers));
    }

    private static ByteBuf[] toArray(Iterable<ByteBuf> buffers) {
        Objects.requireNonNull(buffers, "buffers");
        if (buffers instanceof Collection<ByteBuf> collection) {
            return collection.toArray(new ByteBuf[0]);
        }
        List<ByteBuf> list = new ArrayList<>();
        for (ByteBuf b : buffers) {
            list.add(b);
        }
        return list.toArray(new ByteBuf[0]);
    }

    private CompositeByteBuf addComponents(boolean increaseWriterIndex, int cIndex, ByteBuf[] buffers) {
        Objects.requireNonNull(buffers, "buffers");
        int n = buffers.length;
        try {
            ensureAccessible();
            checkComponentIndex(cIndex);
            long total = 0;
            for (int i = 0; i < n; i++) {
                if (buffers[i] == null) {
                    throw new NullPointerException("buffers[" + i + "]");
                }
                total += buffers[i].readableBytes();
            }
            checkRoomFor(total);
            // Built before any slot moves, so that a refused buffer leaves the composite as it was.
            Component[] added = new Component[n];
            int offset = cIndex == 0 ? 0 : components[cIndex - 1].endOffset;
            for (int i = 0; i < n; i++) {
                added[i] = newComponent(buffers[i], offset);
                offset = added[i].endOffset;
            }
            makeRoom(cIndex, n);
            System.arraycopy(added, 0, components, cIndex, n);
            shiftFrom(cIndex + n, (int) total);
            if (increaseWriterIndex) {
                setIndex0(readerIndex(), writerIndex() + (int) total);
            }
        } catch (Throwable t) {
            releaseAll(buffers);
            throw t;
        }
        consolidateIfNeeded();
        return this;
    }

    private static void releaseAll(ByteBuf[] buffers) {
        for (ByteBuf b : buffers) {
            if (b != null) {
                b.release();
            }
        }
    }

    /**
     * Appends {@code buffer}'s readable bytes; if it is itself a composite, its components become components of
     * this one (each retained) and the composite is released, so no nesting builds up. Takes over the caller's
     * reference, also on failure.
     */
    public CompositeByteBuf addFlattenedComponents(boolean increaseWriterIndex, ByteBuf buffer) {
        Objects.requireNonNull(buffer, "buffer");
        if (!(buffer instanceof CompositeByteBuf from)) {
            return addComponent(increaseWriterIndex, buffer);
        }
        ByteBuf[] parts;
        try {
            parts = from.retainedParts(from.readerIndex(), from.readableBytes());
        } catch (Throwable t) {
            buffer.release();
            throw t;
        }
        buffer.release();
        return addComponents(increaseWriterIndex, componentCount, parts);
    }

    /** Retained views of the components' bytes in {@code [index, index + length)}, in order. */
    private ByteBuf[] retainedParts(int index, int length) {
        checkIndex(index, length);
        if (length == 0) {
            return new ByteBuf[0];
        }
        int first = componentIndexOf(index);
        int last = componentIndexOf(index + length - 1);
        ByteBuf[] parts = new ByteBuf[last - first + 1];
        for (int i = first; i <= last; i++) {
            Component c = components[i];
            int start = Math.max(index, c.offset);
            int end = Math.min(index + length, c.endOffset);
            parts[i - first] = c.buf.retainedSlice(start + c.adjustment, end - start);
        }
        return parts;
    }

    private Component newComponent(ByteBuf buffer, int offset) {
        // Every ByteBuf is an AbstractByteBuf: ByteBuf's constructor is package-private.
        AbstractByteBuf root = (AbstractByteBuf) buffer;
        int rootIndex = buffer.readerIndex();
        // Slices and duplicates share their parent's count, so keeping the parent keeps the same reference.
        if (buffer instanceof SlicedByteBuf || buffer instanceof DuplicatedByteBuf) {
            DerivedByteBuf derived = (DerivedByteBuf) buffer;
            root = derived.parent;
            rootIndex += derived.adjustment;
        }
        if (reaches(root, this)) {
            // Reads would recurse forever, and the composite would hold a reference to itself.
            throw new IllegalArgumentException("a composite cannot be a component of itself");
        }
        int length = buffer.readableBytes();
        return new Component(root, rootIndex - offset, offset, offset + length);
    }

    /** Whether {@code buffer} is {@code target} or a view or leak-aware wrapper over it. */
    private static boolean reaches(ByteBuf buffer, ByteBuf target) {
        for (ByteBuf b = buffer; b != null; ) {
            if (b == target) {
                return true;
            }
            b = b instanceof WrappedByteBuf w ? w.buf : b instanceof DerivedByteBuf d ? d.parent : null;
        }
        return false;
    }

    private void checkComponentIndex(int cIndex) {
        if (cIndex < 0 || cIndex > componentCount) {
            throw new IndexOutOfBoundsException("cIndex: " + cIndex + " (expected: 0-" + componentCount + ")");
        }
    }

    private void checkComponentRange(int cIndex, int numComponents) {
        if (cIndex < 0 || numComponents < 0 || cIndex + numComponents > componentCount
                || cIndex + numComponents < 0) {
            throw new IndexOutOfBoundsException("cIndex: " + cIndex + ", numComponents: " + numComponents
                    + " (expected: range(0, " + componentCount + "))");
        }
    }

    private void checkRoomFor(long length) {
        if (capacity() + length > maxCapacity) {
            throw new IllegalArgumentException("adding " + length + " bytes to capacity " + capacity()
                    + " exceeds maxCapacity(" + maxCapacity + ")");
        }
    }

    /** Opens {@code n} empty slots at {@code cIndex} with one copy of the later components. */
    private void makeRoom(int cIndex, int n) {
        int count = componentCount;
        int needed = count + n;
        if (needed > components.length) {
            int newLength = Math.max(needed, Math.max(4, components.length + (components.length >> 1)));
            Component[] grown = new Component[newLength];
            System.arraycopy(components, 0, grown, 0, cIndex);
            System.arraycopy(components, cIndex, grown, cIndex + n, count - cIndex);
            components = grown;
        } else if (cIndex < count) {
            System.arraycopy(components, cIndex, components, cIndex + n, count - cIndex);
        }
        componentCount = needed;
    }

    private void shiftFrom(int cIndex, int delta) {
        if (delta == 0) {
            return;
        }
        for (int i = cIndex; i < componentCount; i++) {
            components[i].shift(delta);
        }
    }

    private void consolidateIfNeeded() {
        if (componentCount > maxNumComponents) {
            consolidate(0, componentCount);
        }
    }

    // ---- inspecting and removing ----

    /** The number of components. */
    public int numComponents() {
        return componentCount;
    }

    /** How many components this composite holds before consolidating them into one. */
    public int maxNumComponents() {
        return maxNumComponents;
    }

    /**
     * A view (not retained) of component {@code cIndex}'s bytes; valid while the component is in the composite.
     *
     * @throws IndexOutOfBoundsException if {@code cIndex} is not in {@code [0, numComponents())}
     */
    public ByteBuf component(int cIndex) {
        ensureAccessible();
        checkComponentRange(cIndex, 1);
        Component c = components[cIndex];
        return c.buf.slice(c.offset + c.adjustment, c.length());
    }

    /**
     * A view (not retained) of the component holding byte {@code offset}.
     *
     * @throws IndexOutOfBoundsException if {@code offset} is not in {@code [0, capacity())}
     */
    public ByteBuf componentAtOffset(int offset) {
        return component(toComponentIndex(offset));
    }

    /**
     * The index of the component holding byte {@code offset}.
     *
     * @throws IndexOutOfBoundsException if {@code offset} is not in {@code [0, capacity())}
     */
    public int toComponentIndex(int offset) {
        checkIndex(offset, 1);
        return componentIndexOf(offset);
    }

    /**
     * Removes component {@code cIndex} and releases it; later components move down. Indexes beyond the new
     * capacity are lowered to it.
     *
     * @throws IndexOutOfBoundsException if {@code cIndex} is not in {@code [0, numComponents())}
     */
    public CompositeByteBuf removeComponent(int cIndex) {
        return removeComponents(cIndex, 1);
    }

    /**
     * Removes {@code numComponents} components from {@code cIndex} and releases them; later components move
     * down. Indexes beyond the new capacity are lowered to it.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code [0, numComponents())}
     */
    public CompositeByteBuf removeComponents(int cIndex, int numComponents) {
        ensureAccessible();
        checkComponentRange(cIndex, numComponents);
        if (numComponents == 0) {
            return this;
        }
        int end = cIndex + numComponents;
        int removedBytes = components[end - 1].endOffset - components[cIndex].offset;
        Component[] removed = new Component[numComponents];
        System.arraycopy(components, cIndex, removed, 0, numComponents);
        closeGap(cIndex, end);
        shiftFrom(cIndex, -removedBytes);
        trimIndexesToCapacity(capacity());
        releaseComponents(removed);
        return this;
    }

    /** Drops slots {@code [from, to)} from the array, without releasing or re-offsetting. */
    private void closeGap(int from, int to) {
        int count = componentCount;
        System.arraycopy(components, to, components, from, count - to);
        int newCount = count - (to - from);
        for (int i = newCount; i < count; i++) {
            components[i] = null;
        }
        componentCount = newCount;
        lastAccessed = null;
    }

    private static void releaseComponents(Component[] removed) {
        Throwable failure = null;
        for (Component c : removed) {
            try {
                c.buf.release();
            } catch (Throwable t) {
                if (failure == null) {
                    failure = t;
                } else {
                    failure.addSuppressed(t);
                }
            }
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
    }

    /**
     * Copies all components into one new buffer from the allocator and releases them; a no-op with fewer than
     * two components.
     */
    public CompositeByteBuf consolidate() {
        return consolidate(0, componentCount);
    }

    /**
     * Copies components {@code [cIndex, cIndex + numComponents)} into one new buffer from the allocator and
     * releases them; a no-op for fewer than two. Indexes and content are unchanged.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code [0, numComponents())}
     */
    public CompositeByteBuf consolidate(int cIndex, int numComponents) {
        ensureAccessible();
        checkComponentRange(cIndex, numComponents);
        if (numComponents < 2) {
            return this;
        }
        int end = cIndex + numComponents;
        int offset = components[cIndex].offset;
        int length = components[end - 1].endOffset - offset;
        ByteBuf merged = allocate(length);
        Component[] replaced = new Component[numComponents];
        System.arraycopy(components, cIndex, replaced, 0, numComponents);
        try {
            for (Component c : replaced) {
                merged.writeBytes(c.buf, c.offset + c.adjustment, c.length());
            }
        } catch (Throwable t) {
            merged.release();
            throw t;
        }
        components[cIndex] = new Component((AbstractByteBuf) merged, -offset, offset, offset + length);
        closeGap(cIndex + 1, end);
        releaseComponents(replaced);
        return this;
    }

    private ByteBuf allocate(int capacity) {
        return direct ? alloc.directBuffer(capacity) : alloc.heapBuffer(capacity);
    }

    /**
     * Removes and releases the components wholly before the reader index, lowering both indexes and the
     * capacity by their length. Copies nothing.
     */
    public CompositeByteBuf discardReadComponents() {
        ensureAccessible();
        int readerIndex = readerIndex();
        if (readerIndex == 0) {
            return this;
        }
        int writerIndex = writerIndex();
        int firstKept;
        if (readerIndex == writerIndex && writerIndex == capacity()) {
            firstKept = componentCount;
        } else {
            firstKept = componentIndexOf(readerIndex);
        }
        dropFront(firstKept, 0);
        return this;
    }

    /**
     * Drops components {@code [0, firstKept)} (releasing them) and {@code trimBytes} more from the front of the
     * next one, moving everything and both indexes down by the bytes dropped.
     */
    private void dropFront(int firstKept, int trimBytes) {
        int dropped = firstKept == componentCount ? capacity()
                : components[firstKept].offset + trimBytes;
        if (dropped == 0) {
            return;
        }
        Component[] removed = new Component[firstKept];
        System.arraycopy(components, 0, removed, 0, firstKept);
        closeGap(0, firstKept);
        if (componentCount > 0) {
            components[0].offset += trimBytes;
        }
        shiftFrom(0, -dropped);
        setIndex0(readerIndex() - dropped, writerIndex() - dropped);
        releaseComponents(removed);
    }

    /**
     * Discards the read bytes without copying the readable ones: read components are released and the first
     * partly read one is trimmed. The capacity is kept, by appending a new component for the bytes discarded.
     */
    @Override
    public ByteBuf discardReadBytes() {
        ensureAccessible();
        int readerIndex = readerIndex();
        if (readerIndex == 0) {
            return this;
        }
        int capacity = capacity();
        if (readerIndex == capacity) {
            dropFront(componentCount, 0);
        } else {
            int first = componentIndexOf(readerIndex);
            dropFront(first, readerIndex - components[first].offset);
        }
        capacity(capacity);
        return this;
    }

    // ---- capacity ----

    @Override
    public int capacity() {
        int count = componentCount;
        return count == 0 ? 0 : components[count - 1].endOffset;
    }

    /**
     * Growing appends one new component from the allocator for the extra bytes (consolidating if that goes past
     * {@link #maxNumComponents()}); shrinking releases the components past the new end and trims the last one.
     */
    @Override
    public ByteBuf capacity(int newCapacity) {
        checkNewCapacity(newCapacity);
        int old = capacity();
        if (newCapacity > old) {
            int extra = newCapacity - old;
            ByteBuf grown = allocate(extra);
            grown.writerIndex(extra);
            addComponent(false, componentCount, grown);
        } else if (newCapacity < old) {
            int keep = newCapacity == 0 ? 0 : componentIndexOf(newCapacity - 1) + 1;
            Component[] removed = new Component[componentCount - keep];
            System.arraycopy(components, keep, removed, 0, removed.length);
            closeGap(keep, componentCount);
            if (keep > 0) {
                components[keep - 1].endOffset = newCapacity;
            }
            trimIndexesToCapacity(newCapacity);
            releaseComponents(removed);
        }
        return this;
    }

    @Override
    public int maxCapacity() {
        return maxCapacity;
    }

    @Override
    public ByteBufAllocator alloc() {
        return alloc;
    }

    @Override
    public ByteBuf unwrap() {
        return null;
    }

    /** Whether there is at least one component and all are direct. */
    @Override
    public boolean isDirect() {
        int count = componentCount;
        if (count == 0) {
            return false;
        }
        for (int i = 0; i < count; i++) {
            if (!components[i].buf.isDirect()) {
                return false;
            }
        }
        return true;
    }

    /** True with no component, or with exactly one that has an array. */
    @Override
    public boolean hasArray() {
        return switch (componentCount) {
            case 0 -> true;
            case 1 -> components[0].buf.hasArray();
            default -> false;
        };
    }

    @Override
    public byte[] array() {
        ensureAccessible();
        return switch (componentCount) {
            case 0 -> EMPTY_BYTES;
            case 1 -> components[0].buf.array();
            default -> throw new UnsupportedOperationException(
                    "a composite of " + componentCount + " components has no single array");
        };
    }

    @Override
    public int arrayOffset() {
        return switch (componentCount) {
            case 0 -> 0;
            case 1 -> components[0].buf.arrayOffset() + components[0].adjustment;
            default -> throw new UnsupportedOperationException(
                    "a composite of " + componentCount + " components has no single array");
        };
    }

    /** True only with exactly one component that has a memory address. */
    @Override
    public boolean hasMemoryAddress() {
        return componentCount == 1 && components[0].buf.hasMemoryAddress();
    }

    @Override
    public long memoryAddress() {
        if (componentCount != 1) {
            throw new UnsupportedOperationException(
                    "a composite of " + componentCount + " components has no single memory address");
        }
        return components[0].buf.memoryAddress() + components[0].adjustment;
    }

    @Override
    void deallocate() {
        Component[] all = new Component[componentCount];
        System.arraycopy(components, 0, all, 0, componentCount);
        components = NO_COMPONENTS;
        componentCount = 0;
        lastAccessed = null;
        releaseComponents(all);
    }

    // ---- finding components ----

    /** The component holding byte {@code index}, which the caller has range-checked. */
    private Component find(int index) {
        Component c = lastAccessed;
        if (c != null && index >= c.offset && index < c.endOffset) {
            return c;
        }
        c = components[componentIndexOf(index)];
        lastAccessed = c;
        return c;
    }

    /** Binary search for the component holding byte {@code index} in {@code [0, capacity())}. */
    private int componentIndexOf(int index) {
        Component[] cs = components;
        int low = 0;
        int high = componentCount - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            Component c = cs[mid];
            if (index < c.offset) {
                high = mid - 1;
            } else if (index >= c.endOffset) {
                // Also steps over empty components, whose end equals their offset.
                low = mid + 1;
            } else {
                return mid;
            }
        }
        throw new IndexOutOfBoundsException("index: " + index + " (expected: range(0, " + capacity() + "))");
    }

    // ---- primitives ----

    @Override
    byte _getByte(int index) {
        Component c = find(index);
        return c.buf._getByte(index + c.adjustment);
    }

    @Override
    short _getShort(int index) {
        Component c = find(index);
        if (index + 2 <= c.endOffset) {
            return c.buf._getShort(index + c.adjustment);
        }
        return (short) ((_getByte(index) & 0xff) << 8 | _getByte(index + 1) & 0xff);
    }

    @Override
    short _getShortLE(int index) {
        Component c = find(index);
        if (index + 2 <= c.endOffset) {
            return c.buf._getShortLE(index + c.adjustment);
        }
        return (short) (_getByte(index) & 0xff | (_getByte(index + 1) & 0xff) << 8);
    }

    @Override
    int _getInt(int index) {
        Component c = find(index);
        if (index + 4 <= c.endOffset) {
            return c.buf._getInt(index + c.adjustment);
        }
        return (_getShort(index) & 0xffff) << 16 | _getShort(index + 2) & 0xffff;
    }

    @Override
    int _getIntLE(int index) {
        Component c = find(index);
        if (index + 4 <= c.endOffset) {
            return c.buf._getIntLE(index + c.adjustment);
        }
        return _getShortLE(index) & 0xffff | (_getShortLE(index + 2) & 0xffff) << 16;
    }

    @Override
    long _getLong(int index) {
        Component c = find(index);
        if (index + 8 <= c.endOffset) {
            return c.buf._getLong(index + c.adjustment);
        }
        return (_getInt(index) & 0xffffffffL) << 32 | _getInt(index + 4) & 0xffffffffL;
    }

    @Override
    long _getLongLE(int index) {
        Component c = find(index);
        if (index + 8 <= c.endOffset) {
            return c.buf._getLongLE(index + c.adjustment);
        }
        return _getIntLE(index) & 0xffffffffL | (_getIntLE(index + 4) & 0xffffffffL) << 32;
    }

    @Override
    void _setByte(int index, int value) {
        Component c = find(index);
        c.buf._setByte(index + c.adjustment, value);
    }

    @Override
    void _setShort(int index, int value) {
        Component c = find(index);
        if (index + 2 <= c.endOffset) {
            c.buf._setShort(index + c.adjustment, value);
        } else {
            _setByte(index, value >>> 8);
            _setByte(index + 1, value);
        }
    }

    @Override
    void _setShortLE(int index, int value) {
        Component c = find(index);
        if (index + 2 <= c.endOffset) {
            c.buf._setShortLE(index + c.adjustment, value);
        } else {
            _setByte(index, value);
            _setByte(index + 1, value >>> 8);
        }
    }

    @Override
    void _setInt(int index, int value) {
        Component c = find(index);
        if (index + 4 <= c.endOffset) {
            c.buf._setInt(index + c.adjustment, value);
        } else {
            _setShort(index, value >>> 16);
            _setShort(index + 2, value);
        }
    }

    @Override
    void _setIntLE(int index, int value) {
        Component c = find(index);
        if (index + 4 <= c.endOffset) {
            c.buf._setIntLE(index + c.adjustment, value);
        } else {
            _setShortLE(index, value);
            _setShortLE(index + 2, value >>> 16);
        }
    }

    @Override
    void _setLong(int index, long value) {
        Component c = find(index);
        if (index + 8 <= c.endOffset) {
            c.buf._setLong(index + c.adjustment, value);
        } else {
            _setInt(index, (int) (value >>> 32));
            _setInt(index + 4, (int) value);
        }
    }

    @Override
    void _setLongLE(int index, long value) {
        Component c = find(index);
        if (index + 8 <= c.endOffset) {
            c.buf._setLongLE(index + c.adjustment, value);
        } else {
            _setIntLE(index, (int) value);
            _setIntLE(index + 4, (int) (value >>> 32));
        }
    }

    @Override
    void _getBytes(int index, byte[] dst, int dstIndex, int length) {
        while (length > 0) {
            Component c = find(index);
            int n = Math.min(length, c.endOffset - index);
            c.buf._getBytes(index + c.adjustment, dst, dstIndex, n);
            index += n;
            dstIndex += n;
            length -= n;
        }
    }

    @Override
    void _getBytes(int index, ByteBuffer dst) {
        int limit = dst.limit();
        try {
            int length = dst.remaining();
            while (length > 0) {
                Component c = find(index);
                int n = Math.min(length, c.endOffset - index);
                dst.limit(dst.position() + n);
                c.buf._getBytes(index + c.adjustment, dst);
                index += n;
                length -= n;
            }
        } finally {
            dst.limit(limit);
        }
    }

    @Override
    void _setBytes(int index, byte[] src, int srcIndex, int length) {
        while (length > 0) {
            Component c = find(index);
            int n = Math.min(length, c.endOffset - index);
            c.buf._setBytes(index + c.adjustment, src, srcIndex, n);
            index += n;
            srcIndex += n;
            length -= n;
        }
    }

    @Override
    void _setBytes(int index, ByteBuffer src) {
        int limit = src.limit();
        try {
            int length = src.remaining();
            while (length > 0) {
                Component c = find(index);
                int n = Math.min(length, c.endOffset - index);
                src.limit(src.position() + n);
                c.buf._setBytes(index + c.adjustment, src);
                index += n;
                length -= n;
            }
        } finally {
            src.limit(limit);
        }
    }

    @Override
    void _setZero(int index, int length) {
        while (length > 0) {
            Component c = find(index);
            int n = Math.min(length, c.endOffset - index);
            c.buf._setZero(index + c.adjustment, n);
            index += n;
            length -= n;
        }
    }

    /** The range as one ByteBuffer: shared with the component if it lies in one, else a copy. */
    @Override
    ByteBuffer _nioBuffer(int index, int length) {
        if (length == 0) {
            return EMPTY_NIO_BUFFER.duplicate();
        }
        Component c = find(index);
        if (index + length <= c.endOffset) {
            return c.buf.nioBuffer(index + c.adjustment, length);
        }
        ByteBuffer copy = ByteBuffer.allocate(length);
        _getBytes(index, copy);
        return copy.flip();
    }

    // ---- bulk transfers between buffers ----

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        Objects.requireNonNull(dst, "dst");
        checkIndex(index, length);
        checkArgRange("dstIndex", dstIndex, length, dst.capacity());
        while (length > 0) {
            Component c = find(index);
            int n = Math.min(length, c.endOffset - index);
            c.buf.getBytes(index + c.adjustment, dst, dstIndex, n);
            index += n;
            dstIndex += n;
            length -= n;
        }
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        Objects.requireNonNull(src, "src");
        checkIndex(index, length);
        checkArgRange("srcIndex", srcIndex, length, src.capacity());
        while (length > 0) {
            Component c = find(index);
            int n = Math.min(length, c.endOffset - index);
            c.buf.setBytes(index + c.adjustment, src, srcIndex, n);
            index += n;
            srcIndex += n;
            length -= n;
        }
        return this;
    }

    // ---- channels: one ByteBuffer per component, so nothing is copied and reads land in place ----

    @Override
    public int getBytes(int index, GatheringByteChannel out, int length) throws IOException {
        Objects.requireNonNull(out, "out");
        checkIndex(index, length);
        if (length == 0) {
            return 0;
        }
        return (int) out.write(nioBuffers(index, length));
    }

    @Override
    public int setBytes(int index, ScatteringByteChannel in, int length) throws IOException {
        Objects.requireNonNull(in, "in");
        checkIndex(index, length);
        if (length == 0) {
            return in.read(EMPTY_NIO_BUFFER.duplicate());
        }
        return (int) in.read(nioBuffers(index, length));
    }

    @Override
    public int setBytes(int index, FileChannel in, long position, int length) throws IOException {
        Objects.requireNonNull(in, "in");
        checkIndex(index, length);
        if (length == 0) {
            return in.read(EMPTY_NIO_BUFFER.duplicate(), position);
        }
        int total = 0;
        for (ByteBuffer part : nioBuffers(index, length)) {
            int wanted = part.remaining();
            int n = in.read(part, position + total);
            if (n < 0) {
                return total == 0 ? -1 : total;
            }
            total += n;
            if (n < wanted) {
                break;
            }
        }
        return total;
    }

    // ---- NIO views ----

    @Override
    public int nioBufferCount() {
        int count = 0;
        for (int i = 0; i < componentCount; i++) {
            count += components[i].buf.nioBufferCount();
        }
        return count;
    }

    /** Shared with the component when the range lies in one; a copy when it spans several. */
    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        checkIndex(index, length);
        return _nioBuffer(index, length);
    }

    /** One ByteBuffer per component touched by the range, sharing its memory (no copy). */
    @Override
    public ByteBuffer[] nioBuffers(int index, int length) {
        checkIndex(index, length);
        if (length == 0) {
            return new ByteBuffer[] {EMPTY_NIO_BUFFER.duplicate()};
        }
        int first = componentIndexOf(index);
        int last = componentIndexOf(index + length - 1);
        boolean flat = true;
        for (int i = first; i <= last; i++) {
            if (components[i].buf.nioBufferCount() != 1) {
                flat = false;
                break;
            }
        }
        if (flat) {
            ByteBuffer[] buffers = new ByteBuffer[last - first + 1];
            for (int i = first; i <= last; i++) {
                Component c = components[i];
                int start = Math.max(index, c.offset);
                int end = Math.min(index + length, c.endOffset);
                buffers[i - first] = c.buf.nioBuffer(start + c.adjustment, end - start);
            }
            return buffers;
        }
        List<ByteBuffer> buffers = new ArrayList<>();
        for (int i = first; i <= last; i++) {
            Component c = components[i];
            int start = Math.max(index, c.offset);
            int end = Math.min(index + length, c.endOffset);
            if (end > start) {
                for (ByteBuffer b : c.buf.nioBuffers(start + c.adjustment, end - start)) {
                    buffers.add(b);
                }
            }
        }
        return buffers.toArray(new ByteBuffer[0]);
    }

    // ---- search ----

    @Override
    public int forEachByte(int index, int length, ByteProcessor processor) {
        Objects.requireNonNull(processor, "processor");
        checkIndex(index, length);
        while (length > 0) {
            Component c = find(index);
            int n = Math.min(length, c.endOffset - index);
            int found = c.buf.forEachByte(index + c.adjustment, n, processor);
            if (found >= 0) {
                return found - c.adjustment;
            }
            index += n;
            length -= n;
        }
        return -1;
    }

    @Override
    public int forEachByteDesc(int index, int length, ByteProcessor processor) {
        Objects.requireNonNull(processor, "processor");
        checkIndex(index, length);
        int end = index + length;
        while (end > index) {
            Component c = find(end - 1);
            int start = Math.max(index, c.offset);
            int found = c.buf.forEachByteDesc(start + c.adjustment, end - start, processor);
            if (found >= 0) {
                return found - c.adjustment;
            }
            end = start;
        }
        return -1;
    }

    @Override
    public String toString() {
        String base = super.toString();
        return refCnt() == 0 ? base : base.substring(0, base.length() - 1) + ", components: " + componentCount + ")";
    }
}
