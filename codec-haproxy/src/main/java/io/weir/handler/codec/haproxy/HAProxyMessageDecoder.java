package io.weir.handler.codec.haproxy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.channel.AttributeKey;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.ByteToMessageDecoder;
import io.weir.handler.codec.haproxy.HAProxyProtocolException.Reason;
import io.weir.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads the PROXY protocol header (version 1 or 2) a proxy sends before a connection's first byte. Server side;
 * put it first in the pipeline of connections from trusted proxies.
 *
 * <h2>What it does</h2>
 * The first bytes decide the version: {@code "PROXY "} is version 1, the 12-byte signature
 * {@code \r\n\r\n\0\r\nQUIT\n} version 2. The decoder reads exactly one header, then, in this order:
 * <ol>
 *   <li>stores the {@link HAProxyMessage} in the channel attribute {@link #MESSAGE}, and, for a PROXY command
 *       with an IP protocol, the client's address and port in {@link #SOURCE_ADDRESS};</li>
 *   <li>passes the message on as a {@code channelRead} (it holds no buffer: a handler that does not want it may
 *       ignore it, and one that lets it reach the end of the pipeline leaks nothing);</li>
 *   <li>removes itself from the pipeline, handing every byte after the header on untouched, including bytes that
 *       arrived in the same read as the header.</li>
 * </ol>
 * A handler gets the client's address as the server sees it with {@link #clientAddress(Channel)}: the address
 * from the header when there was one, else the connection's remote address (a LOCAL command, an UNKNOWN or UNIX
 * protocol, or no header where {@linkplain HAProxyDecoderConfig#setHeaderOptional optional}).
 *
 * <h2>What it refuses</h2>
 * Anything but a valid header is refused with an {@link HAProxyProtocolException} naming the rule and what was
 * seen; the connection is closed and the exception is passed on to {@code exceptionCaught}. In particular:
 * <ul>
 *   <li>first bytes that begin neither header, at the first byte that differs (no buffering of a stranger's
 *       data);</li>
 *   <li>a version 1 line without its CRLF within {@value #V1_MAX_LINE_BYTES} bytes, with a byte that is not
 *       printable US-ASCII, a lone CR or LF, or any field off the grammar: exactly one space between fields,
 *       addresses of the announced family, ports of 0 to 65535 without leading zeroes;</li>
 *   <li>a version 2 header with a version other than 2, a command other than LOCAL or PROXY, a family and
 *       protocol byte the specification does not list, a length above the
 *       {@linkplain HAProxyDecoderConfig#setMaxV2HeaderBytes cap} (refused as soon as the length field is read),
 *       a PROXY address block shorter than its family needs, TLVs that do not exactly fill the rest of the
 *       header, a registered TLV type twice, or a CRC32C TLV that does not match the header;</li>
 *   <li>a header that is not complete within the {@linkplain HAProxyDecoderConfig#setHeaderTimeoutMillis
 *       header timeout} (10 s by default), however slowly its bytes trickle in.</li>
 * </ul>
 * A LOCAL header is accepted, as the specification requires; its addresses, if any, are not the client's, so no
 * {@link #SOURCE_ADDRESS} is set. An exception raised by any handler or the transport before the header is
 * complete also closes the connection. If the input ends before the header is complete, the partial header is
 * dropped.
 *
 * <p><b>Threads and ownership.</b> Called on the channel's event loop only; one instance per connection (not
 * sharable). The decoder owns the bytes of the header and releases them; the bytes it hands on belong to the
 * next handler.
 */
public final class HAProxyMessageDecoder extends ByteToMessageDecoder {
    /**
     * The client's address and port from the header: set for a PROXY command with a TCP or UDP protocol over IPv4
     * or IPv6, before the message and the following bytes are passed on; never set otherwise. See
     * {@link #clientAddress(Channel)}.
     */
    public static final AttributeKey<InetSocketAddress> SOURCE_ADDRESS =
            AttributeKey.valueOf("io.weir.handler.codec.haproxy.sourceAddress");
    /** The decoded header, set before it and the following bytes are passed on. */
    public static final AttributeKey<HAProxyMessage> MESSAGE =
            AttributeKey.valueOf("io.weir.handler.codec.haproxy.message");

    /** The longest version 1 line, CRLF included (the specification's section 2.1, IPv6 addresses after UNKNOWN). */
    public static final int V1_MAX_LINE_BYTES = 107;
    /** The fixed part of a version 2 header: signature, version and command, protocol, length. */
    public static final int V2_FIXED_HEADER_BYTES = 16;
    /** The largest value of a version 2 length field. */
    public static final int MAX_V2_LENGTH_FIELD_BYTES = 0xFFFF;
    /** The longest version 2 header the protocol can express, in bytes. */
    public static final int MAX_V2_HEADER_BYTES = V2_FIXED_HEADER_BYTES + MAX_V2_LENGTH_FIELD_BYTES;

    /** "PROXY" and its mandatory space: the start of every version 1 line. */
    static final byte[] V1_PREFIX = "PROXY ".getBytes(StandardCharsets.US_ASCII);
    /** The version 2 signature, §2.2; its fifth byte is NUL. */
    static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private static final int NO_MATCH = -1;
    private static final int PARTIAL_MATCH = 0;
    private static final int FULL_MATCH = 1;
    /** How many first bytes an error message shows. */
    private static final int SHOWN_BYTES = 16;

    private static final byte DETECTING = 0;
    private static final byte READING_V1 = 1;
    private static final byte READING_V2 = 2;
    private static final byte DONE = 3;
    private static final byte FAILED = 4;

    private final int maxV2HeaderBytes;
    private final long headerTimeoutMillis;
    private final boolean headerOptional;
    private final Runnable headerTimedOut = this::headerTimedOut;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> timeout;
    private byte state = DETECTING;

    /** A decoder with every default of {@link HAProxyDecoderConfig}. */
    public HAProxyMessageDecoder() {
        this(new HAProxyDecoderConfig());
    }

    /**
     * A decoder with {@code config}'s settings, copied now.
     *
     * @throws NullPointerException if {@code config} is null
     */
    public HAProxyMessageDecoder(HAProxyDecoderConfig config) {
        this.maxV2HeaderBytes = config.getMaxV2HeaderBytes();
        this.headerTimeoutMillis = config.getHeaderTimeoutMillis();
        this.headerOptional = config.isHeaderOptional();
    }

    /**
     * The client's address as the server sees it: the source address of the PROXY header the decoder read on
     * {@code channel} ({@link #SOURCE_ADDRESS}), or else the channel's own remote address. Call it from any handler
     * after the decoder, from the first message or byte it receives on; before the header is complete it gives
     * the proxy's address.
     *
     * @throws NullPointerException if {@code channel} is null
     */
    public static SocketAddress clientAddress(Channel channel) {
        if (channel.hasAttr(SOURCE_ADDRESS)) {
            InetSocketAddress proxied = channel.attr(SOURCE_ADDRESS).get();
            if (proxied != null) {
                return proxied;
            }
        }
        return channel.remoteAddress();
    }

    // ---------------------------------------------------------------- life cycle

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (ctx.channel().isActive()) {
            armTimeout();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        armTimeout();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelTimeout();
        super.channelInactive(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        cancelTimeout();
    }

    /** Before the header is complete, any exception closes the connection; it is passed on either way. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (state != DONE) {
            state = FAILED;
            cancelTimeout();
            ctx.close();
        }
        ctx.fireExceptionCaught(cause);
    }

    private void armTimeout() {
        if (headerTimeoutMillis > 0 && timeout == null && state < DONE) {
            timeout = ctx.executor().schedule(headerTimedOut, headerTimeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    private void cancelTimeout() {
        ScheduledFuture<?> t = timeout;
        timeout = null;
        if (t != null) {
            t.cancel(false);
        }
    }

    private void headerTimedOut() {
        timeout = null;
        if (state >= DONE) {
            return;
        }
        state = FAILED;
        ctx.fireExceptionCaught(new HAProxyProtocolException(Reason.TIMEOUT, "no complete PROXY header within "
                + headerTimeoutMillis + " ms; " + actualReadableBytes() + " byte(s) of it received"));
        ctx.close();
    }

    // ---------------------------------------------------------------- decoding

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (state == FAILED) {
            // Closing: what still arrives is dropped.
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            if (state == DETECTING) {
                detect(ctx, in);
            }
            if (state == READING_V1) {
                readV1(ctx, in, out);
            } else if (state == READING_V2) {
                readV2(ctx, in, out);
            }
        } catch (HAProxyProtocolException e) {
            // Refused: drop the input; exceptionCaught closes the connection.
            state = FAILED;
            in.skipBytes(in.readableBytes());
            throw e;
        }
    }

    /** Picks the version from the first bytes, or refuses them at the first byte that begins neither header. */
    private void detect(ChannelHandlerContext ctx, ByteBuf in) {
        int v1 = match(in, V1_PREFIX);
        if (v1 == FULL_MATCH) {
            state = READING_V1;
            return;
        }
        int v2 = match(in, V2_SIGNATURE);
        if (v2 == FULL_MATCH) {
            state = READING_V2;
            return;
        }
        if (v1 == NO_MATCH && v2 == NO_MATCH) {
            if (headerOptional) {
                // Not a header at all: the connection goes on without one, its bytes untouched.
                state = DONE;
                cancelTimeout();
                ctx.pipeline().remove(this);
                return;
            }
            throw fail(Reason.NOT_A_PROXY_HEADER, "the first bytes " + shown(in)
                    + " begin neither a version 1 line (\"PROXY \") nor the version 2 signature");
        }
    }

    /** Whether the readable bytes begin {@code prefix} ({@link #PARTIAL_MATCH} while too few are in). */
    private static int match(ByteBuf in, byte[] prefix) {
        int r = in.readerIndex();
        int n = Math.min(in.readableBytes(), prefix.length);
        for (int i = 0; i < n; i++) {
            if (in.getByte(r + i) != prefix[i]) {
                return NO_MATCH;
            }
        }
        return n == prefix.length ? FULL_MATCH : PARTIAL_MATCH;
    }

    private void readV1(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int r = in.readerIndex();
        int readable = in.readableBytes();
        int n = Math.min(readable, V1_MAX_LINE_BYTES);
        for (int i = V1_PREFIX.length; i < n; i++) {
            byte b = in.getByte(r + i);
            if (b == '\n') {
                // §2.1: a lone LF does not end the line.
                if (in.getByte(r + i - 1) != '\r') {
                    throw fail(Reason.MALFORMED_V1_LINE, "a line feed without a carriage return at byte " + i);
                }
                int fieldsLength = i - 1 - V1_PREFIX.length;
                HAProxyMessage message = HAProxyHeaderParser.parseV1(
                        in.toString(r + V1_PREFIX.length, fieldsLength, StandardCharsets.US_ASCII));
                in.skipBytes(i + 1);
                complete(ctx, message, out);
                return;
            }
            if (b == '\r') {
                if (i + 1 < readable && in.getByte(r + i + 1) != '\n') {
                    throw fail(Reason.MALFORMED_V1_LINE, "a carriage return without a line feed at byte " + i);
                }
            } else if (b < 0x20 || b > 0x7E) {
                throw fail(Reason.MALFORMED_V1_LINE, "byte 0x" + Integer.toHexString(b & 0xFF) + " at " + i
                        + " is not printable US-ASCII");
            }
        }
        if (readable >= V1_MAX_LINE_BYTES) {
            throw fail(Reason.HEADER_TOO_LONG, "no CRLF within the first " + V1_MAX_LINE_BYTES
                    + " bytes of a version 1 line (the longest valid line, CRLF included)");
        }
    }

    private void readV2(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int r = in.readerIndex();
        int readable = in.readableBytes();
        // Each fixed field is judged as soon as it is in, so a bad header never waits for more bytes.
        if (readable <= HAProxyHeaderParser.V2_VERSION_COMMAND_INDEX) {
            return;
        }
        int versionCommand = in.getUnsignedByte(r + HAProxyHeaderParser.V2_VERSION_COMMAND_INDEX);
        if (versionCommand >>> 4 != HAProxyHeaderParser.V2_VERSION) {
            throw fail(Reason.UNSUPPORTED_VERSION, "version " + (versionCommand >>> 4) + " after the signature "
                    + "(expected " + HAProxyHeaderParser.V2_VERSION + ")");
        }
        int command = versionCommand & 0x0F;
        if (command != HAProxyCommand.LOCAL.code() && command != HAProxyCommand.PROXY.code()) {
            throw fail(Reason.UNSUPPORTED_COMMAND, "command 0x" + Integer.toHexString(command)
                    + " (expected 0x0 LOCAL or 0x1 PROXY)");
        }
        if (readable <= HAProxyHeaderParser.V2_PROTOCOL_INDEX) {
            return;
        }
        int protocol = in.getUnsignedByte(r + HAProxyHeaderParser.V2_PROTOCOL_INDEX);
        if (HAProxyProxiedProtocol.ofByte(protocol) == null) {
            throw fail(Reason.UNSUPPORTED_PROTOCOL, "family and protocol byte 0x"
                    + Integer.toHexString(protocol) + " (expected 0x00, 0x11, 0x12, 0x21, 0x22, 0x31 or 0x32)");
        }
        if (readable < V2_FIXED_HEADER_BYTES) {
            return;
        }
        int length = in.getUnsignedShort(r + HAProxyHeaderParser.V2_LENGTH_INDEX);
        int total = V2_FIXED_HEADER_BYTES + length;
        if (total > maxV2HeaderBytes) {
            throw fail(Reason.HEADER_TOO_LONG, "version 2 header of " + total + " bytes (length field "
                    + length + ") exceeds the limit of " + maxV2HeaderBytes + " bytes");
        }
        if (readable < total) {
            return;
        }
        byte[] header = new byte[total];
        in.getBytes(r, header, 0, total);
        HAProxyMessage message = HAProxyHeaderParser.parseV2(header);
        in.skipBytes(total);
        complete(ctx, message, out);
    }

    private void complete(ChannelHandlerContext ctx, HAProxyMessage message, List<Object> out) {
        state = DONE;
        cancelTimeout();
        Channel channel = ctx.channel();
        channel.attr(MESSAGE).set(message);
        if (message.command() == HAProxyCommand.PROXY && message.proxiedProtocol().isInet()) {
            channel.attr(SOURCE_ADDRESS).set(message.sourceSocketAddress());
        }
        out.add(message);
        // The rest of the cumulation is handed on when this call returns, after the message.
        ctx.pipeline().remove(this);
    }

    private static HAProxyProtocolException fail(Reason reason, String message) {
        return new HAProxyProtocolException(reason, message);
    }

    private static String shown(ByteBuf in) {
        int n = Math.min(in.readableBytes(), SHOWN_BYTES);
        return "0x" + ByteBufUtil.hexDump(in, in.readerIndex(), n) + (in.readableBytes() > n ? "..." : "");
    }
}
