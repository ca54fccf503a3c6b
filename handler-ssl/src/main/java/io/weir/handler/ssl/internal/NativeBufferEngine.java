package io.weir.handler.ssl.internal;

/**
 * Marks an {@code SSLEngine} that reads and writes native memory: {@code SslHandler} gives it direct buffers (a
 * heap buffer would cost it a copy per record), where the JDK's engine gets heap buffers.
 */
public interface NativeBufferEngine {
}
