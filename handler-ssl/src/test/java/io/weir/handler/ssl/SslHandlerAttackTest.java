package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.TIMEOUT_SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.PooledByteBufAllocator;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile peers against a Weir TLS server with the JDK engine, each named after its attack: garbage, a corrupt
 * handshake record, a ClientHello trickled byte by byte, a flood of connections that hold a partial record or say
 * nothing, and client-initiated renegotiation from {@code openssl s_client}. Each ends in a close within the handshake
 * timeout (or at once), and memory stays bounded by one record per connection.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SslHandlerAttackTest {
    private static final long HANDSHAKE_TIMEOUT_MILLIS = 500;
    /** A record header announcing a full 16 KiB handshake record, of which {@link #PARTIAL_BODY_BYTES} follow. */
    private static final byte[] PARTIAL_RECORD_HEADER = {0x16, 0x03, 0x01, 0x40, 0x00};
    private static final int PARTIAL_BODY_BYTES = 1000;

    private final List<EventLoopGroup> groups = new ArrayList<>();
    private final List<Channel> servers = new ArrayList<>();
    private final BlockingQueue<SslHandshakeCompletionEvent> handshakeEvents = new LinkedBlockingQueue<>();
    /** Released once per server connection closed. */
    private final Semaphore serverCloses = new Semaphore(0);
    /** Bytes the servers' connections read, counted before the SslHandler sees them. */
    private final AtomicLong bytesRead = new AtomicLong();
    /** Completed once {@link #bytesRead} reaches {@link #readTarget}. */
    private volatile CompletableFuture<Void> readReached = new CompletableFuture<>();
    private volatile long readTarget = Long.MAX_VALUE;

    static Stream<SocketTransport> transports() {
        return SocketTransport.available().stream();
    }

    @AfterEach
    void tearDown() throws Exception {
        for (Channel c : servers) {
            c.close().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        for (EventLoopGroup g : groups) {
            g.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Counts the bytes read (first in the pipeline), then passes them on. */
    @ChannelHandler.Sharable
    final class ReadCounter implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            int n = ((ByteBuf) msg).readableBytes();
            ctx.fireChannelRead(msg);
            if (bytesRead.addAndGet(n) >= readTarget) {
                readReached.complete(null);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ctx.fireChannelInactive();
            serverCloses.release();
        }
    }

    /** Records the handshake outcome (after the SslHandler). */
    @ChannelHandler.Sharable
    final class HandshakeRecorder implements ChannelHandler {
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof SslHandshakeCompletionEvent e) {
                handshakeEvents.add(e);
            }
            ctx.fireUserEventTriggered(evt);
        }
    }

    private InetSocketAddress server(SocketTransport t, PooledByteBufAllocator alloc, ChannelHandler... app)
            throws Exception {
        return server(t, alloc, HANDSHAKE_TIMEOUT_MILLIS, app);
    }

    private InetSocketAddress server(SocketTransport t, PooledByteBufAllocator alloc, long handshakeTimeoutMillis,
                                     ChannelHandler... app) throws Exception {
        EventLoopGroup group = t.newGroup(2);
        groups.add(group);
        SslContext ctx = TlsTestSupport.server().build();
        ReadCounter counter = new ReadCounter();
        HandshakeRecorder recorder = new HandshakeRecorder();
        ServerBootstrap b = new ServerBootstrap().group(group).channel(t.serverChannel())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        SslHandler ssl = ctx.newHandler(ch.alloc());
                        ssl.setHandshakeTimeout(handshakeTimeoutMillis, TimeUnit.MILLISECONDS);
                        ch.pipeline().addLast(counter, ssl, recorder);
                        ch.pipeline().addLast(app);
                    }
                });
        if (alloc != null) {
            b.childOption(ChannelOption.ALLOCATOR, alloc);
        }
        Channel server = b.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        server.eventLoop().submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        servers.add(server);
        return (InetSocketAddress) server.localAddress();
    }

    /** Sends {@code bytes}, then reads until the server closes; returns what the server sent before closing. */
    private static byte[] sendAndReadUntilClose(InetSocketAddress address, byte[] bytes) throws Exception {
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            OutputStream out = s.getOutputStream();
            out.write(bytes);
            out.flush();
            InputStream in = s.getInputStream();
            java.io.ByteArrayOutputStream seen = new java.io.ByteArrayOutputStream();
            try {
                for (int b; (b = in.read()) >= 0; ) {
                    seen.write(b);
                }
            } catch (SocketException reset) {
                // A reset is a close too.
            }
            return seen.toByteArray();
        }
    }

    private Throwable handshakeFailure() throws InterruptedException {
        SslHandshakeCompletionEvent e = handshakeEvents.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(e).as("a handshake completion event").isNotNull();
        assertThat(e.isSuccess()).isFalse();
        return e.cause();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void randomGarbageOnTlsPortIsClosed(SocketTransport t) throws Exception {
        InetSocketAddress address = server(t, null);
        for (long seed = 1; seed <= 4; seed++) {
            byte[] garbage = new byte[4096];
            new SplittableRandom(seed).nextBytes(garbage);
            sendAndReadUntilClose(address, garbage);
            assertThat(handshakeFailure()).isInstanceOf(SSLException.class);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void garbageInsideAWellFormedHandshakeRecordIsAnsweredWithAnAlertAndClosed(SocketTransport t) throws Exception {
        InetSocketAddress address = server(t, null);
        byte[] record = new byte[5 + 128];
        new SplittableRandom(7).nextBytes(record);
        record[0] = 0x16;
        record[1] = 0x03;
        record[2] = 0x01;
        record[3] = 0;
        record[4] = (byte) 128;
        byte[] answer = sendAndReadUntilClose(address, record);
        // The engine's fatal alert (RFC 8446 §6.2) reaches the peer before the close.
        assertThat(answer).isNotEmpty();
        assertThat(answer[0]).isEqualTo((byte) 0x15);
        assertThat(handshakeFailure()).isInstanceOf(SSLException.class).isNotInstanceOf(NotSslRecordException.class);
    }

    /** A real ClientHello record, as the JDK's client engine produces it. */
    private static byte[] clientHello() throws Exception {
        SSLEngine client = SSLContext.getDefault().createSSLEngine("localhost", 443);
        client.setUseClientMode(true);
        ByteBuffer out = ByteBuffer.allocate(client.getSession().getPacketBufferSize());
        SSLEngineResult r = client.wrap(ByteBuffer.allocate(0), out);
        assertThat(r.bytesProduced()).isPositive();
        out.flip();
        byte[] hello = new byte[out.remaining()];
        out.get(hello);
        return hello;
    }

    @Test
    void clientHelloTrickledByteByByteIsCutOffByTheHandshakeTimeout() throws Exception {
        InetSocketAddress address = server(SocketTransport.NIO, null);
        byte[] hello = clientHello();
        ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor();
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            OutputStream out = s.getOutputStream();
            // One byte every 50 ms: the whole ClientHello would take ten seconds or more, far past the timeout.
            int[] next = {0};
            pacer.scheduleAtFixedRate(() -> {
                if (next[0] < hello.length) {
                    try {
                        out.write(hello[next[0]++]);
                        out.flush();
                    } catch (java.io.IOException closed) {
                        next[0] = hello.length;
                    }
                }
            }, 0, 50, TimeUnit.MILLISECONDS);
            int b;
            try {
                b = s.getInputStream().read();
            } catch (SocketException reset) {
                b = -1;
            }
            assertThat(b).as("the server closed without answering").isEqualTo(-1);
        } finally {
            pacer.shutdownNow();
        }
        assertThat(handshakeFailure()).isInstanceOf(SslHandshakeTimeoutException.class);
        assertThat(hello.length).as("the ClientHello was still being trickled").isGreaterThan(100);
    }

    /** One hostile client for the flood, by kind. */
    private static byte[] hostileBytes(int kind) {
        switch (kind) {
            case 0:
                return new byte[0]; // silent
            case 1:
                return "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII); // plaintext
            case 2:
                return new byte[] {(byte) 0x80, 0x2e, 0x01, 0x03, 0x01, 0, 0x15, 0, 0, 0, 0x10}; // SSLv2-style hello
            default:
                return new byte[] {0x16, 0x03, 0x01, (byte) 0xFF, (byte) 0xFF, 1, 0, 0}; // oversized record header
        }
    }

    @Test
    void floodOfHostileConnectionsDoesNotGrowMemory() throws Exception {
        int holders = 200;
        int others = 100;
        // One direct arena and no heap pooling, so that the arena's chunks are the connections' whole pooled memory.
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(true, 0, 1, 8192, 1024 * 1024);
        // Long enough that every holder is still holding when the memory is read on a loaded machine.
        InetSocketAddress address = server(SocketTransport.NIO, alloc, 3_000);
        long chunk = alloc.metric().chunkSize();
        // A held record reserves its announced length (16 KiB + header) once, in the 20 KiB size class; read buffers
        // and the event loops' caches take a couple of chunks more. Twice that per connection would not fit.
        long perHolderBound = 24 * 1024;
        long bound = holders * perHolderBound + 2 * chunk;
        long[] afterRound = new long[3];
        byte[] partial = new byte[PARTIAL_RECORD_HEADER.length + PARTIAL_BODY_BYTES];
        System.arraycopy(PARTIAL_RECORD_HEADER, 0, partial, 0, PARTIAL_RECORD_HEADER.length);
        for (int round = 0; round < afterRound.length; round++) {
            List<SocketChannel> clients = new ArrayList<>();
            try {
                readReached = new CompletableFuture<>();
                readTarget = bytesRead.get() + (long) holders * partial.length;
                for (int i = 0; i < holders; i++) {
                    SocketChannel c = SocketChannel.open(address);
                    clients.add(c);
                    c.write(ByteBuffer.wrap(partial));
                }
                // Every holder's bytes were read (the SslHandler has seen them when the counter moves).
                readReached.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                assertThat(alloc.metric().usedDirectMemory())
                        .as("direct memory while %d connections each hold a partial record", holders)
                        .isLessThanOrEqualTo(bound);
                for (int i = 0; i < others; i++) {
                    SocketChannel c = SocketChannel.open(address);
                    clients.add(c);
                    byte[] bytes = hostileBytes(i % 4);
                    if (bytes.length > 0) {
                        c.write(ByteBuffer.wrap(bytes));
                    }
                }
                assertThat(serverCloses.tryAcquire(holders + others, TIMEOUT_SECONDS, TimeUnit.SECONDS))
                        .as("every hostile connection was closed").isTrue();
            } finally {
                for (SocketChannel c : clients) {
                    c.close();
                }
            }
            for (int i = 0; i < holders + others; i++) {
                Throwable cause = handshakeFailure();
                assertThat(cause).isInstanceOf(SSLException.class);
            }
            afterRound[round] = alloc.metric().usedDirectMemory();
        }
        // Three rounds (600 holders in all) keep no more than one round's bound: nothing grows with their number.
        for (int round = 0; round < afterRound.length; round++) {
            assertThat(afterRound[round]).as("direct memory kept after round %d of hostile connections", round + 1)
                    .isLessThanOrEqualTo(bound);
        }
    }

    @Test
    void opensslClientRenegotiationIsRefused() throws Exception {
        String openssl = ExternalPeers.require("openssl", "apt-get install -y openssl");
        CompletableFuture<Throwable> serverError = new CompletableFuture<>();
        InetSocketAddress address = server(SocketTransport.NIO, null, new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ctx.writeAndFlush(msg);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                serverError.complete(cause);
            }
        });
        Process p = new ProcessBuilder(openssl, "s_client", "-connect", "127.0.0.1:" + address.getPort(),
                "-tls1_2").redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            in.write("hello\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
            ExternalPeers.readUntilLine(out, "hello");
            // s_client's interactive command: a line starting with R renegotiates (a new ClientHello on TLS 1.2).
            in.write("R\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
            Throwable refused = serverError.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(refused).isInstanceOf(SSLHandshakeException.class).hasMessageContaining("renegotiation refused");
            // The server closed the connection: s_client ends by itself, its input still open.
            assertThat(p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("s_client exited").isTrue();
        } finally {
            p.destroy();
            ExternalPeers.waitFor(p);
        }
        assertThat(handshakeEvents.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS).isSuccess()).isTrue();
    }
}
