package io.weir.handler.ssl;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.ssl.internal.TlsRecords;
import java.util.Objects;

/**
 * Serves TLS and plaintext on one port: the first bytes of a connection decide. If they start a TLS handshake
 * record (RFC 8446 §5.1: content type 22, version 3.x), an {@link SslHandler} from the context is put in this
 * handler's place; otherwise the connection stays plaintext and this handler just leaves. Waits for at most
 * {@link TlsRecords#HEADER_LENGTH} bytes (held in a buffer of that size); put an idle or read timeout before it
 * for peers that send nothing. One instance per channel; event-loop thread only.
 */
public final class OptionalSslHandler implements ChannelHandler {
    /** The name the {@link SslHandler} gets in the pipeline when the connection turns out to be TLS. */
    public static final String SSL_HANDLER_NAME = "ssl";

    private final SslContext sslContext;
    private ByteBuf first;

    /** A handler that uses {@code sslContext} (a server context) for TLS connections. */
    public OptionalSslHandler(SslContext sslContext) {
        this.sslContext = Objects.requireNonNull(sslContext, "sslContext");
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof ByteBuf)) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf in = (ByteBuf) msg;
        ByteBuf buf = in;
        if (first != null) {
            first.writeBytes(in, Math.min(in.readableBytes(), TlsRecords.HEADER_LENGTH - first.readableBytes()));
            buf = first;
        }
        int length = TlsRecords.recordLength(buf, buf.readerIndex());
        if (length == TlsRecords.NEED_MORE) {
            if (first == null) {
                first = ctx.alloc().buffer(TlsRecords.HEADER_LENGTH);
                first.writeBytes(in);
            }
            if (in != first) {
                in.release();
            }
            return;
        }
        boolean tls = length != TlsRecords.NOT_TLS && buf.getUnsignedByte(buf.readerIndex()) == TlsRecords.HANDSHAKE;
        if (tls) {
            ctx.pipeline().addAfter(ctx.name(), SSL_HANDLER_NAME, sslContext.newHandler(ctx.alloc()));
        }
        // Replay what was read, in order: the held header bytes, then the rest of this read.
        if (first != null) {
            ByteBuf held = first;
            first = null;
            ctx.fireChannelRead(held);
            if (in.isReadable()) {
                ctx.fireChannelRead(in);
            } else {
                in.release();
            }
        } else {
            ctx.fireChannelRead(in);
        }
        ctx.pipeline().remove(this);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (first != null) {
            first.release();
            first = null;
        }
    }
}
