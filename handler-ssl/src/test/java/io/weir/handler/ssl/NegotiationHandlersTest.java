package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.shuttle;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ApplicationProtocolNegotiationHandler and OptionalSslHandler over embedded channels. */
class NegotiationHandlersTest {
    private static final class Chooser extends ApplicationProtocolNegotiationHandler {
        final List<String> chosen = new ArrayList<>();
        final SslHandlerEmbeddedTest.Recorder app = new SslHandlerEmbeddedTest.Recorder();

        Chooser() {
            super(ApplicationProtocolNames.HTTP_1_1);
        }

        @Override
        protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
            chosen.add(protocol);
            ctx.pipeline().addLast(app);
        }
    }

    private static String negotiate(String... clientProtocols) throws Exception {
        SslContext serverCtx = TlsTestSupport.server().applicationProtocols("h2", "http/1.1").build();
        SslContext clientCtx = TlsTestSupport.client().applicationProtocols(clientProtocols).build();
        Chooser chooser = new Chooser();
        EmbeddedChannel server = new EmbeddedChannel(serverCtx.newHandler(ByteBufAllocator.DEFAULT), chooser);
        SslHandler clientSsl = clientCtx.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443);
        EmbeddedChannel client = new EmbeddedChannel(clientSsl);
        // Application data written before the handshake completes travels with the client's Finished.
        client.writeAndFlush(Unpooled.copiedBuffer("first bytes", StandardCharsets.US_ASCII));
        shuttle(client, server);
        assertThat(chooser.chosen).hasSize(1);
        assertThat(server.pipeline().get(Chooser.class)).as("removed itself").isNull();
        assertThat(chooser.app.text()).isEqualTo("first bytes");
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
        chooser.app.received.release();
        return chooser.chosen.get(0);
    }

    @Test
    void negotiatedProtocolConfiguresThePipeline() throws Exception {
        assertThat(negotiate("http/1.1", "h2")).isEqualTo("h2");
        assertThat(negotiate("http/1.1")).isEqualTo("http/1.1");
    }

    @Test
    void fallbackIsUsedWithoutAlpn() throws Exception {
        assertThat(negotiate()).isEqualTo("http/1.1");
    }

    @Test
    void connectionResetDuringTheHandshakeClosesQuietly() throws Exception {
        Chooser chooser = new Chooser();
        EmbeddedChannel server = new EmbeddedChannel(TlsTestSupport.server().build()
                .newHandler(ByteBufAllocator.DEFAULT), chooser);
        // Reaching the end of the pipeline, it would be logged as unhandled (WARNING) and rethrown here.
        server.pipeline().fireExceptionCaught(new java.net.SocketException("Connection reset"));
        server.checkException();
        assertThat(server.isOpen()).isFalse();
        server.finishAndReleaseAll();
        chooser.app.received.release();
    }

    @Test
    void failedHandshakeClosesTheChannel() throws Exception {
        SslContext serverCtx = TlsTestSupport.server().build();
        Chooser chooser = new Chooser();
        EmbeddedChannel server = new EmbeddedChannel(serverCtx.newHandler(ByteBufAllocator.DEFAULT), chooser);
        server.writeInbound(Unpooled.copiedBuffer("GET / HTTP/1.1\r\n\r\n", StandardCharsets.US_ASCII));
        assertThat(server.isOpen()).isFalse();
        assertThat(chooser.chosen).isEmpty();
        server.finishAndReleaseAll();
        chooser.app.received.release();
    }

    @Test
    void optionalSslHandlerLeavesPlaintextAloneEvenOneByteAtATime() {
        SslHandlerEmbeddedTest.Recorder app = new SslHandlerEmbeddedTest.Recorder();
        EmbeddedChannel ch;
        try {
            ch = new EmbeddedChannel(new OptionalSslHandler(TlsTestSupport.server().build()), app);
        } catch (javax.net.ssl.SSLException e) {
            throw new AssertionError(e);
        }
        byte[] request = "GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        for (byte b : request) {
            ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        assertThat(app.text()).isEqualTo("GET / HTTP/1.1\r\n\r\n");
        assertThat(ch.pipeline().get(OptionalSslHandler.class)).isNull();
        assertThat(ch.pipeline().get(SslHandler.class)).isNull();
        ch.finishAndReleaseAll();
        app.received.release();
    }

    @Test
    void optionalSslHandlerSwitchesToTlsOnAClientHello() throws Exception {
        SslHandlerEmbeddedTest.Recorder app = new SslHandlerEmbeddedTest.Recorder();
        EmbeddedChannel server = new EmbeddedChannel(new OptionalSslHandler(TlsTestSupport.server().build()), app);
        SslHandler clientSsl = TlsTestSupport.client().build().newHandler(ByteBufAllocator.DEFAULT, "localhost", 443);
        EmbeddedChannel client = new EmbeddedChannel(clientSsl);
        // The ClientHello's first bytes arrive in two reads of 3 and the rest.
        ByteBuf hello = client.readOutbound();
        server.writeInbound(hello.readRetainedSlice(3));
        server.writeInbound(hello);
        shuttle(client, server);
        assertThat(clientSsl.handshakeFuture().isSuccess()).isTrue();
        assertThat(server.pipeline().get(SslHandler.class)).isNotNull();
        client.writeAndFlush(Unpooled.copiedBuffer("over tls", StandardCharsets.US_ASCII));
        shuttle(client, server);
        assertThat(app.text()).isEqualTo("over tls");
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
        app.received.release();
    }
}
