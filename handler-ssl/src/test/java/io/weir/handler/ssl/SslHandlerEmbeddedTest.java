package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.shuttle;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.ssl.internal.TlsRecords;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** SslHandler against itself over embedded channels: records, coalescing, closing, hostile bytes, leaks. */
class SslHandlerEmbeddedTest {
    /** Gathers what reaches the application and the TLS events. */
    static final class Recorder implements ChannelHandler {
        final ByteBuf received = Unpooled.buffer();
        final List<Object> events = new ArrayList<>();
        int reads;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            reads++;
            received.writeBytes(b);
            b.release();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            events.add(evt);
        }

        String text() {
            return received.toString(StandardCharsets.UTF_8);
        }
    }

    private static final class Pair {
        final SslHandler clientSsl;
        final SslHandler serverSsl;
        final Recorder clientApp = new Recorder();
        final Recorder serverApp = new Recorder();
        final EmbeddedChannel client;
        final EmbeddedChannel server;

        Pair(SslContext clientCtx, SslContext serverCtx) {
            serverSsl = serverCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT);
            clientSsl = clientCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT, "localhost", 443);
            server = new EmbeddedChannel(serverSsl, serverApp);
            client = new EmbeddedChannel(clientSsl, clientApp);
        }

        void handshake() {
            shuttle(client, server);
            assertThat(clientSsl.handshakeFuture().isSuccess()).as("client handshake: %s",
                    clientSsl.handshakeFuture().cause()).isTrue();
            assertThat(serverSsl.handshakeFuture().isSuccess()).isTrue();
        }

        void finish() {
            client.finishAndReleaseAll();
            server.finishAndReleaseAll();
            clientApp.received.release();
            serverApp.received.release();
        }
    }

    private static ByteBuf text(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void handshakeCompletesAndDataFlowsBothWays(String protocol) throws Exception {
        Pair p = new Pair(TlsTestSupport.client(protocol).build(), TlsTestSupport.server().build());
        p.handshake();
        assertThat(p.clientSsl.session().getProtocol()).isEqualTo(protocol);
        assertThat(p.clientApp.events).containsExactly(SslHandshakeCompletionEvent.SUCCESS);
        assertThat(p.serverApp.events).containsExactly(SslHandshakeCompletionEvent.SUCCESS);
        p.client.writeAndFlush(text("ping"));
        p.server.writeAndFlush(text("pong"));
        shuttle(p.client, p.server);
        assertThat(p.serverApp.text()).isEqualTo("ping");
        assertThat(p.clientApp.text()).isEqualTo("pong");
        p.finish();
    }

    @Test
    void smallWritesAreCoalescedIntoOneRecordOnFlush() throws Exception {
        Pair p = new Pair(TlsTestSupport.client().build(), TlsTestSupport.server().build());
        p.handshake();
        List<ChannelFuture> writes = new ArrayList<>();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            String s = "w" + i + ";";
            expected.append(s);
            writes.add(p.client.write(text(s)));
        }
        p.client.flush();
        ByteBuf record = p.client.readOutbound();
        assertThat((Object) p.client.readOutbound()).as("one record for 50 small writes").isNull();
        assertThat(record.getByte(0)).isEqualTo((byte) TlsRecords.APPLICATION_DATA);
        assertThat(writes).allSatisfy(f -> assertThat(f.isSuccess()).isTrue());
        p.server.writeInbound(record);
        assertThat(p.serverApp.text()).isEqualTo(expected.toString());
        p.finish();
    }

    @Test
    void moreEmptyWritesThanOneRecordGathersAreAllCompleted() throws Exception {
        // 100 empty writes alone, then 100 ahead of data: more promises than one record's gather holds.
        Pair p = new Pair(TlsTestSupport.client().build(), TlsTestSupport.server().build());
        p.handshake();
        List<ChannelFuture> writes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            writes.add(p.client.write(Unpooled.EMPTY_BUFFER));
        }
        p.client.flush();
        for (int i = 0; i < 100; i++) {
            writes.add(p.client.write(Unpooled.buffer(0)));
        }
        writes.add(p.client.write(text("after the empty ones")));
        p.client.flush();
        assertThat(writes).allSatisfy(f -> assertThat(f.isSuccess()).as("%s", f.cause()).isTrue());
        shuttle(p.client, p.server);
        assertThat(p.serverApp.text()).isEqualTo("after the empty ones");
        p.finish();
    }

    @Test
    void aWriteCompletedByAnotherConnectionsListenerKeepsEveryPromise() throws Exception {
        // Two connections on one thread: completing the first's writes runs a listener that writes on the second,
        // while the first still has promises to complete from the same encryption.
        Pair a = new Pair(TlsTestSupport.client().build(), TlsTestSupport.server().build());
        Pair b = new Pair(TlsTestSupport.client().build(), TlsTestSupport.server().build());
        a.handshake();
        b.handshake();
        List<ChannelFuture> writes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ChannelFuture f = a.client.write(Unpooled.buffer(0));
            f.addListener(done -> writes.add(b.client.writeAndFlush(text("x"))));
            writes.add(f);
        }
        a.client.flush();
        assertThat(writes).hasSize(6).allSatisfy(f -> assertThat(f.isSuccess()).as("%s", f.cause()).isTrue());
        shuttle(b.client, b.server);
        assertThat(b.serverApp.text()).isEqualTo("xxx");
        a.finish();
        b.finish();
    }

    @Test
    void largeWriteIsSplitIntoRecordsOfAtMost16KiB() throws Exception {
        Pair p = new Pair(TlsTestSupport.client().build(), TlsTestSupport.server().build());
        p.handshake();
        byte[] data = new byte[100_000];
        new java.util.Random(7).nextBytes(data);
        ChannelFuture write = p.client.writeAndFlush(Unpooled.wrappedBuffer(data));
        int records = 0;
        for (ByteBuf r; (r = p.client.readOutbound()) != null; ) {
            records++;
            assertThat(r.readableBytes() - TlsRecords.HEADER_LENGTH).isLessThanOrEqualTo(TlsRecords.MAX_TLS13_RECORD_LENGTH);
            p.server.writeInbound(r);
        }
        assertThat(records).isEqualTo(7); // ceil(100000 / 16384)
        assertThat(write.isSuccess()).isTrue();
        byte[] got = new byte[data.length];
        p.serverApp.received.readBytes(got);
        assertThat(got).isEqualTo(data);
        p.finish();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void recordsArrivingOneByteAtATimeAreReassembled(String protocol) throws Exception {
        Pair p = new Pair(TlsTestSupport.client(protocol).build(), TlsTestSupport.server().build());
        // The whole handshake one byte per read, in both directions.
        for (int round = 0; round < 50 && !(p.clientSsl.handshakeFuture().isDone()
                && p.serverSsl.handshakeFuture().isDone()); round++) {
            dribble(p.client, p.server);
            dribble(p.server, p.client);
        }
        assertThat(p.clientSsl.handshakeFuture().isSuccess()).isTrue();
        p.client.writeAndFlush(text("dribbled"));
        dribble(p.client, p.server);
        assertThat(p.serverApp.text()).isEqualTo("dribbled");
        p.finish();
    }

    private static void dribble(EmbeddedChannel from, EmbeddedChannel to) {
        for (ByteBuf b; (b = from.readOutbound()) != null; ) {
            while (b.isReadable()) {
                to.writeInbound(b.readRetainedSlice(1));
            }
            b.release();
        }
    }

    @Test
    void manyRecordsInOneReadAreAllDecrypted() throws Exception {
        Pair p = new Pair(TlsTestSupport.client().build(), TlsTestSupport.server().build());
        p.handshake();
        for (int i = 0; i < 20; i++) {
            p.client.writeAndFlush(text("record" + i + ";"));
        }
        ByteBuf all = Unpooled.buffer();
        for (ByteBuf r; (r = p.client.readOutbound()) != null; ) {
            all.writeBytes(r);
            r.release();
        }
        p.server.writeInbound(all);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            expected.append("record").append(i).append(';');
        }
        assertThat(p.serverApp.text()).isEqualTo(expected.toString());
        assertThat(p.serverApp.reads).as("one decrypted buffer for one read").isEqualTo(1);
        p.finish();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void closeNotifyIsSentAnsweredAndAwaited(String protocol) throws Exception {
        Pair p = new Pair(TlsTestSupport.client(protocol).build(), TlsTestSupport.server().build());
        p.handshake();
        ChannelFuture closed = p.client.close();
        assertThat(closed.isDone()).as("waits for the peer's close_notify").isFalse();
        shuttle(p.client, p.server);
        assertThat(p.serverApp.events).contains(SslCloseCompletionEvent.SUCCESS);
        assertThat(p.server.isOpen()).as("the server answered and closed").isFalse();
        assertThat(p.clientApp.events).contains(SslCloseCompletionEvent.SUCCESS);
        assertThat(closed.isSuccess()).isTrue();
        assertThat(p.client.isOpen()).isFalse();
        p.finish();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void serverInitiatedCloseNotifyReachesTheClient(String protocol) throws Exception {
        Pair p = new Pair(TlsTestSupport.client(protocol).build(), TlsTestSupport.server().build());
        p.handshake();
        ChannelFuture closed = p.server.pipeline().close();
        shuttle(p.client, p.server);
        assertThat(p.clientSsl.sslCloseFuture().isSuccess()).as("%s", p.clientSsl.sslCloseFuture().cause()).isTrue();
        assertThat(p.serverSsl.sslCloseFuture().isSuccess()).isTrue();
        assertThat(closed.isSuccess()).isTrue();
        p.finish();
    }

    @Test
    void closeNotifyReadTimeoutClosesWhenThePeerNeverAnswers() throws Exception {
        Pair p = new Pair(TlsTestSupport.client().build(), TlsTestSupport.server().build());
        p.handshake();
        // Through the pipeline: EmbeddedChannel.close() cancels scheduled tasks, the timeout among them.
        ChannelFuture closed = p.client.pipeline().close();
        ByteBuf closeNotify = p.client.readOutbound();
        assertThat(closeNotify.getByte(0)).isIn((byte) TlsRecords.ALERT, (byte) TlsRecords.APPLICATION_DATA);
        closeNotify.release();
        p.client.runPendingTasks();
        assertThat(closed.isDone()).isFalse();
        p.client.advanceTimeBy(SslHandler.DEFAULT_CLOSE_NOTIFY_READ_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        p.client.runPendingTasks();
        assertThat(closed.isSuccess()).isTrue();
        assertThat(p.client.isOpen()).isFalse();
        p.finish();
    }

    @Test
    void closeDuringHandshakeFailsQueuedWritesWithoutLeaks() throws Exception {
        Pair p = new Pair(TlsTestSupport.client().build(), TlsTestSupport.server().build());
        ChannelFuture write = p.client.writeAndFlush(text("never sent"));
        p.client.close();
        assertThat(write.isDone()).isTrue();
        assertThat(write.isSuccess()).isFalse();
        assertThat(p.clientSsl.handshakeFuture().isSuccess()).isFalse();
        assertThat(p.clientApp.events.get(0)).isInstanceOfSatisfying(SslHandshakeCompletionEvent.class,
                e -> assertThat(e.cause()).isInstanceOf(java.nio.channels.ClosedChannelException.class));
        p.finish();
    }

    @ParameterizedTest
    @EnumSource(SslProvider.class)
    void writeRacingAFailedHandshakeCarriesTheHandshakesFailure(SslProvider provider) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(provider != SslProvider.OPENSSL || OpenSsl.isAvailable());
        // The client trusts only a certificate the server does not present: its handshake fails.
        SslContext untrusting = SslContextBuilder.forClient().sslProvider(provider)
                .trustManager(TlsTestSupport.CLIENT_CERT.certificate()).build();
        Pair p = new Pair(untrusting, TlsTestSupport.server().build());
        List<ChannelFuture> writes = new ArrayList<>();
        // Runs as the handshake fails, before the channel closes: the moment an application's write races it.
        p.clientSsl.handshakeFuture().addListener(f -> writes.add(p.client.writeAndFlush(text("too late"))));

        shuttle(p.client, p.server);

        Throwable handshakeFailure = p.clientSsl.handshakeFuture().cause();
        assertThat(handshakeFailure).isNotNull();
        assertThat(writes).singleElement().satisfies(write -> assertThat(write.cause())
                .isInstanceOf(javax.net.ssl.SSLException.class)
                .hasMessageStartingWith("write refused: the TLS handshake failed: ")
                .hasMessageContaining(handshakeFailure.getMessage())
                .cause().isSameAs(handshakeFailure));
        p.finish();
    }

    @Test
    void writesBeforeTheHandshakeAreSentAfterIt() throws Exception {
        Pair p = new Pair(TlsTestSupport.client().build(), TlsTestSupport.server().build());
        ChannelFuture write = p.client.writeAndFlush(text("early"));
        assertThat(write.isDone()).isFalse();
        shuttle(p.client, p.server);
        assertThat(write.isSuccess()).isTrue();
        assertThat(p.serverApp.text()).isEqualTo("early");
        p.finish();
    }

    @Test
    void nonBufferWriteIsRefusedAndReleased() throws Exception {
        Pair p = new Pair(TlsTestSupport.client().build(), TlsTestSupport.server().build());
        p.handshake();
        ChannelFuture f = p.client.writeAndFlush("a string");
        assertThat(f.cause()).isInstanceOf(io.weir.handler.codec.UnsupportedMessageTypeException.class);
        p.finish();
    }

    @Test
    void startTlsSendsTheFirstWriteInPlaintext() throws Exception {
        SslContext serverCtx = TlsTestSupport.server().build();
        SslContext clientCtx = TlsTestSupport.client().build();
        SslHandler serverSsl = new SslHandler(serverCtx.newEngine(io.weir.buffer.ByteBufAllocator.DEFAULT), true, null);
        Recorder serverApp = new Recorder();
        EmbeddedChannel server = new EmbeddedChannel(serverSsl, serverApp);
        server.writeAndFlush(text("220 go ahead\r\n"));
        ByteBuf plain = server.readOutbound();
        assertThat(plain.toString(StandardCharsets.US_ASCII)).isEqualTo("220 go ahead\r\n");
        plain.release();
        SslHandler clientSsl = clientCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT, "localhost", 25);
        Recorder clientApp = new Recorder();
        EmbeddedChannel client = new EmbeddedChannel(clientSsl, clientApp);
        shuttle(client, server);
        assertThat(serverSsl.handshakeFuture().isSuccess()).isTrue();
        assertThat(clientSsl.handshakeFuture().isSuccess()).isTrue();
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
        clientApp.received.release();
        serverApp.received.release();
    }

    @Test
    void handshakeTimeoutFailsTheHandshakeAndCloses() throws Exception {
        SslHandler ssl = TlsTestSupport.server().build().newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT);
        Recorder app = new Recorder();
        EmbeddedChannel server = new EmbeddedChannel(ssl, app);
        server.advanceTimeBy(SslHandler.DEFAULT_HANDSHAKE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        server.runScheduledPendingTasks();
        assertThat(ssl.handshakeFuture().cause()).isInstanceOf(SslHandshakeTimeoutException.class);
        assertThat(server.isOpen()).isFalse();
        assertThat(app.events.get(0)).isInstanceOf(SslHandshakeCompletionEvent.class);
        server.finishAndReleaseAll();
        app.received.release();
    }

    @Test
    void alpnIsChosenByServerPreference() throws Exception {
        SslContext serverCtx = TlsTestSupport.server().applicationProtocols("h2", "http/1.1").build();
        SslContext clientCtx = TlsTestSupport.client().applicationProtocols("http/1.1", "h2").build();
        Pair p = new Pair(clientCtx, serverCtx);
        p.handshake();
        assertThat(p.clientSsl.applicationProtocol()).isEqualTo("h2");
        assertThat(p.serverSsl.applicationProtocol()).isEqualTo("h2");
        p.finish();

        Pair none = new Pair(TlsTestSupport.client().applicationProtocols("spdy/3").build(), serverCtx);
        none.handshake();
        assertThat(none.clientSsl.applicationProtocol()).isNull();
        none.finish();
    }
}
