package io.weir.handler.proxy;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Objects;

/**
 * A connect through a proxy failed: the proxy could not be reached, refused, asked for credentials it did not get
 * or rejected them, broke its protocol, closed the connection, or did not finish the handshake in time. The
 * connect's future fails with it and the channel is closed. {@link #reason()} says which, {@link #replyCode()}
 * gives the proxy's own code where it sent one, and the message names the proxy, the destination and the reason.
 * A {@link ConnectException}, so code that handles failed connects handles these too.
 *
 * <p>Created without a stack trace: it is raised on the event loop, whose stack says nothing about the caller.
 */
public final class ProxyConnectException extends ConnectException {
    private static final long serialVersionUID = 1L;

    /** The value of {@link #replyCode()} when the proxy sent no code. */
    public static final int NO_REPLY_CODE = -1;

    /** Why a connect through a proxy failed. */
    public enum Reason {
        /** The connection to the proxy itself failed (refused, unreachable, its own connect timeout). */
        PROXY_UNREACHABLE,
        /** The destination cannot be expressed in the proxy's protocol (an IPv6 address over SOCKS4, a host name
         *  longer than SOCKS5's 255 bytes, an address that is not an {@link java.net.InetSocketAddress}). */
        UNSUPPORTED_DESTINATION,
        /**
         * The proxy wants credentials it did not get, or rejected them: HTTP 407, SOCKS5 with no acceptable
         * method or a failed username and password, SOCKS4 with an identd mismatch.
         */
        AUTH_REFUSED,
        /** The proxy refused to connect to the destination; {@link #replyCode()} has its status or reply code. */
        REFUSED,
        /** The proxy's answer broke its protocol or a limit (for example an HTTP response head that is too long). */
        PROTOCOL_ERROR,
        /** The connection closed, or failed with an I/O error, before the tunnel was established. */
        CLOSED,
        /** The tunnel was not established within the handler's connect timeout. */
        TIMEOUT
    }

    private final Reason reason;
    private final String protocol;
    private final transient SocketAddress proxyAddress;
    private final transient SocketAddress destinationAddress;
    private final int replyCode;

    /**
     * @param reason why the connect failed
     * @param protocol the proxy protocol, as {@link ProxyHandler#protocol()} names it
     * @param proxyAddress the proxy's address
     * @param destinationAddress the destination asked for
     * @param replyCode the proxy's status or reply code, or {@link #NO_REPLY_CODE}
     * @param detail what happened, in words
     * @param cause the underlying failure, or {@code null}
     * @throws NullPointerException if {@code reason} or {@code protocol} is null
     */
    public ProxyConnectException(Reason reason, String protocol, SocketAddress proxyAddress,
                                 SocketAddress destinationAddress, int replyCode, String detail, Throwable cause) {
        super(protocol + " proxy " + proxyAddress + " could not connect to " + describe(destinationAddress) + ": "
                + detail);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.protocol = Objects.requireNonNull(protocol, "protocol");
        this.proxyAddress = proxyAddress;
        this.destinationAddress = destinationAddress;
        this.replyCode = replyCode;
        if (cause != null) {
            initCause(cause);
        }
    }

    /** {@code host:port} for an IP socket address (a name if it has one), else the address's own text. */
    private static String describe(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            String host = inet.getHostString();
            return (host.indexOf(':') >= 0 ? '[' + host + ']' : host) + ':' + inet.getPort();
        }
        return String.valueOf(address);
    }

    /** Stackless: see the class documentation. */
    @Override
    public Throwable fillInStackTrace() {
        return this;
    }

    /** Why the connect failed. */
    public Reason reason() {
        return reason;
    }

    /** The proxy protocol: {@code "http"}, {@code "socks4a"} or {@code "socks5"}. */
    public String protocol() {
        return protocol;
    }

    /** The proxy's address. */
    public SocketAddress proxyAddress() {
        return proxyAddress;
    }

    /** The destination that was asked for. */
    public SocketAddress destinationAddress() {
        return destinationAddress;
    }

    /**
     * The proxy's own code for the failure, or {@link #NO_REPLY_CODE}: the HTTP status (407, 403, 502...), the
     * SOCKS4 reply code (91 to 93), the SOCKS5 reply code (1 to 255), the SOCKS5 password status, or 255 when a
     * SOCKS5 proxy accepted none of the offered methods.
     */
    public int replyCode() {
        return replyCode;
    }
}
