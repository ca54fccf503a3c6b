package io.weir.util.platform;

import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Allocates {@code byte[]}s that the caller overwrites completely, skipping the JVM's zeroing where the
 * JDK allows it.
 *
 * <p>Large arrays come from {@code jdk.internal.misc.Unsafe.allocateUninitializedArray} when
 * {@code java.base/jdk.internal.misc} is exported to Weir
 * ({@code --add-exports java.base/jdk.internal.misc=io.weir.common}, or {@code =ALL-UNNAMED} on the class
 * path) and {@code -Dio.weir.noUnsafe=true} is not set; this is decided once at class initialisation and
 * prints nothing. Otherwise, and below {@value #THRESHOLD_PROPERTY}, it is {@code new byte[size]}.
 * Thread-safe.
 */
public final class ByteArrays {
    /**
     * {@code io.weir.uninitializedArrayAllocationThreshold}: the smallest array size, in bytes, allocated
     * uninitialised ({@value #DEFAULT_UNINITIALIZED_THRESHOLD_BYTES} by default; below it zeroing is cheaper
     * than the call). A negative value turns uninitialised allocation off.
     */
    public static final String THRESHOLD_PROPERTY = "io.weir.uninitializedArrayAllocationThreshold";
    /** Default of {@value #THRESHOLD_PROPERTY}. */
    public static final int DEFAULT_UNINITIALIZED_THRESHOLD_BYTES = 1024;

    private static final int THRESHOLD_BYTES =
            SystemProperties.getInt(THRESHOLD_PROPERTY, DEFAULT_UNINITIALIZED_THRESHOLD_BYTES);
    private static final MethodHandle ALLOCATE_UNINITIALIZED = THRESHOLD_BYTES < 0 ? null : findAllocator();

    private ByteArrays() {
    }

    /** Whether large arrays are allocated without zeroing. */
    public static boolean isUninitializedAllocationAvailable() {
        return ALLOCATE_UNINITIALIZED != null;
    }

    /**
     * Returns a new {@code byte[size]} whose contents are unspecified (they may be stale heap bytes): the
     * caller must write every element before reading it or handing the array to anyone else.
     *
     * @throws NegativeArraySizeException if {@code size} is negative
     */
    public static byte[] allocateUninitialized(int size) {
        if (ALLOCATE_UNINITIALIZED == null || size < THRESHOLD_BYTES) {
            return new byte[size];
        }
        try {
            return (byte[]) ALLOCATE_UNINITIALIZED.invokeExact(size);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("allocateUninitializedArray failed", t);
        }
    }

    private static MethodHandle findAllocator() {
        if (SystemProperties.getBoolean(PlatformInfo.NO_UNSAFE_PROPERTY, false)) {
            return null;
        }
        try {
            Class<?> unsafeType = Class.forName("jdk.internal.misc.Unsafe");
            // Our own lookup fails with IllegalAccessException unless jdk.internal.misc is exported to this module.
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            Object unsafe = lookup
                    .findStatic(unsafeType, "getUnsafe", MethodType.methodType(unsafeType))
                    .invoke();
            MethodHandle allocate = lookup
                    .findVirtual(unsafeType, "allocateUninitializedArray",
                            MethodType.methodType(Object.class, Class.class, int.class))
                    .bindTo(unsafe);
            MethodHandle bytes = MethodHandles.insertArguments(allocate, 0, byte.class)
                    .asType(MethodType.methodType(byte[].class, int.class));
            byte[] probe = (byte[]) bytes.invokeExact(8);
            if (probe.length != 8) {
                throw new IllegalStateException("allocateUninitializedArray returned " + probe.length + " bytes");
            }
            return bytes;
        } catch (Throwable t) {
            LoopLogger.of(ByteArrays.class).log(Level.DEBUG,
                    "uninitialised byte[] allocation unavailable: " + t);
            return null;
        }
    }
}
