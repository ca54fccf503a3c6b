package io.weir.grpc;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;

/**
 * The gRPC message framing of one direction of one call (gRPC over HTTP/2, "Length-Prefixed-Message"):
 * <pre>
 *  0               1               2               3               4
 * +---------------+---------------+---------------+---------------+---------------+---- - -
 * | Compressed-   |              Message-Length (unsigned, big-endian)            | Message
 * | Flag (0 or 1) |                                                               | ...
 * +---------------+---------------+---------------+---------------+---------------+---- - -
 * </pre>
 * {@link #read} cuts the DATA of a stream into messages; {@link #frame} prefixes an outgoing message. A
 * Compressed-Flag of 1 is refused unless the call named a {@code grpc-encoding} (then the sink is told, and
 * decompresses), any other flag always. A message is handed on as a slice of the DATA
 * it arrived in when it fits in one frame, and otherwise assembled in a buffer that grows with the bytes received
 * (never to the declared length up front: a peer that declares 4 MiB and sends nothing costs nothing).
 *
 * <p>Not thread-safe: one instance per call direction, used on the stream's event loop.
 */
final class GrpcMessageFraming {
    /** Octets of the prefix. */
    static final int HEADER_BYTES = 5;

    /** Receives each message read; owns (and releases) the buffer it is given. */
    interface Sink {
        /** {@code message} as it came; {@code compressed} when its Compressed-Flag was 1. */
        void onMessage(ByteBuf message, boolean compressed);
    }

    private final ByteBufAllocator alloc;
    private final int maxMessageBytes;
    private final boolean compressionAllowed;
    private long header;
    private int headerBytes;
    private int length;
    private ByteBuf message;
    private boolean stopped;

    /**
     * @param maxMessageBytes the largest Message-Length accepted
     */
    GrpcMessageFraming(ByteBufAllocator alloc, int maxMessageBytes) {
        this(alloc, maxMessageBytes, false);
    }

    /**
     * @param maxMessageBytes the largest Message-Length accepted (of the message as sent, compressed or not)
     * @param compressionAllowed whether the call named a {@code grpc-encoding}, so that Compressed-Flag 1 is valid
     */
    GrpcMessageFraming(ByteBufAllocator alloc, int maxMessageBytes, boolean compressionAllowed) {
        this.alloc = alloc;
        this.maxMessageBytes = maxMessageBytes;
        this.compressionAllowed = compressionAllowed;
    }

    /**
     * Reads {@code data} (released here, whatever happens), handing each complete message to {@code sink} until
     * {@link #release()} stops it.
     *
     * @throws GrpcException INTERNAL for a Compressed-Flag other than 0, RESOURCE_EXHAUSTED for a Message-Length
     *         above the limit; the framing is stopped then
     */
    void read(ByteBuf data, Sink sink) throws GrpcException {
        try {
            while (!stopped && data.isReadable()) {
                if (headerBytes < HEADER_BYTES) {
                    while (headerBytes < HEADER_BYTES && data.isReadable()) {
                        header = header << 8 | data.readUnsignedByte();
                        headerBytes++;
                    }
                    if (headerBytes < HEADER_BYTES) {
                        return;
                    }
                    startMessage();
                    if (length == 0) {
                        complete(sink, alloc.buffer(0, 0));
                        continue;
                    }
                    if (data.readableBytes() >= length) {
                        complete(sink, data.readRetainedSlice(length));
                        continue;
                    }
                    message = alloc.buffer(Math.min(length, data.readableBytes()), length);
                }
                int n = Math.min(length - message.readableBytes(), data.readableBytes());
                message.writeBytes(data, n);
                if (message.readableBytes() == length) {
                    ByteBuf m = message;
                    message = null;
                    complete(sink, m);
                }
            }
        } finally {
            data.release();
        }
    }

    private void startMessage() throws GrpcException {
        int flag = (int) (header >>> 32) & 0xFF;
        long declared = header & 0xFFFFFFFFL;
        if (flag != 0 && (flag != 1 || !compressionAllowed)) {
            stopped = true;
            // gRPC over HTTP/2: without a grpc-encoding (identity) the Compressed-Flag must be 0.
            throw new GrpcException(GrpcStatus.INTERNAL, flag == 1
                    ? "compressed message (Compressed-Flag 1) without a grpc-encoding"
                    : "malformed message prefix: Compressed-Flag " + flag);
        }
        if (declared > maxMessageBytes) {
            stopped = true;
            throw new GrpcException(GrpcStatus.RESOURCE_EXHAUSTED,
                    "gRPC message larger than " + maxMessageBytes + " bytes: " + declared);
        }
        length = (int) declared;
    }

    private void complete(Sink sink, ByteBuf m) {
        boolean compressed = (header >>> 32 & 0xFF) == 1;
        headerBytes = 0;
        header = 0;
        sink.onMessage(m, compressed);
    }

    /** Whether no message is partly read: what a sender must leave behind when it ends its side. */
    boolean isIdle() {
        return headerBytes == 0;
    }

    /** Stops reading and releases a partly read message. Idempotent. */
    void release() {
        stopped = true;
        if (message != null) {
            message.release();
            message = null;
        }
    }

    /**
     * {@code payload} (owned by the result from here on) behind its prefix (Compressed-Flag 0), ready for a DATA
     * frame: a composite of the 5-byte prefix and the payload, so the message is not copied.
     */
    static ByteBuf frame(ByteBufAllocator alloc, ByteBuf payload) {
        ByteBuf prefix;
        try {
            prefix = alloc.buffer(HEADER_BYTES).writeByte(0).writeInt(payload.readableBytes());
        } catch (Throwable t) {
            payload.release();
            throw t;
        }
        return alloc.compositeBuffer(2).addComponents(true, prefix, payload);
    }
}
