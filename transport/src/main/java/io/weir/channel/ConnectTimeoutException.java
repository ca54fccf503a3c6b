package io.weir.channel;

import java.net.ConnectException;

/** A connect did not complete within {@link ChannelOption#CONNECT_TIMEOUT_MILLIS}. */
public final class ConnectTimeoutException extends ConnectException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message naming the address and the timeout. */
    public ConnectTimeoutException(String message) {
        super(message);
    }
}
