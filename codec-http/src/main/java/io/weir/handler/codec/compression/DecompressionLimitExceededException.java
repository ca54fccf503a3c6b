package io.weir.handler.codec.compression;

/**
 * A compressed HTTP body decompressed to more bytes than allowed, or to more than allowed per compressed byte:
 * the signature of a decompression bomb. Carries what was seen and the limit; thrown without a stack trace,
 * as a peer can trigger it at will.
 */
public final class DecompressionLimitExceededException extends DecompressionException {
    private static final long serialVersionUID = 1L;

    private final long decompressedBytes;
    private final long compressedBytes;

    /** An exception stating {@code reason} after {@code decompressedBytes} from {@code compressedBytes}. */
    public DecompressionLimitExceededException(String reason, long decompressedBytes, long compressedBytes) {
        super(reason + " (" + decompressedBytes + " bytes decompressed from " + compressedBytes + ")");
        this.decompressedBytes = decompressedBytes;
        this.compressedBytes = compressedBytes;
    }

    /** How many bytes had been decompressed when the limit was hit. */
    public long decompressedBytes() {
        return decompressedBytes;
    }

    /** How many compressed bytes had been read when the limit was hit. */
    public long compressedBytes() {
        return compressedBytes;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
