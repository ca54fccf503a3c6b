package io.weir.util.platform;

import java.nio.ByteBuffer;

/** Run in a child JVM by {@link OpenedJdkPathsTest} to exercise the paths that need JVM flags. */
final class PlatformProbe {
    private PlatformProbe() {
    }

    public static void main(String[] args) {
        System.out.println("uninitialized=" + ByteArrays.isUninitializedAllocationAvailable());
        System.out.println("uninitializedLength=" + ByteArrays.allocateUninitialized(4096).length);
        System.out.println("cleanerFree=" + DirectMemory.isCleanerFree());
        System.out.println("jvmMax=" + DirectMemory.jvmMaxDirectMemory());
        DirectMemory memory = DirectMemory.withLimit(1 << 20);
        ByteBuffer buffer = memory.allocate(1000);
        for (int i = 0; i < 1000; i++) {
            buffer.put(i, (byte) i);
        }
        ByteBuffer grown = memory.reallocate(buffer, 100_000);
        boolean kept = true;
        for (int i = 0; i < 1000; i++) {
            kept &= grown.get(i) == (byte) i;
        }
        System.out.println("reallocateKeptContent=" + kept);
        memory.free(grown);
        try {
            memory.free(grown);
            System.out.println("doubleFree=allowed");
        } catch (IllegalArgumentException e) {
            System.out.println("doubleFree=refused");
        }
        System.out.println("used=" + memory.usedDirectMemory());
    }
}
