package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.ByteToMessageDecoder;
import io.weir.handler.codec.WritabilityInputPause;
import io.weir.handler.codec.http.websocketx.internal.Utf8Validator;
import io.weir.handler.codec.http.websocketx.internal.WebSocketMasking;
import java.util.List;

/**
 * Reads RFC 6455 frames (layout drawn in {@link WebSocketFrameEncoder}) into {@link WebSocketFrame}s, enforcing
 * the protocol and the limits of a {@link WebSocketConfig}.
 *
 * <h2>What is rejected</h2>
 * Each of these fails the connection (§7.1.7): the decoder writes a close frame with the status shown, closes the
 * channel once it is written, fires a {@link WebSocketProtocolException} (a {@link WebSocketTooBigException} for
 * 1009) down the pipeline and discards every later byte.
 * <ul>
 * <li>1002: a frame from a client that is not masked, or from a server that is (§5.1); a reserved bit no
 *     negotiated extension claims (§5.2); a reserved opcode (§5.2); a control frame that is fragmented, longer than
 *     125 bytes (§5.5) or carries an RSV bit; a continuation with no message open or a new text/binary frame while
 *     one is (§5.4); a length not in its shortest form or a 64-bit length with the top bit set (§5.2); a close
 *     frame with a 1-byte payload or a status code not valid on the wire (§5.5.1, §7.4).</li>
 * <li>1007: a text message that is not UTF-8, detected at the first bad byte even in the middle of a fragment
 *     still arriving (§8.1); a close reason that is not UTF-8. Compressed text messages are checked after
 *     inflation by the permessage-deflate decoder.</li>
 * <li>1009: a frame payload above {@link WebSocketConfig#maxFramePayloadBytes()}, a message above
 *     {@link WebSocketConfig#maxMessageBytes()} (a compressed one may exceed both by what deflate adds to data
 *     that does not compress, 1/64 + 1 KiB: its inflated size is what the limit holds) or made of more than
 *     {@link WebSocketConfig#maxFragmentsPerMessage()} frames, detected from the header before the payload is
 *     buffered.</li>
 * </ul>
 *
 * <h2>Backpressure</h2>
 * While the channel is not writable (the peer does not read what is sent to it, an echo's answers above all) no
 * further frame is decoded and auto-read is off, as {@code HttpServerCodec} does for requests: the bytes stay in
 * the socket (on HTTP/2, in the peer's closed window) and nothing queues without bound. Decoding and reading resume
 * when the channel is writable again. A frame whose header was read is still completed.
 *
 * <h2>Buffers</h2>
 * A frame is emitted once its whole payload has arrived. Masked payloads are unmasked in place as their bytes
 * arrive and the frame's payload is a retained slice of the input, not a copy. Whoever receives a frame releases
 * it. Called only on the channel's event loop; one instance per channel.
 */
public final class WebSocketFrameDecoder extends ByteToMessageDecoder {
    private static final byte HEADER = 0;
    private static final byte PAYLOAD = 1;
    private static final byte FAILED = 2;
    private static final int NO_MESSAGE = -1;
    /** Compressed sizes may exceed the limits by 1/64 ({@link #withDeflateAllowance}) ... */
    private static final int DEFLATE_EXPANSION_DIVISOR = 64;
    /** ... plus this many octets, for small messages whose expansion is mostly block headers. */
    private static final int DEFLATE_EXPANSION_SLACK_BYTES = 1024;

    private final boolean expectMaskedFrames;
    private final int maxFramePayloadBytes;
    private final int maxMessageBytes;
    private final int maxFragmentsPerMessage;
    private final Utf8Validator utf8 = new Utf8Validator();
    private int allowedRsv;

    private byte state = HEADER;
    // The frame being read.
    private boolean fin;
    private int rsv;
    private int opcode;
    private boolean masked;
    private int maskKey;
    private int payloadLength;
    /** Payload bytes already unmasked and validated in place. */
    private int processed;
    private boolean validateText;
    // The data message in progress.
    private int messageOpcode = NO_MESSAGE;
    private boolean messageCompressed;
    private long messageBytes;
    private int messageFragments;
    /** A violation found while decoding, acted on once the frames before it are passed on. */
    private WebSocketProtocolException pendingFailure;
    /** No frame is decoded while the channel is unwritable. */
    private final WritabilityInputPause pause = new WritabilityInputPause();
    private final Runnable resumeTask = this::resume;
    private ChannelHandlerContext ctx;

