package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.TIMEOUT_SECONDS;
import static io.weir.handler.ssl.TlsTestSupport.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.EventLoopGroup;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** SslHandler on real sockets: JDK client x JDK server over NIO and epoll, mutual TLS, closing, hostile peers. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SslHandlerSocketTest {
    private final List<EventLoopGroup> groups = new ArrayList<>();
    private final List<Channel> channels = new ArrayList<>();
    /** TLS events seen by server connections, in order. */
    private final BlockingQueue<Object> serverEvents = new LinkedBlockingQueue<>();

    static Stream<SocketTransport> transports() {
        return SocketTransport.available().stream();
    }

    static Stream<Arguments> transportsAndProtocols() {
        return SocketTransport.available().stream()
                .flatMap(t -> Stream.of(Arguments.of(t, "TLSv1.2"), Arguments.of(t, "TLSv1.3")));
    }

    @AfterEach
    void tearDown() throws Exception {
        for (Channel c : channels) {
            c.close().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        for (EventLoopGroup g : groups) {
            g.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Echoes what it reads. */
    @ChannelHandler.Sharable
    static final class Echo implements ChannelHandler {
        static final Echo INSTANCE = new Echo();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /** Records TLS events into the test's queue. */
    final class EventRecorder implements ChannelHandler {
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof SslCompletionEvent) {
                serverEvents.add(evt);
            }
            ctx.fireUserEventTriggered(evt);
        }
    }

    /** Checks that the bytes read are the pattern {@link #patternByte} and completes once {@code expected} arrived. */
    static final class PatternReader implements ChannelHandler {
        final long expected;
        final CompletableFuture<Long> done = new CompletableFuture<>();
        long received;

        PatternReader(long expected) {
            this.expected = expected;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            try {
                byte[] bytes = new byte[b.readableBytes()];
                b.getBytes(b.readerIndex(), bytes);
                for (byte x : bytes) {
                    if (x != patternByte(received)) {
                        done.completeExceptionally(new AssertionError("byte " + received + " differs"));
                        return;
                    }
                    received++;
                }
                if (received >= expected) {
                    done.complete(received);
                }
            } finally {
                b.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.completeExceptionally(cause);
        }
    }

    static byte patternByte(long i) {
        return (byte) (i * 31 + (i >>> 11));
    }

    private EventLoopGroup group(SocketTransport t) {
        EventLoopGroup g = t.newGroup(2);
        groups.add(g);
        return g;
    }

    private InetSocketAddress server(SocketTransport t, EventLoopGroup g, SslContext ctx, long handshakeTimeoutMillis)
            throws Exception {
        Channel server = t.bind(g, ch -> {
            SslHandler ssl = ctx.newHandler(ch.alloc());
            if (handshakeTimeoutMillis > 0) {
                ssl.setHandshakeTimeout(handshakeTimeoutMillis, TimeUnit.MILLISECONDS);
            }
            ch.pipeline().addLast(ssl, new EventRecorder(), Echo.INSTANCE);
        });
        channels.add(server);
        return (InetSocketAddress) server.localAddress();
    }

    private Channel client(SocketTransport t, EventLoopGroup g, InetSocketAddress address, SslHandler ssl,
                           ChannelHandler... app) throws Exception {
        ChannelHandler[] handlers = new ChannelHandler[app.length + 1];
        handlers[0] = ssl;
        System.arraycopy(app, 0, handlers, 1, app.length);
        Channel c = t.connect(g, address, handlers);
        channels.add(c);
        return c;
    }

    /**
     * Writes {@code total} pattern bytes in chunks while the channel is writable, continuing when it becomes
     * writable again (added to the pipeline so that it sees writability changes).
     */
    static final class PatternWriter implements ChannelHandler {
        private final long total;
        private final int chunk;
        private ChannelHandlerContext ctx;
        private long sent;

        PatternWriter(long total, int chunk) {
            this.total = total;
            this.chunk = chunk;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        void start() {
            ctx.executor().execute(this::writeWhileWritable);
        }

        private void writeWhileWritable() {
            Channel ch = ctx.channel();
            while (sent < total && ch.isWritable()) {
                int n = (int) Math.min(chunk, total - sent);
                ByteBuf b = ctx.alloc().directBuffer(n);
                // One bulk write per chunk: at PARANOID each buffer access records a stack trace.
                byte[] bytes = new byte[n];
                for (int i = 0; i < n; i++) {
                    bytes[i] = patternByte(sent + i);
                }
                b.writeBytes(bytes);
                sent += n;
                ctx.write(b);
            }
            ctx.flush();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) {
                writeWhileWritable();
            }
            ctx.fireChannelWritabilityChanged();
        }
    }

    @ParameterizedTest
    @MethodSource("transportsAndProtocols")
    void echoOverEachTransportAndProtocol(SocketTransport t, String protocol) throws Exception {
        EventLoopGroup g = group(t);
        InetSocketAddress address = server(t, g, TlsTestSupport.server().build(), 0);
        SslHandler ssl = TlsTestSupport.client(protocol).build().newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT,
                "localhost", address.getPort());
        PatternReader reader = new PatternReader(256 * 1024);
        PatternWriter writer = new PatternWriter(reader.expected, 1000);
        client(t, g, address, ssl, writer, reader);
        await(ssl.handshakeFuture());
        assertThat(ssl.handshakeFuture().isSuccess()).as("%s", ssl.handshakeFuture().cause()).isTrue();
        assertThat(ssl.session().getProtocol()).isEqualTo(protocol);
        writer.start();
        assertThat(reader.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(reader.expected);
        assertThat(serverEvents.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isSameAs(SslHandshakeCompletionEvent.SUCCESS);
    }

    @ParameterizedTest
    @MethodSource("transports")
    void hundredMebibytesComeBackByteForByte(SocketTransport t) throws Exception {
        EventLoopGroup g = group(t);
        InetSocketAddress address = server(t, g, TlsTestSupport.server().build(), 0);
        SslHandler ssl = TlsTestSupport.client().build().newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT,
                "localhost", address.getPort());
        PatternReader reader = new PatternReader(100L * 1024 * 1024);
        PatternWriter writer = new PatternWriter(reader.expected, 64 * 1024);
        client(t, g, address, ssl, writer, reader);
        await(ssl.handshakeFuture());
        writer.start();
        assertThat(reader.done.get(90, TimeUnit.SECONDS)).isEqualTo(reader.expected);
    }

    @Test
    void mutualTlsRequireAcceptsATrustedClientAndRefusesOneWithoutCertificate() throws Exception {
        SocketTransport t = SocketTransport.NIO;
        EventLoopGroup g = group(t);
        SslContext serverCtx = TlsTestSupport.server().clientAuth(ClientAuth.REQUIRE)
                .trustManager(TlsTestSupport.CLIENT_CERT.certificate()).build();
        InetSocketAddress address = server(t, g, serverCtx, 0);

        SslHandler withCert = TlsTestSupport.client()
                .keyManager(TlsTestSupport.CLIENT_CERT.privateKey(), TlsTestSupport.CLIENT_CERT.certificate()).build()
                .newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT, "localhost", address.getPort());
        client(t, g, address, withCert);
        await(withCert.handshakeFuture());
        assertThat(withCert.handshakeFuture().isSuccess()).as("%s", withCert.handshakeFuture().cause()).isTrue();
        assertThat(serverEvents.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isSameAs(SslHandshakeCompletionEvent.SUCCESS);

        SslHandler without = TlsTestSupport.client().build()
                .newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT, "localhost", address.getPort());
        Channel c = client(t, g, address, without);
        Object serverEvent = serverEvents.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(serverEvent).isInstanceOfSatisfying(SslHandshakeCompletionEvent.class,
                e -> assertThat(e.isSuccess()).isFalse());
        assertThat(c.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void mutualTlsOptionalAcceptsClientsWithAndWithoutCertificate() throws Exception {
        SocketTransport t = SocketTransport.NIO;
        EventLoopGroup g = group(t);
        SslContext serverCtx = TlsTestSupport.server().clientAuth(ClientAuth.OPTIONAL)
                .trustManager(TlsTestSupport.CLIENT_CERT.certificate()).build();
        BlockingQueue<SslHandler> serverHandlers = new LinkedBlockingQueue<>();
        Channel server = t.bind(g, ch -> {
            SslHandler ssl = serverCtx.newHandler(ch.alloc());
            serverHandlers.add(ssl);
            ch.pipeline().addLast(ssl, Echo.INSTANCE);
        });
        channels.add(server);
        InetSocketAddress address = (InetSocketAddress) server.localAddress();

        SslHandler without = TlsTestSupport.client().build()
                .newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT, "localhost", address.getPort());
        client(t, g, address, without);
        await(without.handshakeFuture());
        assertThat(without.handshakeFuture().isSuccess()).isTrue();
        SslHandler serverSide = serverHandlers.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        await(serverSide.handshakeFuture());
        assertThat(serverSide.handshakeFuture().isSuccess()).isTrue();

        SslHandler with = TlsTestSupport.client()
                .keyManager(TlsTestSupport.CLIENT_CERT.privateKey(), TlsTestSupport.CLIENT_CERT.certificate()).build()
                .newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT, "localhost", address.getPort());
        client(t, g, address, with);
        await(with.handshakeFuture());
        serverSide = serverHandlers.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        await(serverSide.handshakeFuture());
        assertThat(serverSide.session().getPeerPrincipal().getName()).isEqualTo("CN=weir-client");
    }

    @Test
    void tls12SessionIsResumedBySessionId() throws Exception {
        SocketTransport t = SocketTransport.NIO;
        EventLoopGroup g = group(t);
        InetSocketAddress address = server(t, g, TlsTestSupport.server().build(), 0);
        SslContext clientCtx = TlsTestSupport.client("TLSv1.2").build();
        byte[][] ids = new byte[2][];
        long[] created = new long[2];
        for (int i = 0; i < 2; i++) {
            SslHandler ssl = clientCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT, "localhost", address.getPort());
            Channel c = client(t, g, address, ssl);
            await(ssl.handshakeFuture());
            assertThat(ssl.handshakeFuture().isSuccess()).isTrue();
            ids[i] = ssl.session().getId();
            created[i] = ssl.session().getCreationTime();
            c.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(ids[0]).isNotEmpty();
        assertThat(ids[1]).as("the second connection resumed the first session").isEqualTo(ids[0]);
        assertThat(created[1]).isEqualTo(created[0]);
    }

    @ParameterizedTest
    @MethodSource("transportsAndProtocols")
    void closeNotifyBothWays(SocketTransport t, String protocol) throws Exception {
        EventLoopGroup g = group(t);
        BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
        SslContext serverCtx = TlsTestSupport.server().build();
        Channel server = t.bind(g, ch -> {
            accepted.add(ch);
            ch.pipeline().addLast(serverCtx.newHandler(ch.alloc()), new EventRecorder(), Echo.INSTANCE);
        });
        channels.add(server);
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        SslContext clientCtx = TlsTestSupport.client(protocol).build();

        // Client closes: the server sees close_notify and answers; the client's close completes on the answer.
        SslHandler ssl = clientCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT, "localhost", address.getPort());
        Channel c = client(t, g, address, ssl);
        await(ssl.handshakeFuture());
        assertThat(serverEvents.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isSameAs(SslHandshakeCompletionEvent.SUCCESS);
        c.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(serverEvents.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isSameAs(SslCloseCompletionEvent.SUCCESS);
        await(ssl.sslCloseFuture());
        assertThat(ssl.sslCloseFuture().isSuccess()).as("the server answered close_notify: %s",
                ssl.sslCloseFuture().cause()).isTrue();

        // Server closes: the client sees close_notify.
        accepted.clear();
        SslHandler ssl2 = clientCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT, "localhost", address.getPort());
        Channel c2 = client(t, g, address, ssl2);
        await(ssl2.handshakeFuture());
        // The client completes first (its Finished is the last message); the server must have completed too, or its
        // close is an abort without close_notify.
        assertThat(serverEvents.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isSameAs(SslHandshakeCompletionEvent.SUCCESS);
        accepted.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS).close();
        await(ssl2.sslCloseFuture());
        assertThat(ssl2.sslCloseFuture().isSuccess()).as("%s", ssl2.sslCloseFuture().cause()).isTrue();
        assertThat(c2.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void hostnameMismatchFailsTheHandshake() throws Exception {
        SocketTransport t = SocketTransport.NIO;
        EventLoopGroup g = group(t);
        InetSocketAddress address = server(t, g, TlsTestSupport.server().build(), 0);
        SslHandler ssl = TlsTestSupport.client().build().newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT,
                "not-localhost.example", address.getPort());
        client(t, g, address, ssl);
        await(ssl.handshakeFuture());
        assertThat(ssl.handshakeFuture().cause()).isInstanceOf(javax.net.ssl.SSLHandshakeException.class);
    }

    @Test
    void delegatedTasksRunOnTheGivenExecutor() throws Exception {
        SocketTransport t = SocketTransport.NIO;
        EventLoopGroup g = group(t);
        ExecutorService tasks = Executors.newSingleThreadExecutor();
        try {
            SslContext serverCtx = TlsTestSupport.server().build();
            Channel server = t.bind(g, ch -> ch.pipeline().addLast(
                    serverCtx.newHandler(ch.alloc(), null, -1, tasks), Echo.INSTANCE));
            channels.add(server);
            InetSocketAddress address = (InetSocketAddress) server.localAddress();
            SslHandler ssl = TlsTestSupport.client().build().newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT,
                    "localhost", address.getPort(), tasks);
            PatternReader reader = new PatternReader(100_000);
            PatternWriter writer = new PatternWriter(reader.expected, 4096);
            client(t, g, address, ssl, writer, reader);
            await(ssl.handshakeFuture());
            assertThat(ssl.handshakeFuture().isSuccess()).as("%s", ssl.handshakeFuture().cause()).isTrue();
            writer.start();
            assertThat(reader.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(reader.expected);
        } finally {
            tasks.shutdownNow();
        }
    }

    // ----------------------------------------------------------------------------- hostile peers (raw sockets)

    /** Sends {@code bytes} (may be empty) and returns what the server does: -1 for a close. */
    private static int sendAndAwaitClose(InetSocketAddress address, byte[] bytes) throws Exception {
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            OutputStream out = s.getOutputStream();
            out.write(bytes);
            out.flush();
            InputStream in = s.getInputStream();
            try {
                for (;;) {
                    int b = in.read();
                    if (b < 0) {
                        return -1;
                    }
                }
            } catch (SocketException reset) {
                return -1;
            }
        }
    }

    private Throwable handshakeFailure() throws InterruptedException {
        Object e = serverEvents.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(e).isInstanceOf(SslHandshakeCompletionEvent.class);
        return ((SslHandshakeCompletionEvent) e).cause();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void plaintextOnTlsPortIsClosed(SocketTransport t) throws Exception {
        InetSocketAddress address = server(t, group(t), TlsTestSupport.server().build(), 0);
        assertThat(sendAndAwaitClose(address, "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo(-1);
        assertThat(handshakeFailure()).isInstanceOf(NotSslRecordException.class);
    }

    @ParameterizedTest
    @MethodSource("transports")
    void sslv2StyleHelloIsClosed(SocketTransport t) throws Exception {
        InetSocketAddress address = server(t, group(t), TlsTestSupport.server().build(), 0);
        // SSLv2 record header: high bit set, 15-bit length, then CLIENT-HELLO (1) and version 3.1.
        assertThat(sendAndAwaitClose(address, new byte[] {(byte) 0x80, 0x2e, 0x01, 0x03, 0x01, 0, 0x15, 0, 0, 0, 0x10}))
                .isEqualTo(-1);
        assertThat(handshakeFailure()).isInstanceOf(NotSslRecordException.class);
    }

    @ParameterizedTest
    @MethodSource("transports")
    void oversizedRecordIsRejected(SocketTransport t) throws Exception {
        InetSocketAddress address = server(t, group(t), TlsTestSupport.server().build(), 0);
        // A handshake record announcing 65535 bytes: rejected on its header, before 18 KiB are buffered.
        assertThat(sendAndAwaitClose(address, new byte[] {0x16, 0x03, 0x01, (byte) 0xFF, (byte) 0xFF, 1, 0, 0}))
                .isEqualTo(-1);
        Throwable cause = handshakeFailure();
        assertThat(cause).isInstanceOfSatisfying(NotSslRecordException.class,
                e -> assertThat(e.recordLength()).isEqualTo(65535));
    }

    @ParameterizedTest
    @MethodSource("transports")
    void silentHandshakeTimesOut(SocketTransport t) throws Exception {
        InetSocketAddress address = server(t, group(t), TlsTestSupport.server().build(), 300);
        assertThat(sendAndAwaitClose(address, new byte[0])).isEqualTo(-1);
        assertThat(handshakeFailure()).isInstanceOf(SslHandshakeTimeoutException.class);
    }

    @Test
    void partialClientHelloThenSilenceTimesOut() throws Exception {
        SocketTransport t = SocketTransport.NIO;
        InetSocketAddress address = server(t, group(t), TlsTestSupport.server().build(), 300);
        assertThat(sendAndAwaitClose(address, new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 1, 0, 1})).isEqualTo(-1);
        assertThat(handshakeFailure()).isInstanceOf(SslHandshakeTimeoutException.class);
    }

    private static SSLContext jdkClientContext() throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("server", TlsTestSupport.SERVER_CERT.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }

    @Test
    void clientInitiatedRenegotiationIsRefused() throws Exception {
        SocketTransport t = SocketTransport.NIO;
        InetSocketAddress address = server(t, group(t), TlsTestSupport.server().build(), 0);
        try (SSLSocket s = (SSLSocket) jdkClientContext().getSocketFactory()
                .createSocket(address.getAddress(), address.getPort())) {
            s.setEnabledProtocols(new String[] {"TLSv1.2"});
            s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            s.startHandshake();
            s.getOutputStream().write('x');
            assertThat(s.getInputStream().read()).isEqualTo('x');
            assertThat(serverEvents.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isSameAs(SslHandshakeCompletionEvent.SUCCESS);
            // A second handshake on the same connection: the server must close rather than renegotiate.
            boolean closed;
            try {
                s.startHandshake();
                s.getOutputStream().write('y');
                closed = s.getInputStream().read() == -1;
            } catch (java.io.IOException refused) {
                closed = true;
            }
            assertThat(closed).as("the server closed the renegotiating connection").isTrue();
        }
    }

    @Test
    void tls13CloseNotifyFromAJdkClientIsAnswered() throws Exception {
        SocketTransport t = SocketTransport.NIO;
        InetSocketAddress address = server(t, group(t), TlsTestSupport.server().build(), 0);
        try (SSLSocket s = (SSLSocket) jdkClientContext().getSocketFactory()
                .createSocket(address.getAddress(), address.getPort())) {
            s.setEnabledProtocols(new String[] {"TLSv1.3"});
            s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            s.startHandshake();
            s.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
            byte[] echoed = s.getInputStream().readNBytes(5);
            assertThat(new String(echoed, StandardCharsets.US_ASCII)).isEqualTo("hello");
            // TLS 1.3 half-close: the JDK sends close_notify and keeps reading; the server answers with its own.
            s.shutdownOutput();
            assertThat(s.getInputStream().read()).isEqualTo(-1);
        }
        assertThat(serverEvents.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isSameAs(SslHandshakeCompletionEvent.SUCCESS);
        assertThat(serverEvents.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isSameAs(SslCloseCompletionEvent.SUCCESS);
    }
}
