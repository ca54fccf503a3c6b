package io.weir.channel.internal;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketException;
import java.nio.channels.NetworkChannel;

/**
 * What a failed bind says, on NIO and on the native transports alike: the address it tried, as
 * {@code bind(127.0.0.1:8080) failed: Address already in use}. The JDK's own {@link BindException} says only
 * {@code Address already in use}, which leaves a server with several listeners guessing. Stateless; thread-safe.
 */
public final class BindFailure {
    private BindFailure() {
    }

    /**
     * {@code address} as a user writes it: {@code 127.0.0.1:8080}, {@code [::1]:8080} (RFC 3986 §3.2.2 brackets an
     * IPv6 literal), {@code example.com:8080} for an unresolved address, a domain socket's path.
     */
    public static String describe(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            InetAddress ip = inet.getAddress();
            String host = ip != null ? ip.getHostAddress() : inet.getHostString();
            if (host.indexOf(':') >= 0) {
                host = '[' + host + ']';
            }
            return host + ':' + inet.getPort();
        }
        return String.valueOf(address);
    }

    /**
     * Binds {@code channel} to {@code address}, failing as {@link #withAddress} describes.
     *
     * @throws IOException if the bind failed
     */
    public static void bind(NetworkChannel channel, SocketAddress address) throws IOException {
        try {
            channel.bind(address);
        } catch (IOException e) {
            throw withAddress(address, e);
        }
    }

    /**
     * The exception a NIO bind to {@code address} should fail with: a {@link BindException} (the JDK's
     * {@code EADDRINUSE}, {@code EADDRNOTAVAIL}, {@code EACCES}) or another {@link SocketException} becomes one of
     * the same type whose message names the address, with {@code failure} as its cause; anything else (a closed
     * channel) is returned as is, since its type already says what went wrong.
     */
    public static IOException withAddress(SocketAddress address, IOException failure) {
        SocketException named;
        if (failure instanceof BindException) {
            named = new BindException(message(address, failure));
        } else if (failure.getClass() == SocketException.class) {
            named = new SocketException(message(address, failure));
        } else {
            return failure;
        }
        named.initCause(failure);
        return named;
    }

    private static String message(SocketAddress address, IOException failure) {
        String reason = failure.getMessage();
        return "bind(" + describe(address) + ") failed: " + (reason != null ? reason : failure.getClass().getName());
    }
}
