package io.weir.handler.codec.http2;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.handler.codec.http.HttpDecoderConfig;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpServerPolicy;
import io.weir.handler.limit.ConnectionLimitHandler;
import io.weir.handler.ssl.ApplicationProtocolNames;
import io.weir.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.weir.handler.ssl.SslContext;
import io.weir.handler.ssl.SslHandler;
import io.weir.metrics.HttpMetrics;
import io.weir.metrics.TlsMetrics;
import java.util.Objects;

/**
 * The recommended HTTP server pipeline in one call: HTTP/1.1, h2c (by prior knowledge and by Upgrade) and, with a
 * TLS context, HTTP/2 or HTTP/1.1 as ALPN chooses, every connection under one {@link HttpServerPolicy}.
 *
 * <pre>{@code
 * HttpServerInitializer http = new HttpServerInitializer(HttpServerPolicy.defaults(), new ChannelInitializer<>() {
 *     protected void initChannel(Channel ch) {
 *         ch.pipeline().addLast(new HttpObjectAggregator(1 << 20), new MyHandler());
 *     }
 * });
 * http.configure(new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)).bind(8080);
 * }</pre>
 *
 * <h2>What each connection gets</h2>
 * <ul>
 * <li><b>HTTP/1.1</b>: {@link HttpServerCodec} built with the policy (keep-alive, the head, body-rate, idle and
 *     write timeouts, the graceful close), then the application's handler.</li>
 * <li><b>HTTP/2</b>: an {@link Http2FrameCodec} given the same policy ({@link Http2FrameCodecBuilder#policy}) and
 *     an {@link Http2MultiplexHandler}; each stream's child channel gets an
 *     {@link Http2StreamFrameToHttpObjectCodec}, then the application's handler, so one handler that reads
 *     {@code HttpRequest}s and writes {@code HttpResponse}s serves both protocols. A handler that wants the frames
 *     themselves is given with {@link Builder#http2StreamHandler}.</li>
 * <li><b>Cleartext</b>: an {@link Http2CleartextServerHandler} decides from the first bytes, within the policy's
 *     {@linkplain HttpServerPolicy#requestHeadTimeout() head timeout}; an HTTP/1.1 request carrying
 *     {@code Upgrade: h2c} is switched to HTTP/2.</li>
 * <li><b>TLS</b> ({@link Builder#tls}): an {@link SslHandler} named {@value #SSL_HANDLER_NAME} (its handshake has
 *     its own timeout), then an {@link ApplicationProtocolNegotiationHandler}: {@code h2} gets HTTP/2, anything
 *     else HTTP/1.1. The context should offer {@code h2} and {@code http/1.1} by ALPN.</li>
 * <li><b>Connection cap</b>: with {@linkplain HttpServerPolicy#maxConnections() a cap} in the policy,
 *     {@link #connectionLimit()} is the handler for the listening channel; {@link #configure(ServerBootstrap)} puts
 *     it there.</li>
 * </ul>
 * Nothing has to be ordered by hand. The initializer adds its handlers at the end of the pipeline, so handlers a
 * server needs before them (a PROXY protocol decoder, per-connection metrics) are added first, with this
 * initializer added last.
 *
 * <p>{@link ChannelHandler.Sharable}: one instance serves every connection of a server; it is immutable once built.
 */
@ChannelHandler.Sharable
public final class HttpServerInitializer extends ChannelInitializer<Channel> {
    /** The name of the {@link SslHandler} in a TLS connection's pipeline. */
    public static final String SSL_HANDLER_NAME = "ssl";

    private final HttpServerPolicy policy;
    private final SslContext tls;
    private final TlsMetrics tlsMetrics;
    private final boolean h2c;
    private final ChannelInitializer<Channel> http1;
    private final Http2ServerInitializer http2;
    private final long decisionTimeoutMillis;
    private final ConnectionLimitHandler connectionLimit;

    /**
     * HTTP/1.1 and h2c on a cleartext port under {@code policy}; {@code handler} serves every HTTP/1.1 connection
     * and every HTTP/2 stream (see the class documentation).
     *
     * @param handler a {@link ChannelHandler.Sharable} handler or a {@link ChannelInitializer}
     * @throws NullPointerException if an argument is null
     */
    public HttpServerInitializer(HttpServerPolicy policy, ChannelHandler handler) {
        this(builder(handler).policy(policy));
    }

