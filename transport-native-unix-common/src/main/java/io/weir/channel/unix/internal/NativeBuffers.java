package io.weir.channel.unix.internal;

/**
 * The native address of direct NIO buffers, for transports that hand memory to system calls when a
 * {@link io.weir.buffer.ByteBuf} does not know its own address (Unsafe turned off). Registered by the transport
 * library's {@code JNI_OnLoad} through {@code weir_unix_jni_load} (C: {@code weir_unix.c}); no static initializer
 * may call a native here. Any thread.
 */
public final class NativeBuffers {
    private NativeBuffers() {
    }

    /** The address of {@code buffer}'s first byte (not its position); 0 if it is not direct. */
    public static native long address(java.nio.ByteBuffer buffer);
}
