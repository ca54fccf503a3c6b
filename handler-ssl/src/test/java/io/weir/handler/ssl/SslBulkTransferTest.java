package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.TIMEOUT_SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.local.LocalAddress;
import io.weir.channel.local.LocalChannel;
import io.weir.channel.local.LocalServerChannel;
import io.weir.channel.nio.NioIoHandler;
import java.net.SocketAddress;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * 100 MiB through TLS in both directions at once, on every transport (NIO and epoll sockets, and in-VM local
 * channels): each side sends its own seeded random stream and the SHA-256 of what each side received must equal the
 * SHA-256 of what the other sent.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class SslBulkTransferTest {
    private static final long TOTAL_BYTES = 100L * 1024 * 1024;
    private static final int CHUNK_BYTES = 64 * 1024;

    static Stream<String> transports() {
        return Stream.concat(SocketTransport.available().stream().map(Enum::name), Stream.of("LOCAL"));
    }

    /** Sends {@link #TOTAL_BYTES} of a seeded random stream once the handshake succeeded and digests what it reads. */
    static final class DigestingPeer implements ChannelHandler {
        private final SplittableRandom random;
        private final MessageDigest sentDigest = sha256();
        private final MessageDigest receivedDigest = sha256();
        private final byte[] chunk = new byte[CHUNK_BYTES];
        private final byte[] readScratch = new byte[CHUNK_BYTES];
        final CompletableFuture<String> sent = new CompletableFuture<>();
        final CompletableFuture<String> received = new CompletableFuture<>();
        private long sentBytes;
        private long receivedBytes;
        private boolean started;

        DigestingPeer(long seed) {
            random = new SplittableRandom(seed);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof SslHandshakeCompletionEvent e) {
                if (e.isSuccess()) {
                    started = true;
                    writeWhileWritable(ctx);
                } else {
                    sent.completeExceptionally(e.cause());
                }
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (started && ctx.channel().isWritable()) {
                writeWhileWritable(ctx);
            }
            ctx.fireChannelWritabilityChanged();
        }

        private void writeWhileWritable(ChannelHandlerContext ctx) {
            while (sentBytes < TOTAL_BYTES && ctx.channel().isWritable()) {
                int n = (int) Math.min(CHUNK_BYTES, TOTAL_BYTES - sentBytes);
                random.nextBytes(chunk);
                sentDigest.update(chunk, 0, n);
                sentBytes += n;
                ctx.write(ctx.alloc().directBuffer(n).writeBytes(chunk, 0, n));
            }
            ctx.flush();
            if (sentBytes == TOTAL_BYTES && !sent.isDone()) {
                sent.complete(HexFormat.of().formatHex(sentDigest.digest()));
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            try {
                while (b.isReadable()) {
                    int n = Math.min(b.readableBytes(), readScratch.length);
                    b.readBytes(readScratch, 0, n);
                    receivedDigest.update(readScratch, 0, n);
                    receivedBytes += n;
                }
            } finally {
                b.release();
            }
            if (receivedBytes > TOTAL_BYTES) {
                received.completeExceptionally(new AssertionError(receivedBytes + " bytes received, more than sent"));
            } else if (receivedBytes == TOTAL_BYTES) {
                received.complete(HexFormat.of().formatHex(receivedDigest.digest()));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            sent.completeExceptionally(cause);
            received.completeExceptionally(cause);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            received.completeExceptionally(new AssertionError("closed after " + receivedBytes + " bytes"));
            ctx.fireChannelInactive();
        }

        private static MessageDigest sha256() {
            try {
                return MessageDigest.getInstance("SHA-256");
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void hundredMebibytesEachWayAtOnceArriveWithTheSenderDigest(String transport) throws Exception {
        EventLoopGroup group = transport.equals("LOCAL") ? new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory())
                : SocketTransport.valueOf(transport).newGroup(2);
        SslContext serverCtx = TlsTestSupport.server().build();
        SslContext clientCtx = TlsTestSupport.client().build();
        DigestingPeer serverPeer = new DigestingPeer(1);
        DigestingPeer clientPeer = new DigestingPeer(2);
        Channel server = null;
        Channel client = null;
        try {
            server = new ServerBootstrap().group(group)
                    .channel(transport.equals("LOCAL") ? LocalServerChannel.class
                            : SocketTransport.valueOf(transport).serverChannel())
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(serverCtx.newHandler(ch.alloc()), serverPeer);
                        }
                    })
                    .bind(transport.equals("LOCAL") ? new LocalAddress("tls-bulk-" + System.nanoTime())
                            : new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0))
                    .sync().channel();
            // The acceptor is added by a task queued at registration: wait for it so the connection is not dropped.
            server.eventLoop().submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            SocketAddress address = server.localAddress();
            client = new Bootstrap().group(group)
                    .channel(transport.equals("LOCAL") ? LocalChannel.class
                            : SocketTransport.valueOf(transport).socketChannel())
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(clientCtx.newHandler(ch.alloc(), "localhost", 443), clientPeer);
                        }
                    })
                    .connect(address).sync().channel();

            String clientSent = clientPeer.sent.get(180, TimeUnit.SECONDS);
            String serverSent = serverPeer.sent.get(180, TimeUnit.SECONDS);
            assertThat(serverPeer.received.get(180, TimeUnit.SECONDS)).isEqualTo(clientSent);
            assertThat(clientPeer.received.get(180, TimeUnit.SECONDS)).isEqualTo(serverSent);
            assertThat(clientSent).isNotEqualTo(serverSent);
        } finally {
            if (client != null) {
                client.close().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            if (server != null) {
                server.close().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