    private HttpServerInitializer(Builder b) {
        policy = b.policy;
        tls = b.tls;
        tlsMetrics = b.tlsMetrics;
        h2c = b.h2c;
        HttpDecoderConfig decoderConfig = b.decoderConfig;
        HttpMetrics metrics = b.metrics;
        ChannelHandler http1Handler = b.http1Handler;
        http1 = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(decoderConfig, policy, metrics), http1Handler);
            }
        };
        Http2FrameCodecBuilder codec = b.http2 != null ? b.http2 : Http2FrameCodecBuilder.forServer();
        codec.policy(policy);
        if (metrics != null) {
            codec.metrics(metrics);
        }
        ChannelHandler streamHandler = b.http2StreamHandler;
        if (streamHandler == null) {
            ChannelHandler handler = b.http1Handler;
            streamHandler = new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel stream) {
                    stream.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(), handler);
                }
            };
        }
        http2 = new Http2ServerInitializer(codec, streamHandler);
        decisionTimeoutMillis = policy.requestHeadTimeout().toMillis();
        int cap = policy.maxConnections();
        connectionLimit = cap == HttpServerPolicy.NO_CONNECTION_LIMIT ? null : new ConnectionLimitHandler(cap);
    }

    /**
     * A builder for a server whose {@code handler} serves every HTTP/1.1 connection and, behind an
     * {@link Http2StreamFrameToHttpObjectCodec}, every HTTP/2 stream.
     *
     * @param handler a {@link ChannelHandler.Sharable} handler or a {@link ChannelInitializer}
     * @throws NullPointerException if {@code handler} is null
     */
    public static Builder builder(ChannelHandler handler) {
        return new Builder(handler);
    }

    /** The policy every connection is served under. */
    public HttpServerPolicy policy() {
        return policy;
    }

    /**
     * The handler that caps the connections open at once, for the listening channel
     * ({@code ServerBootstrap.handler}); null when the policy sets no cap. One instance: every listening channel it
     * is added to shares the cap.
     */
    public ConnectionLimitHandler connectionLimit() {
        return connectionLimit;
    }

    /**
     * Makes {@code bootstrap} serve with this initializer: sets it as the child handler and, when the policy caps
     * connections, {@link #connectionLimit()} as the listening channel's handler. Returns {@code bootstrap}.
     */
    public ServerBootstrap configure(ServerBootstrap bootstrap) {
        bootstrap.childHandler(this);
        if (connectionLimit != null) {
            bootstrap.handler(connectionLimit);
        }
        return bootstrap;
    }

    @Override
    protected void initChannel(Channel ch) {
        if (tls == null) {
            if (h2c) {
                // h2c by prior knowledge or Upgrade, else HTTP/1.1: the first bytes decide, within the head timeout.
                ch.pipeline().addLast(new Http2CleartextServerHandler(http2, http1, decisionTimeoutMillis));
            } else {
                ch.pipeline().addLast(http1);
            }
            return;
        }
        SslHandler ssl = tls.newHandler(ch.alloc());
        if (tlsMetrics != null) {
            ssl.metrics(tlsMetrics);
        }
        ch.pipeline().addLast(SSL_HANDLER_NAME, ssl);
        ch.pipeline().addLast(new ApplicationProtocolNegotiationHandler(ApplicationProtocolNames.HTTP_1_1) {
            @Override
            protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
                if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                    http2.install(ctx.pipeline());
                } else {
                    ctx.pipeline().addLast(http1);
                }
            }
        });
    }

    /** Builds an {@link HttpServerInitializer}. Not thread-safe; the initializer it builds is. */
    public static final class Builder {
        private final ChannelHandler http1Handler;
        private HttpServerPolicy policy = HttpServerPolicy.defaults();
        private SslContext tls;
        private TlsMetrics tlsMetrics;
        private boolean h2c = true;
        private HttpDecoderConfig decoderConfig = new HttpDecoderConfig();
        private HttpMetrics metrics;
        private Http2FrameCodecBuilder http2;
        private ChannelHandler http2StreamHandler;

        private Builder(ChannelHandler handler) {
            this.http1Handler = Objects.requireNonNull(handler, "handler");
        }

        /** The policy of every connection; {@link HttpServerPolicy#defaults()} unless set. */
        public Builder policy(HttpServerPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Serves TLS with {@code context} (a server context, offering {@code h2} and {@code http/1.1} by ALPN)
         * instead of cleartext.
         *
         * @throws IllegalArgumentException if {@code context} is a client context
         */
        public Builder tls(SslContext context) {
            if (!Objects.requireNonNull(context, "context").isServer()) {
                throw new IllegalArgumentException("tls: a server SslContext is needed: " + context);
            }
            this.tls = context;
            return this;
        }

        /** Records each TLS handshake into {@code metrics}; none by default. */
        public Builder tlsMetrics(TlsMetrics metrics) {
            this.tlsMetrics = Objects.requireNonNull(metrics, "metrics");
            return this;
        }

        /** Whether a cleartext port also serves h2c (prior knowledge and Upgrade); on by default. */
        public Builder h2c(boolean enabled) {
            this.h2c = enabled;
            return this;
        }

        /** The HTTP/1.1 decoder's limits ({@code config} is copied by each codec); the defaults unless set. */
        public Builder decoderConfig(HttpDecoderConfig config) {
            this.decoderConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        /** Counts responses, timeouts and HTTP/2 streams, resets and GOAWAYs into {@code metrics}; none by default. */
        public Builder metrics(HttpMetrics metrics) {
            this.metrics = Objects.requireNonNull(metrics, "metrics");
            return this;
        }

        /**
         * The HTTP/2 settings and limits ({@link Http2FrameCodecBuilder#forServer()} unless set); the policy is
         * applied to it when the initializer is built, over what it held, and it must not be changed afterwards.
         */
        public Builder http2(Http2FrameCodecBuilder codecBuilder) {
            this.http2 = Objects.requireNonNull(codecBuilder, "codecBuilder");
            return this;
        }

        /**
         * The handler of each HTTP/2 stream's child channel, given the stream frames themselves (no
         * {@link Http2StreamFrameToHttpObjectCodec} is added): a {@link ChannelInitializer} or a
         * {@link ChannelHandler.Sharable} handler. Unless set, streams get the converter and the handler given to
         * {@link #builder}.
         */
        public Builder http2StreamHandler(ChannelHandler handler) {
            this.http2StreamHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** The initializer. */
        public HttpServerInitializer build() {
            return new HttpServerInitializer(this);
        }
    }
}
