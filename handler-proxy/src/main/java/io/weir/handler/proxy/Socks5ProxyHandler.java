package io.weir.handler.proxy;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.socksx.v5.Socks5AuthMethod;
import io.weir.handler.codec.socksx.v5.Socks5ClientDecoder;
import io.weir.handler.codec.socksx.v5.Socks5ClientEncoder;
import io.weir.handler.codec.socksx.v5.Socks5CommandRequest;
import io.weir.handler.codec.socksx.v5.Socks5CommandResponse;
import io.weir.handler.codec.socksx.v5.Socks5CommandType;
import io.weir.handler.codec.socksx.v5.Socks5InitialRequest;
import io.weir.handler.codec.socksx.v5.Socks5InitialResponse;
import io.weir.handler.codec.socksx.v5.Socks5PasswordAuthRequest;
import io.weir.handler.codec.socksx.v5.Socks5PasswordAuthResponse;
import io.weir.handler.proxy.ProxyConnectException.Reason;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Objects;

/**
 * Connects through a SOCKS5 proxy (RFC 1928): offers no authentication, and username and password (RFC 1929) when
 * given credentials; a destination with a host name travels as the name, for the proxy to resolve (see
 * {@link ProxyHandler} on host names), an IPv4 or IPv6 address as the address. See {@link ProxyHandler} for the
 * life of a connect.
 *
 * <p><b>Failures.</b> A host name longer than 255 bytes fails at once with {@link Reason#UNSUPPORTED_DESTINATION}.
 * A proxy that accepts none of the offered methods (code 255), or refuses the username and password (its status),
 * fails with {@link Reason#AUTH_REFUSED}; a reply other than success with {@link Reason#REFUSED} and the reply code;
 * a malformed answer, or a method that was not offered, with {@link Reason#PROTOCOL_ERROR}.
 *
 * <p>The username and password travel in clear text.
 */
public final class Socks5ProxyHandler extends ProxyHandler {
    private final String username;
    private final String password;
    private Socks5CommandRequest command;

    /**
     * A handler for the proxy at {@code proxyAddress}, offering no authentication only.
     *
     * @throws NullPointerException if {@code proxyAddress} is null
     */
    public Socks5ProxyHandler(SocketAddress proxyAddress) {
        super(proxyAddress);
        this.username = null;
        this.password = null;
    }

    /**
     * A handler offering no authentication and username and password.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the username or password takes more than 255 bytes of UTF-8
     */
    public Socks5ProxyHandler(SocketAddress proxyAddress, String username, String password) {
        super(proxyAddress);
        new Socks5PasswordAuthRequest(Objects.requireNonNull(username, "username"),
                Objects.requireNonNull(password, "password"));
        this.username = username;
        this.password = password;
    }

    /** {@code "socks5"}. */
    @Override
    public String protocol() {
        return "socks5";
    }

    /** {@code "password"} with credentials, else {@code "none"}. */
    @Override
    public String authScheme() {
        return username != null ? "password" : "none";
    }

    @Override
    void checkDestination(InetSocketAddress destination, String host) throws ProxyConnectException {
        try {
            command = Socks5CommandRequest.of(Socks5CommandType.CONNECT, host, destination.getPort());
        } catch (IllegalArgumentException e) {
            throw failure(Reason.UNSUPPORTED_DESTINATION, ProxyConnectException.NO_REPLY_CODE, e.getMessage(), e);
        }
    }

    @Override
    ChannelHandler[] newCodecs() {
        return new ChannelHandler[] {new Socks5ClientDecoder(), new Socks5ClientEncoder()};
    }

    @Override
    Object initialRequest(String host, int port) {
        return username != null ? Socks5InitialRequest.of(Socks5AuthMethod.NO_AUTH, Socks5AuthMethod.PASSWORD)
                : Socks5InitialRequest.of(Socks5AuthMethod.NO_AUTH);
    }

    @Override
    boolean handleResponse(ChannelHandlerContext ctx, Object msg) throws ProxyConnectException {
        if (msg instanceof Socks5InitialResponse r) {
            Socks5AuthMethod method = r.method();
            if (method.equals(Socks5AuthMethod.NO_AUTH)) {
                sendToProxy(ctx, command);
            } else if (method.equals(Socks5AuthMethod.PASSWORD) && username != null) {
                sendToProxy(ctx, new Socks5PasswordAuthRequest(username, password));
            } else if (method.equals(Socks5AuthMethod.NO_ACCEPTABLE_METHODS)) {
                throw failure(Reason.AUTH_REFUSED, method.code(), "it accepts none of the offered methods ("
                        + (username != null ? "NO_AUTH, PASSWORD" : "NO_AUTH: it may want credentials") + ')', null);
            } else {
                throw failure(Reason.PROTOCOL_ERROR, method.code(), "it chose " + method
                        + ", which was not offered", null);
            }
            return false;
        }
        if (msg instanceof Socks5PasswordAuthResponse r) {
            if (!r.isSuccess()) {
                throw failure(Reason.AUTH_REFUSED, r.status(), "it refused the username and password (status "
                        + r.status() + ')', null);
            }
            sendToProxy(ctx, command);
            return false;
        }
        if (msg instanceof Socks5CommandResponse r) {
            if (!r.status().isSuccess()) {
                throw failure(Reason.REFUSED, r.status().code(), "it answered " + r.status().code() + " ("
                        + r.status() + ')', null);
            }
            return true;
        }
        throw failure(Reason.PROTOCOL_ERROR, ProxyConnectException.NO_REPLY_CODE, "unexpected "
                + msg.getClass().getSimpleName() + " from the SOCKS5 decoder", null);
    }
}
