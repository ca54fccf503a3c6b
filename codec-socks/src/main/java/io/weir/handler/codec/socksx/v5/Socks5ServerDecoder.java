package io.weir.handler.codec.socksx.v5;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.socksx.SocksHandshakeDecoder;
import io.weir.handler.codec.socksx.SocksProtocolException;
import io.weir.handler.codec.socksx.SocksProtocolException.Reason;
import io.weir.handler.codec.socksx.SocksVersion;
import io.weir.handler.codec.socksx.internal.SocksText;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what a SOCKS5 client sends during the handshake (server side) and passes each message on: a
 * {@link Socks5InitialRequest}, then a {@link Socks5PasswordAuthRequest} if the server chose
 * {@link Socks5AuthMethod#PASSWORD}, then a {@link Socks5CommandRequest}, after which it removes itself and hands
 * every later byte on untouched.
 *
 * <pre>{@code
 * ch.pipeline().addLast(new Socks5ServerEncoder(), new Socks5ServerDecoder(), new MySocksServerHandler());
 * }</pre>
 *
 * <h2>It follows the server's answers</h2>
 * The decoder watches the server's answers go out through it (so the {@link Socks5ServerEncoder} must sit before
 * it, nearer the head of the pipeline, as above) and expects what the client may send next:
 * <ul>
 *   <li>a {@link Socks5InitialResponse} choosing {@link Socks5AuthMethod#NO_AUTH}: the command;
 *       {@link Socks5AuthMethod#PASSWORD}: the username and password, and the command only after a successful
 *       {@link Socks5PasswordAuthResponse} (a failed one ends the handshake: what follows is discarded);
 *       {@link Socks5AuthMethod#NO_ACCEPTABLE_METHODS}: nothing (discarded); any other method: the decoder
 *       removes itself and the method's own subnegotiation is the application's;</li>
 *   <li>bytes that arrive before the server answered are refused ({@link Reason#UNEXPECTED_MESSAGE}): the client
 *       must wait for each answer, and a client that skips the authentication the server chose is thereby
 *       refused before anything of its command is passed on.</li>
 * </ul>
 *
 * <h2>What it refuses</h2>
 * With a {@link SocksProtocolException}, as soon as the offending byte is in: a version other than 5 (1 for the
 * username and password), no method offered, a command other than CONNECT, BIND and UDP ASSOCIATE
 * ({@link Reason#UNSUPPORTED_COMMAND}), a reserved byte that is not 0, an address type other than 1, 3 and 4
 * ({@link Reason#UNSUPPORTED_ADDRESS_TYPE}), an empty domain name, a domain name with a control character, text
 * that is not UTF-8. Every message is bounded by its length bytes (at most 513 bytes), so nothing grows. After a
 * refusal the decoder discards every byte; it does not close the connection, so that the server can answer
 * {@link Socks5CommandStatus#COMMAND_UNSUPPORTED} or {@link Socks5CommandStatus#ADDRESS_UNSUPPORTED} first.
 *
 * <p><b>Threads and ownership.</b> Event loop only; one instance per connection. It releases the handshake's
 * bytes; the bytes it hands on belong to the next handler.
 */
public final class Socks5ServerDecoder extends SocksHandshakeDecoder {
    private enum State { EXPECT_INITIAL, AWAIT_METHOD, EXPECT_PASSWORD, AWAIT_VERDICT, EXPECT_COMMAND, REFUSED }

    private State state = State.EXPECT_INITIAL;

    /** A decoder for one handshake. */
    public Socks5ServerDecoder() {
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof Socks5InitialResponse r && state == State.AWAIT_METHOD) {
            Socks5AuthMethod method = r.method();
            if (method.equals(Socks5AuthMethod.NO_AUTH)) {
                state = State.EXPECT_COMMAND;
            } else if (method.equals(Socks5AuthMethod.PASSWORD)) {
                state = State.EXPECT_PASSWORD;
            } else if (method.equals(Socks5AuthMethod.NO_ACCEPTABLE_METHODS)) {
                state = State.REFUSED;
                discardFromNowOn();
            } else {
                ctx.write(msg, promise);
                ctx.pipeline().remove(this);
                return;
            }
        } else if (msg instanceof Socks5PasswordAuthResponse r && state == State.AWAIT_VERDICT) {
            state = r.isSuccess() ? State.EXPECT_COMMAND : State.REFUSED;
            if (state == State.REFUSED) {
                discardFromNowOn();
            }
        }
        ctx.write(msg, promise);
    }

    @Override
    protected void decodeHandshake(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        switch (state) {
            case EXPECT_INITIAL -> readInitial(in, out);
            case EXPECT_PASSWORD -> readPassword(in, out);
            case EXPECT_COMMAND -> readCommand(ctx, in, out);
            default -> throw new SocksProtocolException(Reason.UNEXPECTED_MESSAGE, in.getUnsignedByte(
                    in.readerIndex()), in.readableBytes() + " byte(s) before the server answered the "
                    + (state == State.AWAIT_METHOD ? "initial request" : "username and password")
                    + " (the answer must pass through this decoder: Socks5ServerEncoder goes before it)");
        }
    }

    private void readInitial(ByteBuf in, List<Object> out) {
        int r = in.readerIndex();
        checkVersion(in, SocksVersion.SOCKS5.versionByte());
        if (in.readableBytes() < 2) {
            return;
        }
        int count = in.getUnsignedByte(r + 1);
        if (count == 0) {
            throw new SocksProtocolException(Reason.MALFORMED, 0, "no authentication method offered");
        }
        if (in.readableBytes() < 2 + count) {
            return;
        }
        List<Socks5AuthMethod> methods = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            methods.add(new Socks5AuthMethod(in.getUnsignedByte(r + 2 + i)));
        }
        in.skipBytes(2 + count);
        state = State.AWAIT_METHOD;
        out.add(new Socks5InitialRequest(methods));
    }

    private void readPassword(ByteBuf in, List<Object> out) {
        int r = in.readerIndex();
        checkVersion(in, Socks5PasswordAuthRequest.SUBNEGOTIATION_VERSION);
        if (in.readableBytes() < 2) {
            return;
        }
        int userLength = in.getUnsignedByte(r + 1);
        if (in.readableBytes() < 3 + userLength) {
            return;
        }
        int passwordLength = in.getUnsignedByte(r + 2 + userLength);
        int total = 3 + userLength + passwordLength;
        if (in.readableBytes() < total) {
            return;
        }
        String user = text(in, r + 2, userLength, "username");
        String password = text(in, r + 3 + userLength, passwordLength, "password");
        in.skipBytes(total);
        state = State.AWAIT_VERDICT;
        out.add(new Socks5PasswordAuthRequest(user, password));
    }

    private void readCommand(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int r = in.readerIndex();
        checkVersion(in, SocksVersion.SOCKS5.versionByte());
        if (in.readableBytes() < 2) {
            return;
        }
        int cmd = in.getUnsignedByte(r + 1);
        Socks5CommandType type = Socks5CommandType.valueOf(cmd);
        if (type == null) {
            throw new SocksProtocolException(Reason.UNSUPPORTED_COMMAND, cmd, "command " + cmd
                    + " (expected 1 CONNECT, 2 BIND or 3 UDP ASSOCIATE)");
        }
        if (in.readableBytes() < 3) {
            return;
        }
        checkReserved(in, r + 2);
        int end = Socks5Addresses.end(in, r + 3);
        if (end < 0) {
            return;
        }
        Socks5CommandRequest request = new Socks5CommandRequest(type, Socks5Addresses.type(in, r + 3),
                Socks5Addresses.host(in, r + 3), Socks5Addresses.port(in, end));
        in.readerIndex(end);
        out.add(request);
        // What is left is handed on when this call returns, after the request.
        ctx.pipeline().remove(this);
    }

    /** @throws SocksProtocolException if the first readable byte is not {@code expected} */
    static void checkVersion(ByteBuf in, int expected) {
        int version = in.getUnsignedByte(in.readerIndex());
        if (version != expected) {
            throw new SocksProtocolException(Reason.UNSUPPORTED_VERSION, version, "version byte " + version
                    + " (expected " + expected + ")");
        }
    }

    /** @throws SocksProtocolException if the RSV byte at {@code index} is not 0 (RFC 1928 §4, §6) */
    static void checkReserved(ByteBuf in, int index) {
        int rsv = in.getUnsignedByte(index);
        if (rsv != 0) {
            throw new SocksProtocolException(Reason.MALFORMED, rsv, "reserved byte " + rsv + " (expected 0)");
        }
    }

    private static String text(ByteBuf in, int index, int length, String field) {
        String s = SocksText.decode(in, index, length);
        if (s == null) {
            throw new SocksProtocolException(Reason.MALFORMED, length, "the " + field + " is not UTF-8");
        }
        return s;
    }
}
