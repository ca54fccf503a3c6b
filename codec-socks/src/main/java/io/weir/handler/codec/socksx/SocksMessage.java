package io.weir.handler.codec.socksx;

/**
 * A message of the SOCKS handshake, either direction. Messages are immutable values that hold no buffer: they
 * are not reference counted, need no release, and may be kept and shared between threads.
 */
public interface SocksMessage {
    /** The protocol version the message belongs to. */
    SocksVersion version();
}
