package io.weir.util.internal;

import io.weir.util.platform.LoopLogger;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.nio.ByteBuffer;
import sun.misc.Unsafe;

/**
 * Direct buffers whose memory is freed on demand, for {@code io.weir.util.platform.DirectMemory} when
 * {@code PlatformInfo.hasUnsafe()}. Only loaded in that case.
 *
 * <p>When the JDK's private {@code DirectByteBuffer(long address, int|long capacity)} constructor is
 * accessible ({@code --add-opens java.base/java.nio=io.weir.common}, or {@code =ALL-UNNAMED} on the class
 * path), memory comes from {@code Unsafe.allocateMemory} and the buffer has no Cleaner at all, so
 * reallocation can grow in place. Otherwise buffers come from {@link ByteBuffer#allocateDirect} and are
 * freed early with {@code Unsafe.invokeCleaner}.
 *
 * <p>Callers guarantee that every buffer passed to {@link #reallocate} or {@link #free} came from this
 * class and was not freed yet, and that nobody uses it afterwards.
 */
public final class UnsafeDirectBuffers {
    private static final Unsafe U = org.jctools.util.UnsafeAccess.UNSAFE;
    private static final MethodHandle NO_CLEANER_CONSTRUCTOR = findNoCleanerConstructor();

    private UnsafeDirectBuffers() {
    }

    /** Whether buffers are made without a Cleaner (raw allocateMemory/freeMemory). */
    public static boolean isCleanerFree() {
        return NO_CLEANER_CONSTRUCTOR != null;
    }

    /**
     * A direct buffer of {@code capacity} bytes with unspecified contents.
     *
     * @throws OutOfMemoryError if the OS (or, on the Cleaner path, the JDK's limit) refuses the memory
     */
    public static ByteBuffer allocate(int capacity) {
        if (NO_CLEANER_CONSTRUCTOR == null) {
            return ByteBuffer.allocateDirect(capacity);
        }
        // A fresh allocation; ownership goes to the wrapping buffer and from it to DirectMemory's caller.
        long address = U.allocateMemory(capacity);
        try {
            return wrap(address, capacity);
        } catch (Throwable t) {
            // The address was allocated just above and has not been published.
            U.freeMemory(address);
            throw t;
        }
    }

    /**
     * A buffer of {@code newCapacity} bytes holding the first {@code min(old, new)} bytes of {@code buffer},
     * which must not be used afterwards.
     */
    public static ByteBuffer reallocate(ByteBuffer buffer, int newCapacity) {
        if (NO_CLEANER_CONSTRUCTOR == null) {
            ByteBuffer copy = ByteBuffer.allocateDirect(newCapacity);
            copy.put(0, buffer, 0, Math.min(buffer.capacity(), newCapacity));
            free(buffer);
            return copy;
        }
        long oldAddress = UnsafeMemoryAccessor.directBufferAddress(buffer);
        // The caller owns buffer (allocated here, not yet freed) and gives it up by calling us.
        long address = U.reallocateMemory(oldAddress, newCapacity);
        return wrap(address, newCapacity);
    }

    /** Returns {@code buffer}'s memory to the OS now; the buffer must not be used afterwards. */
    public static void free(ByteBuffer buffer) {
        if (NO_CLEANER_CONSTRUCTOR == null) {
            // buffer came from allocateDirect here (not a slice or duplicate), as invokeCleaner requires.
            U.invokeCleaner(buffer);
            return;
        }
        // The caller owns buffer's memory, allocated by allocateMemory here and not freed yet.
        U.freeMemory(UnsafeMemoryAccessor.directBufferAddress(buffer));
    }

    private static ByteBuffer wrap(long address, int capacity) {
        try {
            return (ByteBuffer) NO_CLEANER_CONSTRUCTOR.invokeExact(address, capacity);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("DirectByteBuffer constructor failed", t);
        }
    }

    private static MethodHandle findNoCleanerConstructor() {
        try {
            Class<?> type = Class.forName("java.nio.DirectByteBuffer");
            Constructor<?> constructor;
            try {
                constructor = type.getDeclaredConstructor(long.class, int.class);
            } catch (NoSuchMethodException e) {
                // JDK 21 widened the JNI constructor's capacity to long.
                constructor = type.getDeclaredConstructor(long.class, long.class);
            }
            // Throws InaccessibleObjectException unless java.nio is opened to this module.
            constructor.setAccessible(true);
            MethodHandle handle = MethodHandles.lookup().unreflectConstructor(constructor)
                    .asType(MethodType.methodType(ByteBuffer.class, long.class,
                            constructor.getParameterTypes()[1]));
            if (constructor.getParameterTypes()[1] == long.class) {
                handle = MethodHandles.explicitCastArguments(handle,
                        MethodType.methodType(ByteBuffer.class, long.class, int.class));
            }
            return verified(handle);
        } catch (Throwable t) {
            LoopLogger.of(UnsafeDirectBuffers.class).log(System.Logger.Level.DEBUG,
                    "direct buffers keep their Cleaner (open java.base/java.nio to avoid it): " + t);
            return null;
        }
    }

    private static MethodHandle verified(MethodHandle handle) throws Throwable {
        // A one-byte allocation owned by this method only, freed before returning.
        long address = U.allocateMemory(1);
        try {
            ByteBuffer probe = (ByteBuffer) handle.invokeExact(address, 1);
            if (probe.capacity() != 1 || UnsafeMemoryAccessor.directBufferAddress(probe) != address) {
                throw new IllegalStateException("DirectByteBuffer(long, int) did not wrap the address");
            }
            return handle;
        } finally {
            // Allocated above in this method; probe is dropped unused.
            U.freeMemory(address);
        }
    }
}
