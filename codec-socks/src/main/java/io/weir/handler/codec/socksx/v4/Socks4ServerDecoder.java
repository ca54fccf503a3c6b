package io.weir.handler.codec.socksx.v4;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.socksx.SocksHandshakeDecoder;
import io.weir.handler.codec.socksx.SocksProtocolException;
import io.weir.handler.codec.socksx.SocksProtocolException.Reason;
import io.weir.handler.codec.socksx.SocksVersion;
import io.weir.handler.codec.socksx.internal.InetLiterals;
import io.weir.handler.codec.socksx.internal.SocksText;
import java.util.List;

/**
 * Reads the one request a SOCKS4 or 4a client sends (server side): passes it on as a {@link Socks4CommandRequest},
 * then removes itself, handing every later byte (the client may send data right behind its request) on untouched.
 *
 * <p><b>What it refuses</b>, with a {@link SocksProtocolException}, as soon as the offending byte is in: a version
 * other than 4 ({@link Reason#UNSUPPORTED_VERSION}), a command other than CONNECT and BIND
 * ({@link Reason#UNSUPPORTED_COMMAND}), a user id or 4a host name without its NUL within the cap
 * ({@link Reason#FIELD_TOO_LONG}; {@value #DEFAULT_MAX_FIELD_BYTES} bytes each by default, so a request is never
 * more than about half a kilobyte), an empty host name, a host name with a control character, or a field that is
 * not UTF-8 ({@link Reason#MALFORMED}). After a refusal it discards every byte; the server handler decides whether
 * to answer {@link Socks4CommandStatus#REJECTED} before it closes the connection.
 *
 * <p><b>Threads and ownership.</b> Event loop only; one instance per connection. It owns the request's bytes and
 * releases them; the bytes it hands on belong to the next handler.
 */
public final class Socks4ServerDecoder extends SocksHandshakeDecoder {
    /** The default cap on the user id and on the 4a host name, in bytes without the NUL. */
    public static final int DEFAULT_MAX_FIELD_BYTES = 255;

    /** VN, CD, DSTPORT, DSTIP. */
    private static final int FIXED_BYTES = 8;

    private final int maxFieldBytes;

    /** A decoder whose user id and host name may each be {@value #DEFAULT_MAX_FIELD_BYTES} bytes. */
    public Socks4ServerDecoder() {
        this(DEFAULT_MAX_FIELD_BYTES);
    }

    /**
     * A decoder whose user id and 4a host name may each be {@code maxFieldBytes} bytes, NUL not counted.
     *
     * @throws IllegalArgumentException if {@code maxFieldBytes} is below 1 or above 65535
     */
    public Socks4ServerDecoder(int maxFieldBytes) {
        if (maxFieldBytes < 1 || maxFieldBytes > 0xFFFF) {
            throw new IllegalArgumentException("maxFieldBytes: " + maxFieldBytes + " (expected 1 to 65535)");
        }
        this.maxFieldBytes = maxFieldBytes;
    }

    @Override
    protected void decodeHandshake(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int r = in.readerIndex();
        int readable = in.readableBytes();
        int version = in.getUnsignedByte(r);
        if (version != SocksVersion.SOCKS4A.versionByte()) {
            throw refuse(Reason.UNSUPPORTED_VERSION, version, "version byte " + version + " (expected 4)");
        }
        if (readable < 2) {
            return;
        }
        int cd = in.getUnsignedByte(r + 1);
        Socks4CommandType type = Socks4CommandType.valueOf(cd);
        if (type == null) {
            throw refuse(Reason.UNSUPPORTED_COMMAND, cd, "command " + cd + " (expected 1 CONNECT or 2 BIND)");
        }
        if (readable < FIXED_BYTES) {
            return;
        }
        int userEnd = findNul(in, r + FIXED_BYTES, "user id");
        if (userEnd < 0) {
            return;
        }
        boolean socks4a = in.getByte(r + 4) == 0 && in.getByte(r + 5) == 0 && in.getByte(r + 6) == 0
                && in.getByte(r + 7) != 0;
        int end = userEnd;
        String host;
        if (socks4a) {
            int hostStart = userEnd + 1;
            int hostEnd = findNul(in, hostStart, "host name");
            if (hostEnd < 0) {
                return;
            }
            host = text(in, hostStart, hostEnd - hostStart, "host name");
            if (host.isEmpty()) {
                throw refuse(Reason.MALFORMED, 0, "empty SOCKS4a host name");
            }
            int control = SocksText.indexOfControl(host);
            if (control >= 0) {
                throw refuse(Reason.MALFORMED, host.charAt(control), "control character 0x"
                        + Integer.toHexString(host.charAt(control)) + " in the SOCKS4a host name");
            }
            end = hostEnd;
        } else {
            byte[] ip = new byte[InetLiterals.IPV4_BYTES];
            in.getBytes(r + 4, ip);
            host = InetLiterals.formatIpv4(ip, 0);
        }
        String userId = text(in, r + FIXED_BYTES, userEnd - r - FIXED_BYTES, "user id");
        int port = in.getUnsignedShort(r + 2);
        in.readerIndex(end + 1);
        out.add(new Socks4CommandRequest(type, host, port, userId));
        // What is left is handed on when this call returns, after the request.
        ctx.pipeline().remove(this);
    }

    /** The index of the NUL ending the field at {@code start}, -1 while it may still come; refuses past the cap. */
    private int findNul(ByteBuf in, int start, String field) {
        int available = in.writerIndex() - start;
        int scan = Math.min(available, maxFieldBytes + 1);
        for (int i = 0; i < scan; i++) {
            if (in.getByte(start + i) == 0) {
                return start + i;
            }
        }
        if (available > maxFieldBytes) {
            throw refuse(Reason.FIELD_TOO_LONG, available, "no NUL within " + (maxFieldBytes + 1)
                    + " bytes of the " + field + " (at most " + maxFieldBytes + " bytes allowed)");
        }
        return -1;
    }

    private static String text(ByteBuf in, int index, int length, String field) {
        String s = SocksText.decode(in, index, length);
        if (s == null) {
            throw refuse(Reason.MALFORMED, length, "the " + field + " is not UTF-8");
        }
        return s;
    }

    private static SocksProtocolException refuse(Reason reason, int seen, String message) {
        return new SocksProtocolException(reason, seen, "SOCKS4 request refused: " + message);
    }
}
