package io.weir.handler.codec.http;

import io.weir.channel.ChannelDrainEvent;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;

/**
 * Applies HTTP/1.x connection persistence (RFC 9112 §9.3) on the server side, so handlers after it only set
 * what they mean on each response and never close the connection themselves. Place it after the server codec.
 *
 * <ul>
 *   <li>A request that does not want to persist ({@code Connection: close} under HTTP/1.1, no
 *       {@code Connection: keep-alive} under HTTP/1.0) makes the connection close after its response.</li>
 *   <li>A response that does not persist ({@code Connection: close}, an HTTP/1.0 response without
 *       {@code keep-alive}) or whose length the client could only learn from the close (no
 *       {@code Content-Length}, not chunked, and not bodiless by status) closes the connection after its last
 *       content; the response is marked {@code Connection: close} so the client knows.</li>
 *   <li>Pipelined requests are counted: the connection closes only after the response to the last request
 *       before the close was decided, never under a response still owed. 1xx interim responses do not count.</li>
 *   <li>When an HTTP/1.0 client asked for {@code keep-alive} and the connection persists, the response carries
 *       {@code Connection: keep-alive}, without which an HTTP/1.0 client would wait for the close.</li>
 *   <li>A {@link ChannelDrainEvent} (the server is draining) closes an idle connection at once; one that owes a
 *       response closes after it, marked {@code Connection: close} unless its head has already gone.</li>
 * </ul>
 *
 * <p>{@link HttpServerCodec#HttpServerCodec(HttpServerPolicy)} applies the same rules inside the codec, from the
 * codec's own request and response counts, with no handler to place: prefer it. This handler stays for pipelines
 * that add it by hand.
 *
 * <p>Only called on the channel's event loop; one instance per channel.
 */
public class HttpServerKeepAliveHandler implements ChannelHandler {
    private boolean persistentConnection = true;
    /** Requests read whose final response has not been written yet. */
    private int pendingResponses;
    /** Whether the most recent request was an HTTP/1.0 one asking for keep-alive. */
    private boolean http10KeepAlive;
    /** A final response's head was written and its last content not yet. */
    private boolean responseInProgress;

    /** A keep-alive handler for one connection. */
    public HttpServerKeepAliveHandler() {
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request && persistentConnection) {
            pendingResponses++;
            persistentConnection = HttpKeepAlive.requestPersists(request);
            http10KeepAlive = HttpKeepAlive.isHttp10KeepAlive(request, persistentConnection);
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ChannelDrainEvent) {
            // No new request on this connection: the response owed (if any) is the last one.
            persistentConnection = false;
            if (pendingResponses == 0 && !responseInProgress) {
                ctx.close();
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof HttpResponse response) {
            boolean interim = response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
            if (!interim) {
                responseInProgress = true;
                if (pendingResponses > 0) {
                    pendingResponses--;
                }
                if (!HttpKeepAlive.responsePersists(response, http10KeepAlive)
                        || !HttpKeepAlive.hasSelfDefinedLength(response)) {
                    // The client cannot reuse the connection after this response: stop here.
                    pendingResponses = 0;
                    persistentConnection = false;
                }
                if (!shouldKeepAlive()) {
                    HttpUtil.setKeepAlive(response.headers(), HttpVersion.HTTP_1_1, false);
                } else if (http10KeepAlive) {
                    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
                }
            }
        }
        if (msg instanceof LastHttpContent) {
            responseInProgress = false;
        }
        if (msg instanceof LastHttpContent && !shouldKeepAlive()) {
            ctx.write(msg, promise.unvoid()).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.write(msg, promise);
    }

    private boolean shouldKeepAlive() {
        return pendingResponses != 0 || persistentConnection;
    }
}
