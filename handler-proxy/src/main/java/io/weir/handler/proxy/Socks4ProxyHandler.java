package io.weir.handler.proxy;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.socksx.v4.Socks4ClientDecoder;
import io.weir.handler.codec.socksx.v4.Socks4ClientEncoder;
import io.weir.handler.codec.socksx.v4.Socks4CommandRequest;
import io.weir.handler.codec.socksx.v4.Socks4CommandResponse;
import io.weir.handler.codec.socksx.v4.Socks4CommandStatus;
import io.weir.handler.codec.socksx.v4.Socks4CommandType;
import io.weir.handler.proxy.ProxyConnectException.Reason;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Objects;

/**
 * Connects through a SOCKS4 proxy with the 4a extension: an IPv4 destination travels as its address, a destination
 * with a host name as the name, for the proxy to resolve (see {@link ProxyHandler} on host names). See
 * {@link ProxyHandler} for the life of a connect.
 *
 * <p><b>Failures.</b> SOCKS4 cannot carry an IPv6 address: such a destination fails at once with
 * {@link Reason#UNSUPPORTED_DESTINATION}, before the proxy is contacted. Reply 91 (rejected) and 92 (identd
 * unreachable) fail with {@link Reason#REFUSED}, 93 (identd reports another user) with {@link Reason#AUTH_REFUSED},
 * the code as {@link ProxyConnectException#replyCode()}; a malformed reply with {@link Reason#PROTOCOL_ERROR}.
 */
public final class Socks4ProxyHandler extends ProxyHandler {
    private final String userId;

    /**
     * A handler for the proxy at {@code proxyAddress}, with an empty user id.
     *
     * @throws NullPointerException if {@code proxyAddress} is null
     */
    public Socks4ProxyHandler(SocketAddress proxyAddress) {
        this(proxyAddress, "");
    }

    /**
     * A handler that identifies as {@code userId}, an identification rather than a secret.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code userId} has a NUL
     */
    public Socks4ProxyHandler(SocketAddress proxyAddress, String userId) {
        super(proxyAddress);
        Objects.requireNonNull(userId, "userId");
        if (userId.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("userId has a NUL at index " + userId.indexOf('\0'));
        }
        this.userId = userId;
    }

    /** {@code "socks4a"}. */
    @Override
    public String protocol() {
        return "socks4a";
    }

    /** {@code "userid"} with a user id, else {@code "none"}. */
    @Override
    public String authScheme() {
        return userId.isEmpty() ? "none" : "userid";
    }

    @Override
    void checkDestination(InetSocketAddress destination, String host) throws ProxyConnectException {
        if (host.indexOf(':') >= 0) {
            throw failure(Reason.UNSUPPORTED_DESTINATION, ProxyConnectException.NO_REPLY_CODE,
                    "SOCKS4 cannot carry the IPv6 address " + host, null);
        }
        try {
            initialRequest(host, destination.getPort());
        } catch (IllegalArgumentException e) {
            throw failure(Reason.UNSUPPORTED_DESTINATION, ProxyConnectException.NO_REPLY_CODE, e.getMessage(), e);
        }
    }

    @Override
    ChannelHandler[] newCodecs() {
        return new ChannelHandler[] {new Socks4ClientDecoder(), new Socks4ClientEncoder()};
    }

    @Override
    Object initialRequest(String host, int port) {
        return new Socks4CommandRequest(Socks4CommandType.CONNECT, host, port, userId);
    }

    @Override
    boolean handleResponse(ChannelHandlerContext ctx, Object msg) throws ProxyConnectException {
        if (!(msg instanceof Socks4CommandResponse response)) {
            throw failure(Reason.PROTOCOL_ERROR, ProxyConnectException.NO_REPLY_CODE, "unexpected "
                    + msg.getClass().getSimpleName() + " from the SOCKS4 decoder", null);
        }
        Socks4CommandStatus status = response.status();
        if (status.isSuccess()) {
            return true;
        }
        throw failure(status == Socks4CommandStatus.IDENTD_MISMATCH ? Reason.AUTH_REFUSED : Reason.REFUSED,
                status.code(), "it answered " + status.code() + " (" + status + ')', null);
    }
}
