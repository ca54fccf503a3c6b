package io.weir.grpc;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.http2.Http2HeadersFrame;

/**
 * The first handler of each HTTP/2 stream's child channel on a server with {@link GrpcServices}: the stream's first
 * HEADERS frame decides who takes the stream, and this handler leaves the pipeline. A request whose
 * {@code content-type} is {@code application/grpc} becomes a {@link ServerCallStream} of the method its path names
 * (an unknown one answers UNIMPLEMENTED); any other request goes to the HTTP handlers.
 *
 * <p>It keeps nothing of a stream, so one instance serves every stream of every connection: it is the handler
 * {@link GrpcServices#streamHandler} hands out, put straight into each child pipeline (no initializer added and
 * removed per stream). Called on each stream's event loop.
 */
@ChannelHandler.Sharable
final class GrpcStreamRouter implements ChannelHandler {
    private final GrpcServices services;
    private final ChannelHandler otherRequests;

    GrpcStreamRouter(GrpcServices services, ChannelHandler otherRequests) {
        this.services = services;
        this.otherRequests = otherRequests;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ChannelHandler next = otherRequests;
        if (msg instanceof Http2HeadersFrame headers && GrpcHeaderNames.isGrpc(headers.headers())) {
            // The codec checked that a request has a :path (RFC 9113 §8.3.1).
            next = services.newCall(headers.headers().path().toString());
        }
        ctx.pipeline().replace(this, null, next);
        ctx.pipeline().fireChannelRead(msg);
    }
}
