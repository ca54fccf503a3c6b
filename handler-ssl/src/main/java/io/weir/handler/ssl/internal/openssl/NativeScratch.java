package io.weir.handler.ssl.internal.openssl;

import java.nio.ByteBuffer;

/**
 * Per-thread direct buffers for the rare call that hands the engine heap buffers or several plaintext buffers
 * (BoringSSL reads and writes native memory, and one record should carry all coalesced writes). Used only within
 * one engine call on the calling thread, so a buffer is never shared.
 */
final class NativeScratch {
    /** Larger than any TLS 1.2 ciphertext record (RFC 5246 §6.2.3: 2^14 + 2048 plus a 5-byte header). */
    static final int CAPACITY_BYTES = 32 * 1024;

    private static final ThreadLocal<ByteBuffer[]> BUFFERS = ThreadLocal.withInitial(() -> new ByteBuffer[2]);

    private NativeScratch() {
    }

    /** The calling thread's input buffer (index 0) or output buffer (index 1), cleared. */
    static ByteBuffer get(int index) {
        ByteBuffer[] buffers = BUFFERS.get();
        ByteBuffer b = buffers[index];
        if (b == null) {
            b = ByteBuffer.allocateDirect(CAPACITY_BYTES);
            buffers[index] = b;
        }
        b.clear();
        return b;
    }
}
