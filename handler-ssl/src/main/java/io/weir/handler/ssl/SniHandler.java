package io.weir.handler.ssl;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.ssl.internal.ClientHelloSni;
import io.weir.handler.ssl.internal.TlsRecords;
import io.weir.util.concurrent.ScheduledFuture;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Chooses the server's {@link SslContext} from the host name a client asks for (SNI, RFC 6066 §3), then puts an
 * {@link SslHandler} of that context in its place (named {@link #SSL_HANDLER_NAME}) and hands it every byte read
 * so far. Put it where the {@code SslHandler} would go; one instance per channel; event-loop thread only.
 *
 * <p>It reads the ClientHello itself, before any engine sees it, with bounds: the ClientHello may be at most
 * {@link #DEFAULT_MAX_CLIENT_HELLO_BYTES} long (setter), the bytes held (record headers included) at most
 * {@link #rawByteLimit()}, and it must arrive within {@link SslHandler#DEFAULT_HANDSHAKE_TIMEOUT_MILLIS}. The work
 * is linear in the bytes received even when the ClientHello comes one byte per record: each record's fragment is
 * appended once to a reassembly buffer and the message is parsed once, when complete. Anything malformed (a
 * record that is not a handshake record, a zero-length or oversized fragment, a message other than ClientHello, a
 * broken extension or host name) fires a failed {@link SniCompletionEvent} and a failed
 * {@link SslHandshakeCompletionEvent} and closes the connection: it never falls back to the default context.
 * A ClientHello without server_name gets the mapping's default context.
 */
public final class SniHandler implements ChannelHandler {
    /** The longest ClientHello accepted by default: 16 KiB (real ones are under 2 KiB; post-quantum key shares ~1.5 KiB more). */
    public static final int DEFAULT_MAX_CLIENT_HELLO_BYTES = 16 * 1024;
    /** The name the chosen {@link SslHandler} gets in the pipeline. */
    public static final String SSL_HANDLER_NAME = "ssl";
    /** Record headers allowed per ClientHello byte when it arrives one byte per record (5 + 1 bytes each). */
    private static final int RAW_BYTES_PER_HELLO_BYTE = TlsRecords.HEADER_LENGTH + 1;

    private final SniMapping mapping;
    private int maxClientHelloBytes = DEFAULT_MAX_CLIENT_HELLO_BYTES;
    private long handshakeTimeoutMillis = SslHandler.DEFAULT_HANDSHAKE_TIMEOUT_MILLIS;

    private ByteBuf raw;
    private ByteBuf helloBuffer;
    private ClientHelloSni hello;
    private int parsed;
    private ScheduledFuture<?> timeout;
    private boolean done;

    /** A handler choosing from {@code mapping}. */
    public SniHandler(SniMapping mapping) {
        this.mapping = Objects.requireNonNull(mapping, "mapping");
    }

    /** Sets the longest ClientHello accepted (64 to 2^24 bytes); call before the handler is added. */
    public SniHandler setMaxClientHelloBytes(int bytes) {
        if (bytes < 64 || bytes > 1 << 24) {
            throw new IllegalArgumentException("maxClientHelloBytes: " + bytes + " (expected 64..2^24)");
        }
        maxClientHelloBytes = bytes;
        return this;
    }

    /** Sets how long the ClientHello may take to arrive; 0 waits forever. Call before the handler is added. */
    public SniHandler setHandshakeTimeout(long timeout, TimeUnit unit) {
        if (timeout < 0) {
            throw new IllegalArgumentException("handshakeTimeout: " + timeout + " (expected >= 0)");
        }
        handshakeTimeoutMillis = unit.toMillis(timeout);
        return this;
    }

    /** The most bytes held while the ClientHello arrives: a ClientHello of the maximum size sent one byte per record. */
    public int rawByteLimit() {
        return maxClientHelloBytes * RAW_BYTES_PER_HELLO_BYTE;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            startTimer(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        startTimer(ctx);
        ctx.fireChannelActive();
    }

    private void startTimer(ChannelHandlerContext ctx) {
        if (timeout == null && handshakeTimeoutMillis > 0) {
            timeout = ctx.executor().schedule(() -> fail(ctx, new SslHandshakeTimeoutException(handshakeTimeoutMillis)),
                    handshakeTimeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof ByteBuf) || done) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf in = (ByteBuf) msg;
        try {
            if (raw == null) {
                raw = ctx.alloc().buffer(Math.min(in.readableBytes(), rawByteLimit()));
                helloBuffer = ctx.alloc().buffer(Math.min(512, maxClientHelloBytes));
                hello = new ClientHelloSni(helloBuffer, maxClientHelloBytes);
            }
            if (raw.readableBytes() + in.readableBytes() > rawByteLimit()) {
                throw new MalformedClientHelloException("more than " + rawByteLimit()
                        + " bytes arrived before the ClientHello was complete");
            }
            raw.writeBytes(in);
        } catch (MalformedClientHelloException e) {
            fail(ctx, e);
            return;
        } finally {
            in.release();
        }
        String host;
        try {
            if (!parseRecords()) {
                return;
            }
            host = hello.hostName();
        } catch (javax.net.ssl.SSLException e) {
            fail(ctx, e);
            return;
        }
        select(ctx, host);
    }

    /** Feeds each complete record after {@code parsed} to the ClientHello parser; true once it is complete. */
    private boolean parseRecords() throws javax.net.ssl.SSLException {
        for (;;) {
            int length = TlsRecords.recordLength(raw, parsed);
            if (length == TlsRecords.NEED_MORE) {
                return false;
            }
            if (length == TlsRecords.NOT_TLS) {
                throw new NotSslRecordException("not a TLS record header: " + TlsRecords.headerHex(raw, parsed));
            }
            int type = raw.getUnsignedByte(parsed);
            int fragment = length - TlsRecords.HEADER_LENGTH;
            if (type != TlsRecords.HANDSHAKE) {
                throw new MalformedClientHelloException("a record of content type " + type + " before the ClientHello");
            }
            // RFC 8446 §5.1: handshake fragments are never empty and at most 2^14 bytes.
            if (fragment == 0 || fragment > TlsRecords.MAX_PLAINTEXT_LENGTH) {
                throw new MalformedClientHelloException("a handshake record of " + fragment + " bytes");
            }
            if (fragment > maxClientHelloBytes) {
                // Refused on its header: the fragment alone would not fit the ClientHello limit.
                throw new MalformedClientHelloException("a handshake record of " + fragment + " bytes, the ClientHello "
                        + "limit is " + maxClientHelloBytes);
            }
            if (raw.writerIndex() - parsed < length) {
                return false;
            }
            boolean complete = hello.addFragment(raw, parsed + TlsRecords.HEADER_LENGTH, fragment);
            parsed += length;
            if (complete) {
                return true;
            }
        }
    }

    private void select(ChannelHandlerContext ctx, String host) {
        done = true;
        cancelTimer();
        SslContext chosen = mapping.map(host);
        ctx.fireUserEventTriggered(new SniCompletionEvent(host));
        if (!ctx.channel().isOpen()) {
            release();
            return;
        }
        ByteBuf replay = raw;
        raw = null;
        release();
        ctx.pipeline().addAfter(ctx.name(), SSL_HANDLER_NAME, chosen.newHandler(ctx.alloc()));
        ctx.fireChannelRead(replay);
        ctx.pipeline().remove(this);
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        if (done) {
            return;
        }
        done = true;
        cancelTimer();
        release();
        ctx.fireUserEventTriggered(new SniCompletionEvent(cause));
        ctx.fireUserEventTriggered(new SslHandshakeCompletionEvent(cause));
        ctx.close();
    }

    private void cancelTimer() {
        if (timeout != null) {
            timeout.cancel(false);
        }
    }

    private void release() {
        if (raw != null) {
            raw.release();
            raw = null;
        }
        if (helloBuffer != null) {
            helloBuffer.release();
            helloBuffer = null;
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelTimer();
        release();
    }
}