    /**
     * A decoder for a server ({@code expectMaskedFrames}: every frame from a client must be masked) or a client
     * (frames from a server must not be), with the limits of {@code config}.
     */
    public WebSocketFrameDecoder(boolean expectMaskedFrames, WebSocketConfig config) {
        this.expectMaskedFrames = expectMaskedFrames;
        this.maxFramePayloadBytes = config.maxFramePayloadBytes();
        this.maxMessageBytes = config.maxMessageBytes();
        this.maxFragmentsPerMessage = config.maxFragmentsPerMessage();
    }

    /**
     * Lets frames carry the reserved bits {@code rsvBits} (as in {@link WebSocketFrame#rsv()}): called when an
     * extension that defines them is negotiated. With {@link WebSocketFrame#RSV1} allowed (permessage-deflate), a
     * data message whose first frame has RSV1 is compressed and its text is validated after inflation instead.
     */
    public void allowReservedBits(int rsvBits) {
        allowedRsv |= rsvBits & 0x7;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        for (;;) {
            if (state == HEADER) {
                if (pause.isPaused() || in.isReadable() && !ctx.channel().isWritable() && pause(ctx)) {
                    return;
                }
                if (!readHeader(ctx, in)) {
                    return;
                }
            } else if (state == PAYLOAD) {
                WebSocketFrame frame = readPayload(ctx, in);
                if (frame == null) {
                    return;
                }
                out.add(frame);
            } else {
                in.skipBytes(in.readableBytes());
                return;
            }
        }
    }

    /**
     * The wire size allowed for a compressed message or frame whose inflated size {@code limit} bounds: a little
     * more, since deflate expands what does not compress (5 octets per stored block of RFC 1951 §3.2.4, more when a
     * compressor picks Huffman blocks for random data: 0.25% for 1 MiB from common clients). A message within the
     * limit is not refused for its compressed form; its inflated size is still held to the limit by
     * {@link PerMessageDeflateDecoder}.
     */
    static long withDeflateAllowance(long limit) {
        return limit + limit / DEFLATE_EXPANSION_DIVISOR + DEFLATE_EXPANSION_SLACK_BYTES;
    }

