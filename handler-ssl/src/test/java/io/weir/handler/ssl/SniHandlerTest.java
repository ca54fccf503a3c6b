package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.shuttle;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** SniHandler: selection by host name, and every malformed or slow ClientHello closes without a fallback. */
class SniHandlerTest {
    private static final SelfSignedCertificate A = SelfSignedCertificate.create("a.test");
    private static final SelfSignedCertificate B = SelfSignedCertificate.create("wild.test");
    private static final SelfSignedCertificate DEFAULT = SelfSignedCertificate.create("default.test");

    private static SniMapping mapping() throws Exception {
        return SniMapping.builder(SslContextBuilder.forServer(DEFAULT.privateKey(), DEFAULT.certificate()).build())
                .add("a.test", SslContextBuilder.forServer(A.privateKey(), A.certificate()).build())
                .add("*.wild.test", SslContextBuilder.forServer(B.privateKey(), B.certificate()).build())
                .build();
    }

    private static SslContext client() throws Exception {
        return SslContextBuilder.forClient()
                .trustManager(A.certificate(), B.certificate(), DEFAULT.certificate())
                .endpointIdentificationAlgorithm(null).build();
    }

    /** Records SNI and handshake events. */
    static final class Events implements ChannelHandler {
        final List<Object> events = new ArrayList<>();

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            events.add(evt);
        }
    }

    private static String servedCommonName(String host) throws Exception {
        SniMapping mapping = mapping();
        Events events = new Events();
        EmbeddedChannel server = new EmbeddedChannel(new SniHandler(mapping), events);
        SslHandler clientSsl = client().newHandler(ByteBufAllocator.DEFAULT, host, 443);
        EmbeddedChannel client = new EmbeddedChannel(clientSsl);
        shuttle(client, server);
        assertThat(clientSsl.handshakeFuture().isSuccess()).as("%s", clientSsl.handshakeFuture().cause()).isTrue();
        assertThat(server.pipeline().get(SniHandler.class)).isNull();
        assertThat(events.events.get(0)).isInstanceOf(SniCompletionEvent.class);
        X509Certificate served = (X509Certificate) clientSsl.session().getPeerCertificates()[0];
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
        return served.getSubjectX500Principal().getName();
    }

    @Test
    void hostNameSelectsTheContext() throws Exception {
        assertThat(servedCommonName("a.test")).isEqualTo("CN=a.test");
        assertThat(servedCommonName("A.TEST")).isEqualTo("CN=a.test");
        assertThat(servedCommonName("x.wild.test")).isEqualTo("CN=wild.test");
        assertThat(servedCommonName("x.y.wild.test")).isEqualTo("CN=default.test");
        assertThat(servedCommonName("other.test")).isEqualTo("CN=default.test");
        // An IP literal: the JDK sends no server_name, so the default serves.
        assertThat(servedCommonName("127.0.0.1")).isEqualTo("CN=default.test");
    }

    @Test
    void cacheOfResolvedNamesIsBounded() throws Exception {
        SniMapping m = SniMapping.builder(TlsTestSupport.server().build()).maxCachedHosts(2).build();
        for (int i = 0; i < 10; i++) {
            m.map("h" + i + ".test");
        }
        assertThat(m.cachedHosts()).isEqualTo(2);
    }

    /** The ClientHello record a client sends to {@code host}. */
    private static ByteBuf clientHello(String host) throws Exception {
        EmbeddedChannel client = new EmbeddedChannel(client().newHandler(ByteBufAllocator.DEFAULT, host, 443));
        ByteBuf hello = client.readOutbound();
        client.finishAndReleaseAll();
        return hello;
    }

    /** Re-frames a single-record handshake into records of {@code fragment} bytes each. */
    private static ByteBuf reframe(ByteBuf record, int fragment) {
        ByteBuf out = Unpooled.buffer();
        int type = record.getUnsignedByte(0);
        int version = record.getUnsignedShort(1);
        ByteBuf body = record.slice(5, record.readableBytes() - 5);
        while (body.isReadable()) {
            int n = Math.min(fragment, body.readableBytes());
            out.writeByte(type).writeShort(version).writeShort(n).writeBytes(body, n);
        }
        record.release();
        return out;
    }

    private static Throwable failure(EmbeddedChannel server, Events events) {
        assertThat(server.isOpen()).as("closed").isFalse();
        assertThat(events.events).isNotEmpty();
        SniCompletionEvent e = (SniCompletionEvent) events.events.get(0);
        assertThat(e.isSuccess()).isFalse();
        return e.cause();
    }

    @Test
    void clientHelloOneBytePerRecordIsParsedAndTheHandshakeCompletes() throws Exception {
        SniMapping mapping = mapping();
        Events events = new Events();
        EmbeddedChannel server = new EmbeddedChannel(new SniHandler(mapping), events);
        SslHandler clientSsl = client().newHandler(ByteBufAllocator.DEFAULT, "a.test", 443);
        EmbeddedChannel client = new EmbeddedChannel(clientSsl);
        ByteBuf hello = reframe(client.readOutbound(), 1);
        // Delivered one byte per read too: headers split across reads as well as messages across records.
        while (hello.isReadable()) {
            server.writeInbound(hello.readRetainedSlice(1));
        }
        hello.release();
        assertThat(((SniCompletionEvent) events.events.get(0)).hostName()).isEqualTo("a.test");
        shuttle(client, server);
        assertThat(clientSsl.handshakeFuture().isSuccess()).as("%s", clientSsl.handshakeFuture().cause()).isTrue();
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
    }

    private static Throwable feed(ByteBuf bytes) throws Exception {
        Events events = new Events();
        EmbeddedChannel server = new EmbeddedChannel(new SniHandler(mapping()), events);
        server.writeInbound(bytes);
        Throwable cause = failure(server, events);
        server.finishAndReleaseAll();
        return cause;
    }

    @Test
    void truncatedServerNameIsRejectedNotDefaulted() throws Exception {
        ByteBuf hello = clientHello("a.test");
        // Find "a.test" and grow its 2-byte length beyond the extension.
        int at = -1;
        for (int i = 0; i < hello.readableBytes() - 6; i++) {
            if (hello.getByte(i) == 'a' && hello.getByte(i + 1) == '.' && hello.getByte(i + 2) == 't') {
                at = i;
                break;
            }
        }
        assertThat(at).isPositive();
        hello.setShort(at - 2, 200);
        assertThat(feed(hello)).isInstanceOf(MalformedClientHelloException.class).hasMessageContaining("server name");
    }

    @Test
    void oversizedClientHelloIsRejected() throws Exception {
        // A handshake header announcing 1 MiB of ClientHello.
        ByteBuf b = Unpooled.buffer().writeByte(22).writeShort(0x0301).writeShort(4).writeByte(1).writeMedium(1 << 20);
        assertThat(feed(b)).isInstanceOf(MalformedClientHelloException.class).hasMessageContaining("limit");
    }

    @Test
    void applicationDataBeforeClientHelloIsRejected() throws Exception {
        ByteBuf b = Unpooled.buffer().writeByte(23).writeShort(0x0303).writeShort(1).writeByte(0);
        assertThat(feed(b)).isInstanceOf(MalformedClientHelloException.class);
    }

    @Test
    void plaintextOnSniPortIsRejected() throws Exception {
        assertThat(feed(Unpooled.copiedBuffer("GET / HTTP/1.1\r\n\r\n", java.nio.charset.StandardCharsets.US_ASCII)))
                .isInstanceOf(NotSslRecordException.class);
    }

    @Test
    void emptyHandshakeFragmentIsRejected() throws Exception {
        ByteBuf b = Unpooled.buffer().writeByte(22).writeShort(0x0301).writeShort(0);
        assertThat(feed(b)).isInstanceOf(MalformedClientHelloException.class);
    }

    @Test
    void slowClientHelloTimesOut() throws Exception {
        Events events = new Events();
        EmbeddedChannel server = new EmbeddedChannel(new SniHandler(mapping()), events);
        ByteBuf hello = clientHello("a.test");
        server.writeInbound(hello.readRetainedSlice(10));
        hello.release();
        server.advanceTimeBy(SslHandler.DEFAULT_HANDSHAKE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        server.runPendingTasks();
        assertThat(failure(server, events)).isInstanceOf(SslHandshakeTimeoutException.class);
        server.finishAndReleaseAll();
    }

    @Test
    void recordLongerThanTheClientHelloLimitIsRejectedOnItsHeader() throws Exception {
        Events events = new Events();
        SniHandler sni = new SniHandler(mapping()).setMaxClientHelloBytes(64);
        EmbeddedChannel server = new EmbeddedChannel(sni, events);
        // Only the header of a 1000-byte handshake record: refused before its body is awaited or held.
        server.writeInbound(Unpooled.buffer().writeByte(22).writeShort(0x0301).writeShort(1000).writeByte(1));
        assertThat(failure(server, events)).isInstanceOf(MalformedClientHelloException.class).hasMessageContaining("1000");
        server.finishAndReleaseAll();
    }

    @Test
    void clientHelloOfOneByteRecordsBeyondTheLimitIsRejected() throws Exception {
        Events events = new Events();
        SniHandler sni = new SniHandler(mapping()).setMaxClientHelloBytes(64);
        EmbeddedChannel server = new EmbeddedChannel(sni, events);
        // A ClientHello header announcing 1000 bytes, one byte per record.
        byte[] header = {1, 0, 0x03, (byte) 0xE8};
        for (int i = 0; i < header.length && server.isOpen(); i++) {
            server.writeInbound(Unpooled.buffer().writeByte(22).writeShort(0x0301).writeShort(1).writeByte(header[i]));
        }
        assertThat(failure(server, events)).isInstanceOf(MalformedClientHelloException.class).hasMessageContaining("limit");
        server.finishAndReleaseAll();
    }
}
