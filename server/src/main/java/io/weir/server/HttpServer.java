package io.weir.server;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.PooledByteBufAllocator;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelMetricsHandler;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.Epoll;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.group.ChannelGroup;
import io.weir.channel.group.DefaultChannelGroup;
import io.weir.channel.group.ServerDrain;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.uring.IoUring;
import io.weir.channel.uring.IoUringIoHandler;
import io.weir.metrics.HttpMetrics;
import io.weir.metrics.WeirMetrics;
import io.weir.server.Transports;
import io.weir.grpc.GrpcServices;
import io.weir.handler.codec.haproxy.HAProxyMessage;
import io.weir.handler.codec.haproxy.HAProxyMessageDecoder;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpServerPolicy;
import io.weir.handler.codec.http.HttpServerTimeouts;
import io.weir.handler.codec.http.multipart.DefaultHttpDataFactory;
import io.weir.handler.codec.http.multipart.HttpPostDecoderConfig;
import io.weir.handler.codec.http2.Http2CleartextServerHandler;
import io.weir.handler.codec.http2.Http2FrameCodec;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2Settings;
import io.weir.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.weir.handler.codec.http2.HttpServerInitializer;
import io.weir.handler.limit.ConnectionLimitHandler;
import io.weir.handler.ssl.ApplicationProtocolNames;
import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.handler.ssl.SslContext;
import io.weir.handler.ssl.OpenSsl;
import io.weir.handler.ssl.SslContextBuilder;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.GlobalEventExecutor;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The example HTTP server, HTTP/1.1 and h2c (HTTP/2 by prior knowledge or by Upgrade, on the same port; each
 * HTTP/2 stream is served by the same handlers through {@link Http2StreamFrameToHttpObjectCodec}, static files in
 * chunks rather than by sendfile):
 * {@code /plaintext}, {@code /json}, {@code /echo} and {@code /headers} (see
 * {@link HttpServerHandler}), {@code GET|HEAD /static/<path>} files from the static root, zero copy, with ETags,
 * conditional requests and ranges ({@link StaticFileHandler}; 404 when no root is set), and {@code POST /upload}
 * multipart decoding that reports each field ({@link UploadHandler}), and a WebSocket echo at {@code /ws} with a
 * page at {@code /ws.html} ({@link WebSocketRoute}); on the native epoll transport where it is available and on NIO
 * otherwise ({@link Transports}). {@link #startTls} serves the same routes over TLS on a second port, HTTP/2 or
 * HTTP/1.1 as ALPN chooses. HTTP/2 requests with {@code content-type: application/grpc} are gRPC calls, served by
 * {@link #grpc}'s services ({@link GrpcEchoService} by default).
 *
 * <p>{@code /static} and {@code /upload} stream: their handlers sit before the aggregator, so file bodies and
 * uploads are never held whole in memory; every other request is aggregated up to
 * {@value #MAX_CONTENT_LENGTH_BYTES} bytes. On HTTP/2, where one connection carries up to 100 requests at once,
 * {@code POST /echo} streams too: each piece of the body is written back as it arrives, and the stream stops
 * reading while it is unwritable, so a client that posts on many streams without reading the answers holds a
 * bounded amount, not 100 aggregated bodies. (HTTP/1.1 has one request at a time and keeps the aggregated echo,
 * which can still answer a bad chunk with 400.)
 *
 * <h2>The recommended server pipeline</h2>
 * Both ports are set up by one {@link HttpServerInitializer} under one {@link HttpServerPolicy}: every HTTP/1.1
 * connection runs {@code HttpServerCodec(policy) ->} the routes, and the listening channels share a
 * {@link ConnectionLimitHandler}. A client that sends its request head too slowly is answered 408 and closed, one
 * that sends a body below the minimum rate likewise, a kept-alive connection idle between requests is closed
 * quietly, one that stops reading the responses it asked for is closed after the write timeout, and connections
 * beyond the cap are closed as they are accepted (see {@link HttpServerPolicy} for the defaults and why). Change
 * them with {@link #policy(HttpServerPolicy)}, or on the command line.
 *
 * <p>The same timeouts hold for h2c: the head timeout is also the time a new connection has to send the HTTP/2
 * preface or a request line ({@link Http2CleartextServerHandler}'s decision timeout), and the idle timeout is also
 * the time an HTTP/2 connection may stay without a stream. HTTP/2 adds the stream read timeout
 * ({@link #streamReadTimeout}): a stream the client has not finished sending that receives nothing for that long is
 * reset with RST_STREAM CANCEL (HTTP/2 slowloris), while a stream that waits for the server's answer never times out.
 *
 * <p>Run it with {@code server/run [--port 8080] [--transport nio|epoll|io_uring] [--static-root DIR]
 * [--head-timeout 10s] [--idle-timeout 75s] [--min-body-rate 1024] [--write-timeout 30s]
 * [--stream-read-timeout 30s] [--keep-alive on] [--max-connections auto] [--tls-port 8443]
 * [--tls-cert FILE --tls-key FILE] [--metrics]} ({@code --help} explains them); it prints its URL and shuts down
 * gracefully on Ctrl-C (in-flight responses are written, then the loops stop). From code: {@link #start} binds and returns the listening channel, {@link #close} stops listening.
 */
public final class HttpServer implements AutoCloseable {
    /** The port {@link #main} listens on when none is given. */
    public static final int DEFAULT_PORT = 8080;
    /** The HTTPS port {@link #main} listens on when none is given. */
    public static final int DEFAULT_TLS_PORT = 8443;
    /** The largest request body the server accepts; a larger one is answered with 413 and the connection closed. */
    public static final int MAX_CONTENT_LENGTH_BYTES = 1 << 20;
    /**
     * Descriptors left free below the process's limit by the default connection cap: for the listening sockets,
     * the static files being sent, upload temp files, the JVM's own jars and logs, and the accept-then-close of
     * connections refused at the cap.
     */
    public static final int RESERVED_DESCRIPTORS = 256;
    /** {@link #maxConnections(int)}'s value for no cap. */
    public static final int NO_CONNECTION_LIMIT = 0;

    private final EventLoopGroup group;
    private volatile Channel channel;
    private volatile Path staticRoot;
    private volatile Path uploadDirectory;
    private volatile HttpPostDecoderConfig uploadConfig = new HttpPostDecoderConfig();
    private volatile long maxUploadFileSizeBytes = UploadHandler.DEFAULT_MAX_FILE_SIZE_BYTES;
    private volatile HttpServerPolicy policy = defaultPolicy();
    private volatile ConnectionLimitHandler connectionLimit;
    private volatile SslContext tls;
    private volatile GrpcServices grpc = GrpcServices.builder().addService(GrpcEchoService.definition()).build();
    private volatile Channel tlsChannel;
    private volatile boolean proxyProtocol;
    private volatile WeirMetrics metrics;
    /** The listening channels and every connection, for {@link #drain}; connections join as they are set up. */
    private final ChannelGroup channels = new DefaultChannelGroup("weir-http-server", GlobalEventExecutor.INSTANCE,
            true);
    /** The pipelines {@link #start} built, which {@link #startTls} serves behind TLS too; null before start. */
    private HttpServerInitializer.Builder tlsPipeline;

    /**
     * A server whose listening socket and connections run on {@code group} (NIO or epoll loops: the channel
     * classes follow), which the caller owns and shuts down.
     */
    public HttpServer(EventLoopGroup group) {
        this.group = Objects.requireNonNull(group, "group");
    }

    /**
     * Expects every connection, on both ports, to start with a PROXY protocol header (v1 or v2, as haproxy's
     * {@code send-proxy} and {@code send-proxy-v2} send): the server is behind a balancer, and {@code /headers}
     * reports the client's address from the header. A connection without one is refused. Takes effect at
     * {@link #start}. Returns this.
     */
    public HttpServer proxyProtocol(boolean enabled) {
        this.proxyProtocol = enabled;
        return this;
    }

    /**
     * Records the server's metrics into {@code metrics} (null, the default: none) and serves them at
     * {@code GET /metrics} in the Prometheus text format: its event loops and the default pooled allocator, every
     * connection ({@link ChannelMetricsHandler}), HTTP responses by status class ({@link HttpResponseMetricsHandler}),
     * HTTP/2 streams, resets and GOAWAYs, the timeouts that fired, and TLS handshakes. Without it {@code /metrics} is
     * 404 and no connection pays for any of it. Takes effect at {@link #start}. Returns this.
     */
    public HttpServer metrics(WeirMetrics metrics) {
        this.metrics = metrics;
        return this;
    }

    /** The metrics this server records into, or null if it records none. */
    public WeirMetrics metrics() {
        return metrics;
    }

    /** Adds the PROXY protocol decoder first in a new connection's pipeline, if {@link #proxyProtocol} is on. */
    private void addProxyProtocol(Channel ch, boolean enabled) {
        if (enabled) {
            ch.pipeline().addLast(new HAProxyMessageDecoder(), ProxyHeaderConsumed.INSTANCE);
        }
    }

    /**
     * Drops the decoded PROXY header (the decoder keeps the address on the channel, where {@code /headers} finds
     * it) so that the protocol sniffing and TLS after it see bytes only; leaves the pipeline with it.
     */
    @ChannelHandler.Sharable
    private static final class ProxyHeaderConsumed implements ChannelHandler {
        static final ProxyHeaderConsumed INSTANCE = new ProxyHeaderConsumed();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HAProxyMessage) {
                ctx.pipeline().remove(this);
                return;
            }
            ctx.fireChannelRead(msg);
        }
    }

    /**
     * Serves {@code /static/<path>} from {@code root} ({@code null}: no static files, every {@code /static}
     * request is 404). Takes effect at {@link #start}. Returns this.
     */
    public HttpServer staticRoot(Path root) {
        this.staticRoot = root;
        return this;
    }

    /**
     * Writes {@code /upload} parts above {@value UploadHandler#MEMORY_THRESHOLD_BYTES} bytes to temporary files in
     * {@code directory} ({@code null}: the system temp directory). Takes effect at {@link #start}. Returns this.
     */
    public HttpServer uploadDirectory(Path directory) {
        this.uploadDirectory = directory;
        return this;
    }

    /**
     * The limits of {@code /upload}: the decoder's {@code config} (not modified afterwards) and the largest part.
     * Takes effect at {@link #start}. Returns this.
     *
     * @throws IllegalArgumentException if {@code maxFileSizeBytes} is not positive
     */
    public HttpServer uploadLimits(HttpPostDecoderConfig config, long maxFileSizeBytes) {
        if (maxFileSizeBytes <= 0) {
            throw new IllegalArgumentException("maxFileSizeBytes: " + maxFileSizeBytes + " (expected: > 0)");
        }
        this.uploadConfig = Objects.requireNonNull(config, "config");
        this.maxUploadFileSizeBytes = maxFileSizeBytes;
        return this;
    }

    /**
     * The policy of every connection, on both ports: timeouts, keep-alive, linger and the connection cap (see
     * {@link HttpServerPolicy}); {@link #defaultPolicy()} unless set. Takes effect at {@link #start}. Returns this.
     */
    public HttpServer policy(HttpServerPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /** The policy {@link #start} serves with. */
    public HttpServerPolicy policy() {
        return policy;
    }

    /**
     * The policy's defaults with the connection cap at {@link #defaultMaxConnections()}: what the server serves with
     * unless told otherwise.
     */
    public static HttpServerPolicy defaultPolicy() {
        return HttpServerPolicy.builder().maxConnections(defaultMaxConnections()).build();
    }

    /**
     * The read-side timeouts of every connection, in the older dialect: sets the policy's head, idle, body-rate and
     * write timeouts from {@code timeouts} (copied now), keeping its other values. Takes effect at {@link #start}.
     * Returns this.
     */
    public HttpServer timeouts(HttpServerTimeouts timeouts) {
        HttpServerPolicy from = HttpServerPolicy.of(timeouts);
        this.policy = policy.toBuilder().requestHeadTimeout(from.requestHeadTimeout()).idleTimeout(from.idleTimeout())
                .minBodyRate(from.minBodyRate(), from.bodyRateGracePeriod(), from.bodyRateWindow())
                .writeTimeout(from.writeTimeout()).build();
        return this;
    }

    /**
     * How long an HTTP/2 stream the client has not finished sending (no END_STREAM yet) may receive nothing before
     * it is reset with RST_STREAM CANCEL; 0 turns it off (the policy's
     * {@linkplain HttpServerPolicy#streamReadTimeout() stream read timeout}). Defaults to
     * {@value Http2FrameCodec#DEFAULT_STREAM_READ_TIMEOUT_MILLIS} ms. Takes effect at {@link #start}. Returns this.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public HttpServer streamReadTimeout(long timeout, TimeUnit unit) {
        if (timeout < 0) {
            throw new IllegalArgumentException("streamReadTimeout: " + timeout + " (expected: >= 0)");
        }
        this.policy = policy.toBuilder().streamReadTimeout(Duration.ofNanos(unit.toNanos(timeout))).build();
        return this;
    }

    /**
     * The most connections open at once ({@link #NO_CONNECTION_LIMIT}: no cap); more are closed as they are
     * accepted (see {@link ConnectionLimitHandler}): the policy's {@linkplain HttpServerPolicy#maxConnections() cap}.
     * Defaults to {@link #defaultMaxConnections()}. Takes effect at {@link #start}. Returns this.
     *
     * @throws IllegalArgumentException if {@code maxConnections} is negative
     */
    public HttpServer maxConnections(int maxConnections) {
        this.policy = policy.toBuilder().maxConnections(maxConnections).build();
        return this;
    }

    /**
     * The default connection cap: the process's descriptor limit less {@value #RESERVED_DESCRIPTORS}, so that
     * accepting never runs the process out of descriptors; {@link #NO_CONNECTION_LIMIT} where the limit cannot be
     * read (not a Unix JVM).
     */
    public static int defaultMaxConnections() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            long max = unix.getMaxFileDescriptorCount();
            if (max > 0) {
                return (int) Math.max(1, Math.min(Integer.MAX_VALUE, max - RESERVED_DESCRIPTORS));
            }
        }
        return NO_CONNECTION_LIMIT;
    }

    /**
     * The TLS context of {@link #startTls} (a server context; ALPN {@code h2} and {@code http/1.1} are offered when it
     * names them, see {@link #selfSignedTls()}). Takes effect at {@link #startTls}. Returns this.
     */
    public HttpServer tls(SslContext context) {
        if (!Objects.requireNonNull(context, "context").isServer()) {
            throw new IllegalArgumentException("a server SslContext is needed: " + context);
        }
        this.tls = context;
        return this;
    }

    /**
     * A TLS context with a new self-signed certificate for {@code localhost} and {@code 127.0.0.1}, offering h2 and
     * http/1.1 by ALPN: what the example serves when no certificate is given.
     */
    public static SslContext selfSignedTls() throws SSLException {
        SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
        return SslContextBuilder.forServer(cert.privateKey(), cert.certificate())
                .applicationProtocols(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1)
                .build();
    }

    /**
     * The grpc-java services served on HTTP/2 (h2c and TLS), as {@link GrpcServices#builder()} built them;
     * {@link GrpcEchoService} unless set. Takes effect at {@link #start}. Returns this.
     */
    public HttpServer grpc(GrpcServices services) {
        this.grpc = Objects.requireNonNull(services, "services");
        return this;
    }

    /** The started server's connection cap, to read its counts; null before {@link #start} or with no cap. */
    public ConnectionLimitHandler connectionLimit() {
        return connectionLimit;
    }

    /**
     * Binds to {@code localAddress} (port 0 for any free port) and starts serving.
     *
     * @return the listening channel; its {@code localAddress()} is the address actually bound
     * @throws IllegalStateException if this server was started already
     * @throws IllegalArgumentException if the static root is not an existing directory
     * @throws InterruptedException if interrupted while waiting for the bind
     */
    public Channel start(SocketAddress localAddress) throws InterruptedException {
        Objects.requireNonNull(localAddress, "localAddress");
        synchronized (this) {
            if (channel != null) {
                throw new IllegalStateException("already started: " + channel);
            }
            WeirMetrics recorded = metrics;
            if (recorded != null) {
                recorded.addEventLoops(group);
                if (ByteBufAllocator.DEFAULT instanceof PooledByteBufAllocator pooled) {
                    recorded.addAllocator("default", pooled.metric());
                }
            }
            HttpMetrics httpMetrics = recorded == null ? null : recorded.http();
            ChannelHandler responseMetrics = recorded == null ? null : new HttpResponseMetricsHandler(httpMetrics);
            HttpServerHandler handler = new HttpServerHandler(recorded);
            StaticFileHandler staticFiles = new StaticFileHandler(staticRoot);
            DefaultHttpDataFactory uploadFactory = UploadHandler.newFactory(uploadDirectory, maxUploadFileSizeBytes);
            HttpPostDecoderConfig uploadLimits = uploadConfig;
            HttpServerPolicy serving = policy;
            boolean proxied = proxyProtocol;
            ChannelInitializer<Channel> routes = new ChannelInitializer<>() {
                @Override
                protected void initChannel(Channel ch) {
                    // After the policy's HttpServerCodec, which owns keep-alive and the timeouts (and counts the
                    // responses, when metrics are on).
                    ch.pipeline().addLast(
                            // Streaming routes first: what they answer never reaches the aggregator.
                            staticFiles.newConnectionHandler(),
                            UploadHandler.newConnectionHandler(uploadFactory, uploadLimits),
                            new HttpObjectAggregator(MAX_CONTENT_LENGTH_BYTES),
                            // GET /ws upgrades to a WebSocket echo; GET /ws.html is a page that uses it.
                            WebSocketRoute.newUpgradeHandler(), WebSocketRoute.newEchoHandler(),
                            handler);
                }
            };
            ChannelHandler webSocketOverHttp2 = WebSocketRoute.newHttp2Handler();
            // Each HTTP/2 stream is an HTTP/1.1 exchange for the same handlers.
            ChannelInitializer<Channel> stream = new ChannelInitializer<>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(
                            // An extended CONNECT to /ws (RFC 8441) becomes the WebSocket echo on this stream.
                            webSocketOverHttp2,
                            new Http2StreamFrameToHttpObjectCodec());
                    if (responseMetrics != null) {
                        // A stream has no HTTP/1.1 codec to count its response.
                        ch.pipeline().addLast(responseMetrics);
                    }
                    ch.pipeline().addLast(
                            staticFiles.newConnectionHandler(),
                            UploadHandler.newConnectionHandler(uploadFactory, uploadLimits),
                            new EchoHandler(MAX_CONTENT_LENGTH_BYTES),
                            new HttpObjectAggregator(MAX_CONTENT_LENGTH_BYTES),
                            WebSocketRoute.newEchoHandler(), // serves /ws.html
                            handler);
                }
            };
            // The policy's HTTP/2 side is applied by the initializer; the codec adds extended CONNECT.
            Http2FrameCodecBuilder codec = Http2FrameCodecBuilder.forServer()
                    .initialSettings(new Http2Settings().connectProtocolEnabled(true));
            // gRPC calls go to the gRPC services, other streams to the HTTP handlers.
            HttpServerInitializer.Builder pipeline = HttpServerInitializer.builder(routes).policy(serving)
                    .http2(codec).http2StreamHandler(grpc.streamHandler(stream));
            if (httpMetrics != null) {
                pipeline.metrics(httpMetrics);
            }
            HttpServerInitializer http = pipeline.build();
            ConnectionLimitHandler limit = http.connectionLimit();
            tlsPipeline = pipeline;
            Channel bound = newBootstrap(limit)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            channels.add(ch);
                            addConnectionMetrics(ch, recorded);
                            addProxyProtocol(ch, proxied);
                            // h2c by prior knowledge or Upgrade, else HTTP/1.1: the first bytes decide.
                            ch.pipeline().addLast(http);
                        }
                    })
                    .bind(localAddress).sync().channel();
            channels.add(bound);
            connectionLimit = limit;
            channel = bound;
            return bound;
        }
    }

    /**
     * Serves the same routes over TLS on {@code localAddress}, after {@link #start}: HTTP/2 when the client offers
     * {@code h2} by ALPN, HTTP/1.1 otherwise, each with the same pipeline and limits as the plain port and the same
     * connection cap. Static files go out in chunks (TLS encrypts in the JVM, so no sendfile). The context is the
     * one given to {@link #tls}, or {@link #selfSignedTls()}.
     *
     * @return the TLS listening channel
     * @throws IllegalStateException if {@link #start} has not run, or TLS was started already
     * @throws InterruptedException if interrupted while waiting for the bind
     * @throws SSLException if the self-signed context cannot be made (no context was given)
     */
    public Channel startTls(SocketAddress localAddress) throws InterruptedException, SSLException {
        Objects.requireNonNull(localAddress, "localAddress");
        synchronized (this) {
            if (channel == null) {
                throw new IllegalStateException("start(...) the plain port first");
            }
            if (tlsChannel != null) {
                throw new IllegalStateException("TLS already started: " + tlsChannel);
            }
            SslContext context = tls != null ? tls : selfSignedTls();
            tls = context;
            boolean proxied = proxyProtocol;
            WeirMetrics recorded = metrics;
            // The same pipeline behind TLS: h2 or HTTP/1.1 as ALPN chooses; the handshake has its own timeout (10 s).
            HttpServerInitializer.Builder pipeline = tlsPipeline.tls(context);
            if (recorded != null) {
                pipeline.tlsMetrics(recorded.tls());
            }
            HttpServerInitializer https = pipeline.build();
            Channel bound = newBootstrap(connectionLimit)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            channels.add(ch);
                            addConnectionMetrics(ch, recorded);
                            // A balancer's PROXY header comes before the TLS handshake.
                            addProxyProtocol(ch, proxied);
                            ch.pipeline().addLast(https);
                        }
                    })
                    .bind(localAddress).sync().channel();
            channels.add(bound);
            tlsChannel = bound;
            return bound;
        }
    }

    /** Counts the connection into {@code recorded}, first in its pipeline (to see the socket's bytes); if any. */
    private static void addConnectionMetrics(Channel ch, WeirMetrics recorded) {
        if (recorded != null) {
            ch.pipeline().addLast(new ChannelMetricsHandler(recorded.channels()));
        }
    }

    /** A bootstrap for a listening channel of this server, with the connection cap (if any) on it. */
    private ServerBootstrap newBootstrap(ConnectionLimitHandler limit) {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(Transports.serverChannel(group))
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true);
        return limit == null ? bootstrap : bootstrap.handler(limit);
    }

    /** The TLS context {@link #startTls} serves with; null before it (unless set with {@link #tls}). */
    public SslContext tlsContext() {
        return tls;
    }

    /**
     * Drains the server gracefully ({@link ServerDrain}): stops listening on both ports, lets each connection
     * finish the exchange in flight (HTTP/1.1: the response owed, with {@code Connection: close}, idle keep-alives
     * closed at once; HTTP/2: GOAWAY, the open streams answered, the final GOAWAY; WebSocket: close 1001), and
     * resets what is still open after {@code timeout}. Then the event loops can be shut down with nothing to cut.
     *
     * @return a future completing once every connection has closed, with how many were reset at the deadline
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public Future<Integer> drain(long timeout, TimeUnit unit) {
        return ServerDrain.drain(channels, timeout, unit);
    }

    /** Stops listening (both ports) and waits until the listening channels are closed; does nothing if never started. */
    @Override
    public void close() {
        Channel tlsCh = tlsChannel;
        if (tlsCh != null) {
            tlsCh.close().awaitUninterruptibly();
        }
        Channel ch = channel;
        if (ch != null) {
            ch.close().awaitUninterruptibly();
        }
    }

    /** What {@code --help} prints. */
    static final String USAGE = """
            usage: server/run [options]
              --port N                 port to listen on (default 8080)
              --transport T            I/O transport: nio, epoll or io_uring (default: epoll where
                                       available, else nio)
              --static-root DIR        serve GET /static/<path> from DIR (default: none, 404)
              --tls-port N             port for HTTPS (HTTP/2 or HTTP/1.1 by ALPN), or off (default 8443)
              --tls-cert FILE          PEM certificate chain for HTTPS (default: a new self-signed one)
              --tls-key FILE           PEM private key of --tls-cert (PKCS#8, PKCS#1 or SEC1)
              --head-timeout T         time for a request head to arrive, from connection start or from the
                                       request's first byte; then 408 and close (default 10s); also the time
                                       a new connection has to send the HTTP/2 preface or a request line
              --idle-timeout T         time a kept-alive connection may stay silent between requests;
                                       then closed quietly (default 75s); for HTTP/2, time without a stream,
                                       then GOAWAY and close
              --min-body-rate B        slowest request body in bytes/s, averaged over 10 s windows after a
                                       5 s grace period; below it 408 and close (default 1024); for HTTP/2,
                                       per stream, then RST_STREAM CANCEL
              --write-timeout T        time a client may read none of the output queued for it; then the
                                       connection is closed (default 30s)
              --stream-read-timeout T  time an HTTP/2 stream the client has not finished may receive
                                       nothing; then RST_STREAM CANCEL (default 30s)
              --keep-alive on|off      keep HTTP/1.1 connections open between requests (default on)
              --max-connections N      connections open at once; more are closed as they are accepted
                                       (default auto: the descriptor limit less 256)
              --proxy-protocol on|off  every connection starts with a PROXY protocol v1/v2 header (behind
                                       haproxy send-proxy or send-proxy-v2); /headers shows the client's
                                       address from it (default off)
              --drain-timeout T        on Ctrl-C (SIGTERM), time the connections get to finish what is in
                                       flight before they are reset (default 30s)
              --metrics [on|off]       record metrics and serve them at GET /metrics in the Prometheus text
                                       format, names prefixed weir_ (default off: /metrics is 404)
            T is a duration such as 300ms, 10s or 2m (a bare number is seconds); 0 or off turns a timeout,
            the body rate or the cap off.""";

    /**
     * Starts the server with the options of {@link #USAGE} (also {@code -Dio.weir.server.port} and
     * {@code -Dio.weir.server.transport}); epoll by default where available.
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.getInteger("io.weir.server.port", DEFAULT_PORT);
        String transportName = System.getProperty("io.weir.server.transport");
        Path staticRoot = null;
        HttpServerPolicy.Builder policy = defaultPolicy().toBuilder();
        int tlsPort = DEFAULT_TLS_PORT;
        long drainTimeoutMillis = ServerDrain.DEFAULT_TIMEOUT_MILLIS;
        boolean proxyProtocol = false;
        boolean metrics = false;
        Path tlsCert = null;
        Path tlsKey = null;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("-h") || option.equals("--help")) {
                System.out.println(USAGE);
                return;
            }
            if (option.equals("--metrics") && (i + 1 >= args.length || args[i + 1].startsWith("--"))) {
                // The one switch that may stand alone.
                metrics = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + ": missing value");
            }
            String value = args[++i];
            switch (option) {
                case "--port" -> port = Integer.parseInt(value);
                case "--transport" -> transportName = value;
                case "--static-root" -> staticRoot = Path.of(value);
                case "--tls-port" -> tlsPort = value.equals("off") ? -1 : Integer.parseInt(value);
                case "--tls-cert" -> tlsCert = Path.of(value);
                case "--tls-key" -> tlsKey = Path.of(value);
                case "--drain-timeout" -> drainTimeoutMillis = parseMillis(option, value);
                case "--proxy-protocol" -> proxyProtocol = parseSwitch(option, value);
                case "--metrics" -> metrics = parseSwitch(option, value);
                default -> {
                    if (!policyOption(policy, option, value)) {
                        throw new IllegalArgumentException("unknown option: " + option + "\n" + USAGE);
                    }
                }
            }
        }
        IoHandlerFactory io = ioHandlerFactory(transportName);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, io);
        HttpServerPolicy serving = policy.build();
        HttpServer server = new HttpServer(group).staticRoot(staticRoot).policy(serving)
                .proxyProtocol(proxyProtocol).metrics(metrics ? new WeirMetrics() : null);
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together\n" + USAGE);
        }
        if (tlsCert != null) {
            server.tls(SslContextBuilder.forServer(tlsCert, tlsKey)
                    .applicationProtocols(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1).build());
        }
        long drainMillis = drainTimeoutMillis;
        Thread shutdown = new Thread(() -> {
            System.out.println("Draining (at most " + drainMillis + " ms) ...");
            Future<Integer> drained = server.drain(drainMillis, TimeUnit.MILLISECONDS).awaitUninterruptibly();
            System.out.println("Drained" + (drained.isSuccess() && drained.getNow() > 0
                    ? ", " + drained.getNow() + " connections reset at the deadline" : "") + "; shutting down");
            group.shutdownGracefully(0, 5_000, TimeUnit.MILLISECONDS).awaitUninterruptibly();
        }, "weir-http-server-shutdown");
        try {
            Channel channel = server.start(new InetSocketAddress(port));
            Runtime.getRuntime().addShutdownHook(shutdown);
            InetSocketAddress bound = (InetSocketAddress) channel.localAddress();
            String channelType = channel.getClass().getSimpleName();
            String transport = channelType.startsWith("Epoll") ? "epoll"
                    : channelType.startsWith("IoUring") ? "io_uring" : "nio";
            System.out.println("Weir HTTP server (" + transport + ") on http://127.0.0.1:" + bound.getPort()
                    + "/  routes: /plaintext /json /echo (POST) /headers"
                    + " /static/ (" + (staticRoot != null ? staticRoot : "no --static-root: 404") + ") /upload (POST)"
                    + " /ws (WebSocket echo) /ws.html" + (metrics ? " /metrics (Prometheus)" : "") + "; gRPC "
                    + GrpcEchoService.SERVICE + " on HTTP/2");
            if (tlsPort >= 0) {
                InetSocketAddress tlsBound = (InetSocketAddress) server.startTls(new InetSocketAddress(tlsPort))
                        .localAddress();
                System.out.println("  HTTPS (h2 and http/1.1 by ALPN) on https://127.0.0.1:" + tlsBound.getPort()
                        + "/ with the " + server.tlsContext().provider() + " TLS engine"
                        + (tlsCert == null ? " and a self-signed certificate (curl -k)" : " and " + tlsCert)
                        + (OpenSsl.isAvailable() ? " (" + OpenSsl.versionString()
                        + " available)" : " (OpenSSL unavailable: " + OpenSsl.unavailabilityCause()
                        + ")"));
            }
            System.out.println("  " + serving);
            channel.closeFuture().sync();
        } catch (Throwable t) {
            group.shutdownGracefully(0, 1_000, TimeUnit.MILLISECONDS);
            throw t;
        }
    }

    /**
     * A duration option in milliseconds: {@code 300ms}, {@code 10s}, {@code 2m}, a bare number of seconds, or
     * {@code 0}/{@code off}.
     *
     * @throws IllegalArgumentException if {@code value} is none of those
     */
    static long parseMillis(String option, String value) {
        if (value.equals("off")) {
            return 0;
        }
        try {
            if (value.endsWith("ms")) {
                return nonNegative(option, value, Long.parseLong(value.substring(0, value.length() - 2)));
            }
            if (value.endsWith("s")) {
                return nonNegative(option, value, Long.parseLong(value.substring(0, value.length() - 1))) * 1000;
            }
            if (value.endsWith("m")) {
                return nonNegative(option, value, Long.parseLong(value.substring(0, value.length() - 1))) * 60_000;
            }
            return nonNegative(option, value, Long.parseLong(value)) * 1000;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": " + value + " (expected: a duration such as 300ms, 10s, "
                    + "2m, or 0/off)");
        }
    }

    /**
     * Applies {@code option} to {@code policy} if it is one of the policy's options (each is one value of the
     * server's {@link HttpServerPolicy}); returns whether it was.
     *
     * @throws IllegalArgumentException if the value is not valid for the option
     */
    static boolean policyOption(HttpServerPolicy.Builder policy, String option, String value) {
        switch (option) {
            case "--head-timeout" -> policy.requestHeadTimeout(parseDuration(option, value));
            case "--idle-timeout" -> policy.idleTimeout(parseDuration(option, value));
            case "--min-body-rate" -> policy.minBodyRate(parseCount(option, value));
            case "--write-timeout" -> policy.writeTimeout(parseDuration(option, value));
            case "--stream-read-timeout" -> policy.streamReadTimeout(parseDuration(option, value));
            case "--keep-alive" -> policy.keepAlive(parseSwitch(option, value));
            case "--max-connections" -> policy.maxConnections(value.equals("auto") ? defaultMaxConnections()
                    : (int) Math.min(Integer.MAX_VALUE, parseCount(option, value)));
            default -> {
                return false;
            }
        }
        return true;
    }

    /** A duration option ({@link #parseMillis}) as a {@link Duration}. */
    static Duration parseDuration(String option, String value) {
        return Duration.ofMillis(parseMillis(option, value));
    }

    /**
     * A count option: a non-negative number, or {@code off} for 0.
     *
     * @throws IllegalArgumentException if {@code value} is neither
     */
    static long parseCount(String option, String value) {
        if (value.equals("off")) {
            return 0;
        }
        try {
            return nonNegative(option, value, Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": " + value + " (expected: a number >= 0, or off)");
        }
    }

    /**
     * An on/off option: {@code on}/{@code true} or {@code off}/{@code false}.
     *
     * @throws IllegalArgumentException for anything else
     */
    static boolean parseSwitch(String option, String value) {
        return switch (value) {
            case "on", "true" -> true;
            case "off", "false" -> false;
            default -> throw new IllegalArgumentException(option + ": " + value + " (expected: on or off)");
        };
    }

    private static long nonNegative(String option, String value, long parsed) {
        if (parsed < 0) {
            throw new IllegalArgumentException(option + ": " + value + " (expected: >= 0)");
        }
        return parsed;
    }

    /** The named transport's I/O handlers, or epoll where available and NIO otherwise when none is named. */
    private static IoHandlerFactory ioHandlerFactory(String name) {
        if (name == null) {
            return Transports.ioHandlerFactory();
        }
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "nio" -> NioIoHandler.newFactory();
            case "epoll" -> {
                Epoll.ensureAvailability();
                yield EpollIoHandler.newFactory();
            }
            case "io_uring" -> {
                IoUring.ensureAvailability();
                yield IoUringIoHandler.newFactory();
            }
            default -> throw new IllegalArgumentException("--transport: " + name
                    + " (expected: nio, epoll or io_uring)");
        };
    }
}