    /** Reads and checks a frame header; false if more bytes are needed or the connection was failed. */
    private boolean readHeader(ChannelHandlerContext ctx, ByteBuf in) {
        int readable = in.readableBytes();
        if (readable < 2) {
            return false;
        }
        int r = in.readerIndex();
        int b0 = in.getUnsignedByte(r);
        int b1 = in.getUnsignedByte(r + 1);
        int len7 = b1 & 0x7F;
        boolean mask = (b1 & 0x80) != 0;
        int headerLen = 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + (mask ? 4 : 0);
        if (readable < headerLen) {
            return false;
        }
        fin = (b0 & 0x80) != 0;
        rsv = b0 >> 4 & 0x7;
        opcode = b0 & 0xF;
        masked = mask;
        // RFC 6455 §5.1: a server rejects unmasked frames, a client masked ones.
        if (mask != expectMaskedFrames) {
            return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR,
                    mask ? "frame from the server is masked" : "frame from the client is not masked");
        }
        // §5.2: a reserved bit is an error unless a negotiated extension defines it.
        if ((rsv & ~allowedRsv) != 0) {
            return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "reserved bits set: " + rsv);
        }
        long length;
        if (len7 == 126) {
            length = in.getUnsignedShort(r + 2);
            if (length < 126) {
                // §5.2: the minimal number of bytes must be used to encode the length.
                return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "length " + length + " not minimal");
            }
        } else if (len7 == 127) {
            length = in.getLong(r + 2);
            if (length < 0) {
                // §5.2: the most significant bit of a 64-bit length must be 0.
                return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "64-bit length with the top bit set");
            }
            if (length <= 0xFFFF) {
                return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "length " + length + " not minimal");
            }
        } else {
            length = len7;
        }
        if (opcode >= WebSocketOpcodes.CLOSE) {
            if (opcode > WebSocketOpcodes.PONG) {
                return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "reserved control opcode " + opcode);
            }
            // §5.5: control frames are never fragmented and carry at most 125 bytes.
            if (!fin) {
                return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "fragmented control frame");
            }
            if (length > WebSocketFrameEncoder.MAX_CONTROL_PAYLOAD_BYTES) {
                return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR,
                        "control frame payload " + length + " over 125 bytes");
            }
            if (rsv != 0) {
                // RFC 7692 §6: permessage-deflate's RSV1 applies to data messages only.
                return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "reserved bits on a control frame");
            }
            validateText = false;
        } else {
            if (opcode == WebSocketOpcodes.CONTINUATION) {
                // §5.4: a continuation continues an open message.
                if (messageOpcode == NO_MESSAGE) {
                    return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "continuation frame with no message");
                }
                if (rsv != 0) {
                    // RFC 7692 §6.1: RSV1 is set on the first frame of a message only.
                    return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "reserved bits on a continuation");
                }
            } else if (opcode == WebSocketOpcodes.TEXT || opcode == WebSocketOpcodes.BINARY) {
                if (messageOpcode != NO_MESSAGE) {
                    return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR,
                            "new data frame while a fragmented message is open");
                }
            } else {
                return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "reserved data opcode " + opcode);
            }
        }
        boolean compressed = opcode < WebSocketOpcodes.CLOSE && ((rsv & WebSocketFrame.RSV1) != 0
                || opcode == WebSocketOpcodes.CONTINUATION && messageCompressed);
        long frameLimit = compressed ? withDeflateAllowance(maxFramePayloadBytes) : maxFramePayloadBytes;
        if (length > frameLimit) {
            return fail(ctx, in, new WebSocketTooBigException("frame payload", length, frameLimit));
        }
        if (opcode < WebSocketOpcodes.CLOSE) {
            if (opcode != WebSocketOpcodes.CONTINUATION) {
                messageOpcode = opcode;
                messageCompressed = (rsv & WebSocketFrame.RSV1) != 0;
                messageBytes = 0;
                messageFragments = 0;
                utf8.reset();
            }
            messageBytes += length;
            long messageLimit = messageCompressed ? withDeflateAllowance(maxMessageBytes) : maxMessageBytes;
            if (messageBytes > messageLimit) {
                return fail(ctx, in, new WebSocketTooBigException("message", messageBytes, messageLimit));
            }
            if (++messageFragments > maxFragmentsPerMessage) {
                return fail(ctx, in,
                        new WebSocketTooBigException("message fragments", messageFragments, maxFragmentsPerMessage));
            }
            validateText = messageOpcode == WebSocketOpcodes.TEXT && !messageCompressed;
        }
        maskKey = mask ? in.getInt(r + headerLen - 4) : 0;
        payloadLength = (int) length;
        processed = 0;
        in.skipBytes(headerLen);
        state = PAYLOAD;
        return true;
    }

    /** Unmasks and validates what has arrived of the payload; the frame once it is all there, else null. */
    private WebSocketFrame readPayload(ChannelHandlerContext ctx, ByteBuf in) {
        int len = payloadLength;
        int r = in.readerIndex();
        int avail = Math.min(in.readableBytes(), len);
        ByteBuf payload;
        if (!in.isReadOnly()) {
            if (avail > processed) {
                int n = avail - processed;
                if (masked) {
                    WebSocketMasking.maskInPlace(in, r + processed, n, maskKey, processed);
                }
                if (validateText && !utf8.update(in, r + processed, n)) {
                    failQuietly(ctx, in, WebSocketCloseStatus.INVALID_PAYLOAD_DATA, "text message is not UTF-8");
                    return null;
                }
                processed = avail;
            }
            if (avail < len) {
                return null;
            }
            payload = in.readRetainedSlice(len);
        } else {
            // A read-only input cannot be unmasked in place: copy the payload once it is complete.
            if (avail < len) {
                return null;
            }
            payload = ctx.alloc().buffer(len);
            in.readBytes(payload, len);
            int n = len - processed;
            if (masked) {
                WebSocketMasking.maskInPlace(payload, processed, n, maskKey, processed);
            }
            if (validateText && !utf8.update(payload, processed, n)) {
                payload.release();
                failQuietly(ctx, in, WebSocketCloseStatus.INVALID_PAYLOAD_DATA, "text message is not UTF-8");
                return null;
            }
        }
        state = HEADER;
        int op = opcode;
        if (op >= WebSocketOpcodes.CLOSE) {
            return controlFrame(ctx, in, op, payload);
        }
        boolean last = fin;
        if (last) {
            if (validateText && !utf8.isComplete()) {
                payload.release();
                failQuietly(ctx, in, WebSocketCloseStatus.INVALID_PAYLOAD_DATA,
                        "text message ends inside a character");
                return null;
            }
            messageOpcode = NO_MESSAGE;
        }
        return switch (op) {
            case WebSocketOpcodes.TEXT -> new TextWebSocketFrame(last, rsv, payload);
            case WebSocketOpcodes.BINARY -> new BinaryWebSocketFrame(last, rsv, payload);
            default -> new ContinuationWebSocketFrame(last, rsv, payload);
        };
    }

    private WebSocketFrame controlFrame(ChannelHandlerContext ctx, ByteBuf in, int op, ByteBuf payload) {
        if (op == WebSocketOpcodes.PING) {
            return new PingWebSocketFrame(payload);
        }
        if (op == WebSocketOpcodes.PONG) {
            return new PongWebSocketFrame(payload);
        }
        int n = payload.readableBytes();
        // RFC 6455 §5.5.1: empty, or a 2-byte status code and an optional UTF-8 reason.
        if (n == 1) {
            payload.release();
            failQuietly(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "close frame with a 1-byte payload");
            return null;
        }
        if (n >= 2) {
            int code = payload.getUnsignedShort(payload.readerIndex());
            if (!WebSocketCloseStatus.isValidOnWire(code)) {
                payload.release();
                failQuietly(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "close status " + code + " invalid");
                return null;
            }
            if (n > 2 && !Utf8Validator.isValid(payload, payload.readerIndex() + 2, n - 2)) {
                payload.release();
                failQuietly(ctx, in, WebSocketCloseStatus.INVALID_PAYLOAD_DATA, "close reason is not UTF-8");
                return null;
            }
        }
        return new CloseWebSocketFrame(payload);
    }

    private void failQuietly(ChannelHandlerContext ctx, ByteBuf in, int status, String reason) {
        fail(ctx, in, new WebSocketProtocolException(status, reason));
    }

    private boolean fail(ChannelHandlerContext ctx, ByteBuf in, int status, String reason) {
        return fail(ctx, in, new WebSocketProtocolException(status, reason));
    }

    /**
     * §7.1.7 Fail the WebSocket Connection: ignore all later input and, once the frames decoded before the
     * violation have been passed on, send a close with the status and close.
     */
    private boolean fail(ChannelHandlerContext ctx, ByteBuf in, WebSocketProtocolException cause) {
        state = FAILED;
        messageOpcode = NO_MESSAGE;
        in.skipBytes(in.readableBytes());
        pendingFailure = cause;
        return false;
    }

    private boolean pause(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        pause.pause(ctx);
        return true;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (pause.isPaused()) {
            // Not the base class's: it would ask for another read while a partial frame waits, and the bytes
            // would pile up undecoded while the peer does not read.
            ctx.fireChannelReadComplete();
            return;
        }
        super.channelReadComplete(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        pause.scheduleResume(ctx, resumeTask);
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (!pause.holdRead()) {
            ctx.read();
        }
    }

    /** On the event loop once the channel is writable again: decodes the frames kept, then reads on. */
    private void resume() {
        ChannelHandlerContext ctx = this.ctx;
        if (ctx.isRemoved() || !pause.beginResume(ctx)) {
            return;
        }
        try {
            channelRead(ctx, Unpooled.EMPTY_BUFFER);
            channelReadComplete(ctx);
        } catch (Throwable t) {
            ctx.fireExceptionCaught(t);
            return;
        }
        pause.endResume(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        super.channelRead(ctx, msg);
        WebSocketProtocolException cause = pendingFailure;
        if (cause != null) {
            pendingFailure = null;
            failConnection(ctx, cause);
        }
    }

    /**
     * A buffer could not be allocated while decoding (direct memory or the pool ran out): the frames read so far
     * cannot be trusted to be whole, so this connection ends with close code 1011 (RFC 6455 §7.4.1), and no
     * further byte is decoded. Other connections are not touched. Anything else is passed on.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (!(cause instanceof OutOfMemoryError) || state == FAILED) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        state = FAILED;
        if (!ctx.channel().isActive()) {
            ctx.close();
            return;
        }
        try {
            ctx.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.INTERNAL_SERVER_ERROR,
                    "out of memory")).addListener(ChannelFutureListener.CLOSE);
        } catch (OutOfMemoryError again) {
            ctx.close();
        }
    }

    private void failConnection(ChannelHandlerContext ctx, WebSocketProtocolException cause) {
        if (!ctx.channel().isOpen()) {
            // Already failed or closed by a handler after us (the inflater): nobody is left to tell.
            return;
        }
        // Told first: closing may remove the handlers that would hear it.
        ctx.fireExceptionCaught(cause);
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(new CloseWebSocketFrame(cause.closeStatus(), cause.closeReason()))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }

    /** Whether the decoder has failed the connection and now discards its input. */
    public boolean isFailed() {
        return state == FAILED;
    }
}
