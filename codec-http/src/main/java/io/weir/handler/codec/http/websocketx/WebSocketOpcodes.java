package io.weir.handler.codec.http.websocketx;

/**
 * The opcodes of RFC 6455 §5.2 (§11.8 registry). 0x3-0x7 and 0xB-0xF are reserved: a frame carrying one fails
 * the connection with 1002 unless a negotiated extension defines it.
 */
public final class WebSocketOpcodes {
    /** Continuation of a fragmented data message. */
    public static final int CONTINUATION = 0x0;
    /** First (or only) frame of a text message. */
    public static final int TEXT = 0x1;
    /** First (or only) frame of a binary message. */
    public static final int BINARY = 0x2;
    /** Connection close (§5.5.1). */
    public static final int CLOSE = 0x8;
    /** Ping (§5.5.2). */
    public static final int PING = 0x9;
    /** Pong (§5.5.3). */
    public static final int PONG = 0xA;

    private WebSocketOpcodes() {
    }
}
