package io.weir.example.http;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.Epoll;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.example.Transports;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpServerKeepAliveHandler;
import io.weir.handler.codec.http.multipart.DefaultHttpDataFactory;
import io.weir.handler.codec.http2.Http2CleartextServerHandler;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2ServerInitializer;
import io.weir.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.weir.handler.codec.http.multipart.HttpPostDecoderConfig;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The example HTTP server, HTTP/1.1 and h2c (HTTP/2 by prior knowledge or by Upgrade, on the same port; each
 * HTTP/2 stream is served by the same handlers through {@link Http2StreamFrameToHttpObjectCodec}, static files in
 * chunks rather than by sendfile):
 * {@code /plaintext}, {@code /json}, {@code /echo} and {@code /headers} (see
 * {@link HttpServerHandler}), {@code GET|HEAD /static/<path>} files from the static root, zero copy, with ETags,
 * conditional requests and ranges ({@link StaticFileHandler}; 404 when no root is set), and {@code POST /upload}
 * multipart decoding that reports each field ({@link UploadHandler}); on the native epoll transport where it is
 * available and on NIO otherwise ({@link Transports}).
 *
 * <p>{@code /static} and {@code /upload} stream: their handlers sit before the aggregator, so file bodies and
 * uploads are never held whole in memory; every other request is aggregated up to
 * {@value #MAX_CONTENT_LENGTH_BYTES} bytes.
 *
 * <p>Run it with {@code examples/run http.HttpServer [--port 8080] [--transport nio|epoll] [--static-root DIR]};
 * it prints its URL and
 * shuts down gracefully on Ctrl-C (in-flight responses are written, then the loops stop). From code:
 * {@link #start} binds and returns the listening channel, {@link #close} stops listening.
 */
public final class HttpServer implements AutoCloseable {
    /** The port {@link #main} listens on when none is given. */
    public static final int DEFAULT_PORT = 8080;
    /** The largest request body the server accepts; a larger one is answered with 413 and the connection closed. */
    public static final int MAX_CONTENT_LENGTH_BYTES = 1 << 20;

    private final EventLoopGroup group;
    private volatile Channel channel;
    private volatile Path staticRoot;
    private volatile Path uploadDirectory;
    private volatile HttpPostDecoderConfig uploadConfig = new HttpPostDecoderConfig();
    private volatile long maxUploadFileSizeBytes = UploadHandler.DEFAULT_MAX_FILE_SIZE_BYTES;

    /**
     * A server whose listening socket and connections run on {@code group} (NIO or epoll loops: the channel
     * classes follow), which the caller owns and shuts down.
     */
    public HttpServer(EventLoopGroup group) {
        this.group = Objects.requireNonNull(group, "group");
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
            HttpServerHandler handler = new HttpServerHandler();
            StaticFileHandler staticFiles = new StaticFileHandler(staticRoot);
            DefaultHttpDataFactory uploadFactory = UploadHandler.newFactory(uploadDirectory, maxUploadFileSizeBytes);
            HttpPostDecoderConfig uploadLimits = uploadConfig;
            ChannelInitializer<Channel> http1 = new ChannelInitializer<>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(
                            new HttpServerCodec(),
                            new HttpServerKeepAliveHandler(),
                            // Streaming routes first: what they answer never reaches the aggregator.
                            staticFiles.newConnectionHandler(),
                            UploadHandler.newConnectionHandler(uploadFactory, uploadLimits),
                            new HttpObjectAggregator(MAX_CONTENT_LENGTH_BYTES),
                            handler);
                }
            };
            // Each HTTP/2 stream is an HTTP/1.1 exchange for the same handlers.
            ChannelInitializer<Channel> stream = new ChannelInitializer<>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(
                            new Http2StreamFrameToHttpObjectCodec(),
                            staticFiles.newConnectionHandler(),
                            UploadHandler.newConnectionHandler(uploadFactory, uploadLimits),
                            new HttpObjectAggregator(MAX_CONTENT_LENGTH_BYTES),
                            handler);
                }
            };
            Http2ServerInitializer http2 = new Http2ServerInitializer(Http2FrameCodecBuilder.forServer(), stream);
            Channel bound = new ServerBootstrap()
                    .group(group)
                    .channel(Transports.serverChannel(group))
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            // h2c by prior knowledge or Upgrade, else HTTP/1.1: the first bytes decide.
                            ch.pipeline().addLast(new Http2CleartextServerHandler(http2, http1));
                        }
                    })
                    .bind(localAddress).sync().channel();
            // See EchoServer.start: once a task queued now ran, the acceptor is in place.
            bound.eventLoop().submit(() -> { }).sync();
            channel = bound;
            return bound;
        }
    }

    /** Stops listening and waits until the listening channel is closed; does nothing if never started. */
    @Override
    public void close() {
        Channel ch = channel;
        if (ch != null) {
            ch.close().awaitUninterruptibly();
        }
    }

    /**
     * Starts the server: {@code [--port N] [--transport nio|epoll] [--static-root DIR]} (also {@code -Dio.weir.example.port} and
     * {@code -Dio.weir.example.transport}); epoll by default where available.
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.getInteger("io.weir.example.port", DEFAULT_PORT);
        String transportName = System.getProperty("io.weir.example.transport");
        Path staticRoot = null;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("-h") || option.equals("--help")) {
                System.out.println("usage: examples/run http.HttpServer [--port N] [--transport nio|epoll]"
                        + " [--static-root DIR]");
                return;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + ": missing value");
            }
            String value = args[++i];
            switch (option) {
                case "--port" -> port = Integer.parseInt(value);
                case "--transport" -> transportName = value;
                case "--static-root" -> staticRoot = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option: " + option
                        + " (expected: --port N, --transport nio|epoll, --static-root DIR)");
            }
        }
        IoHandlerFactory io = ioHandlerFactory(transportName);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, io);
        HttpServer server = new HttpServer(group).staticRoot(staticRoot);
        Thread shutdown = new Thread(() -> {
            System.out.println("Shutting down ...");
            server.close();
            group.shutdownGracefully(100, 5_000, TimeUnit.MILLISECONDS).awaitUninterruptibly();
        }, "weir-http-server-shutdown");
        try {
            Channel channel = server.start(new InetSocketAddress(port));
            Runtime.getRuntime().addShutdownHook(shutdown);
            InetSocketAddress bound = (InetSocketAddress) channel.localAddress();
            String transport = channel.getClass().getSimpleName().startsWith("Epoll") ? "epoll" : "nio";
            System.out.println("Weir HTTP server (" + transport + ") on http://127.0.0.1:" + bound.getPort()
                    + "/  routes: /plaintext /json /echo (POST) /headers"
                    + " /static/ (" + (staticRoot != null ? staticRoot : "no --static-root: 404") + ") /upload (POST)");
            channel.closeFuture().sync();
        } catch (Throwable t) {
            group.shutdownGracefully(0, 1_000, TimeUnit.MILLISECONDS);
            throw t;
        }
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
            default -> throw new IllegalArgumentException("--transport: " + name + " (expected: nio or epoll)");
        };
    }
}
