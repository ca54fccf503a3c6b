package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpContentCompressorTest.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The compressor behind a real server codec, and the decompressor behind a real client codec: bytes on the wire. */
class HttpContentCompressionCodecTest {

    private static ByteBuf ascii(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    private static byte[] drainOutbound(EmbeddedChannel ch) {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            wire.writeBytes(ByteBufUtil.getBytes((ByteBuf) o));
            ReferenceCountUtil.release(o);
        }
        return wire.toByteArray();
    }

    @Test
    void streamedResponseGoesOutChunkedAndAClientCodecWithDecompressorReadsItBack() {
        EmbeddedChannel server = new EmbeddedChannel(new HttpServerCodec(), new HttpContentCompressor());
        server.writeInbound(ascii("GET /feed HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"));
        for (Object o; (o = server.readInbound()) != null; ) {
            ReferenceCountUtil.release(o);
        }
        byte[] part = text(5000);
        server.writeOutbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK),
                new DefaultHttpContent(Unpooled.copiedBuffer(part)), new DefaultHttpContent(Unpooled.buffer(0)),
                new DefaultLastHttpContent(Unpooled.copiedBuffer(part)));
        byte[] wire = drainOutbound(server);
        String head = new String(wire, 0, Math.min(wire.length, 200), StandardCharsets.ISO_8859_1).toLowerCase();
        assertThat(head).startsWith("http/1.1 200 ok\r\n").contains("content-encoding: gzip\r\n")
                .contains("transfer-encoding: chunked\r\n").contains("vary: accept-encoding\r\n")
                .doesNotContain("content-length");
        assertThat(server.finishAndReleaseAll()).isFalse();

        EmbeddedChannel client = new EmbeddedChannel(new HttpClientCodec(), new HttpContentDecompressor(),
                new HttpObjectAggregator(1 << 20));
        client.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/feed"));
        drainOutbound(client);
        client.writeInbound(Unpooled.copiedBuffer(wire));
        FullHttpResponse res = client.readInbound();
        byte[] expected = new byte[2 * part.length];
        System.arraycopy(part, 0, expected, 0, part.length);
        System.arraycopy(part, 0, expected, part.length, part.length);
        assertThat(ByteBufUtil.getBytes(res.content())).isEqualTo(expected);
        assertThat(res.headers().contains(HttpHeaderNames.CONTENT_ENCODING)).isFalse();
        res.release();
        assertThat(client.finishAndReleaseAll()).isFalse();
    }

    @Test
    void fullResponseKeepsAContentLengthOnTheWire() {
        EmbeddedChannel server = new EmbeddedChannel(new HttpServerCodec(), new HttpContentCompressor());
        server.writeInbound(ascii("GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: deflate, gzip;q=0.9\r\n\r\n"));
        for (Object o; (o = server.readInbound()) != null; ) {
            ReferenceCountUtil.release(o);
        }
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.copiedBuffer(text(20_000)));
        HttpUtil.setContentLength(res, 20_000);
        server.writeOutbound(res);
        String wire = new String(drainOutbound(server), StandardCharsets.ISO_8859_1);
        int split = wire.indexOf("\r\n\r\n") + 4;
        String head = wire.substring(0, split).toLowerCase();
        assertThat(head).contains("content-encoding: deflate\r\n").doesNotContain("transfer-encoding")
                .contains("content-length: " + (wire.length() - split) + "\r\n");
        assertThat(server.finishAndReleaseAll()).isFalse();
    }
}
