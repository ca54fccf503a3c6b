package io.weir.handler.codec.http.multipart;

import static io.weir.handler.codec.http.multipart.PostBodies.countFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http.DefaultHttpRequest;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.HttpContent;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpRequestDecoder;
import io.weir.handler.codec.http.HttpRequestEncoder;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.handler.codec.http.multipart.DefaultHttpDataFactory.Mode;
import io.weir.handler.codec.http.multipart.HttpPostRequestEncoder.ErrorDataEncoderException;
import io.weir.handler.stream.ChunkedWriteHandler;
import io.weir.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpPostRequestEncoderTest {
    @TempDir
    Path tempDir;

    /**
     * Client side: HttpRequestEncoder + ChunkedWriteHandler; server side: HttpRequestDecoder then the POST decoder.
     * Returns the server's decoder after the whole body went through (caller destroys it).
     */
    private HttpPostRequestDecoder roundTrip(HttpPostRequestEncoder encoder, HttpRequest request,
                                            DefaultHttpDataFactory serverFactory, int[] chunkCount) {
        HttpRequest toSend = encoder.finalizeRequest();
        EmbeddedChannel client = new EmbeddedChannel(new HttpRequestEncoder(), new ChunkedWriteHandler());
        client.writeOutbound(toSend);
        if (encoder.isChunked()) {
            assertThat(toSend).isSameAs(request);
            client.writeOutbound(encoder);
        }
        EmbeddedChannel server = new EmbeddedChannel(new HttpRequestDecoder());
        for (Object o; (o = client.readOutbound()) != null; ) {
            server.writeInbound((ByteBuf) o);
        }
        assertThat(client.finish()).isFalse();
        HttpPostRequestDecoder decoder = null;
        try {
            for (Object o; (o = server.readInbound()) != null; ) {
                if (o instanceof HttpRequest r) {
                    decoder = new HttpPostRequestDecoder(serverFactory, r, StandardCharsets.UTF_8,
                            new HttpPostDecoderConfig());
                }
                if (o instanceof HttpContent c) {
                    chunkCount[0]++;
                    if (!(o instanceof HttpRequest)) {
                        decoder.offer(c);
                    }
                }
                ReferenceCountUtil.release(o);
            }
        } finally {
            server.finishAndReleaseAll();
        }
        return decoder;
    }

    @Test
    void multipartWithALargeFileRoundTripsThroughChunkedWriteHandler() throws IOException {
        byte[] data = new byte[300_000];
        new Random(7).nextBytes(data);
        Path file = Files.write(tempDir.resolve("upload.bin"), data);
        Path serverDir = Files.createDirectory(tempDir.resolve("server"));
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/upload");
        request.headers().set(HttpHeaderNames.HOST, "example.com");
        DefaultHttpDataFactory clientFactory = new DefaultHttpDataFactory(Mode.MIXED);
        HttpPostRequestEncoder encoder = new HttpPostRequestEncoder(clientFactory, request, true,
                StandardCharsets.UTF_8);
        encoder.addBodyAttribute("title", "Grüße \"quoted\"");
        encoder.addBodyFileUpload("file", file.toFile(), "application/octet-stream", false);
        encoder.addBodyFileUpload("note", "note.txt", Files.writeString(tempDir.resolve("n.txt"), "hi").toFile(),
                null, true);
        int[] chunks = {0};
        HttpPostRequestDecoder decoder = roundTrip(encoder, request,
                new DefaultHttpDataFactory(Mode.MIXED).setBaseDirectory(serverDir), chunks);
        try {
            assertThat(request.headers().get(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo(Long.toString(encoder.length()));
            assertThat(encoder.progress()).isEqualTo(encoder.length());
            assertThat(chunks[0]).as("streamed in many contents").isGreaterThan(30);
            Attribute title = (Attribute) decoder.getBodyHttpData("title");
            assertThat(title.getValue()).isEqualTo("Grüße \"quoted\"");
            FileUpload up = (FileUpload) decoder.getBodyHttpData("file");
            assertThat(up.getFilename()).isEqualTo("upload.bin");
            assertThat(up.isInMemory()).isFalse();
            assertThat(up.get()).isEqualTo(data);
            FileUpload note = (FileUpload) decoder.getBodyHttpData("note");
            assertThat(note.getContentType()).isEqualTo("text/plain");
            assertThat(note.getString()).isEqualTo("hi");
        } finally {
            decoder.destroy();
            encoder.cleanFiles();
        }
        assertThat(countFiles(serverDir)).isZero();
        assertThat(file).exists();
    }

    @Test
    void smallUrlEncodedFormBecomesOneFullRequest() throws IOException {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/form");
        HttpPostRequestEncoder encoder = new HttpPostRequestEncoder(request, false);
        encoder.addBodyAttribute("q", "a b&c=d");
        encoder.addBodyAttribute("lang", "français");
        HttpRequest full = encoder.finalizeRequest();
        assertThat(full).isInstanceOf(FullHttpRequest.class);
        assertThat(encoder.isChunked()).isFalse();
        assertThat(((FullHttpRequest) full).content().toString(StandardCharsets.US_ASCII))
                .isEqualTo("q=a+b%26c%3Dd&lang=fran%C3%A7ais");
        assertThat(full.headers().get(HttpHeaderNames.CONTENT_TYPE)).isEqualTo("application/x-www-form-urlencoded");
        HttpPostRequestDecoder decoder = new HttpPostRequestDecoder(full);
        try {
            assertThat(((Attribute) decoder.getBodyHttpData("q")).getValue()).isEqualTo("a b&c=d");
            assertThat(((Attribute) decoder.getBodyHttpData("lang")).getValue()).isEqualTo("français");
        } finally {
            decoder.destroy();
            ((FullHttpRequest) full).release();
            encoder.cleanFiles();
        }
    }

    @Test
    void attributesAreEncodedAndLabelledWithTheEncoderCharset() throws IOException {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/form");
        HttpPostRequestEncoder encoder = new HttpPostRequestEncoder(new DefaultHttpDataFactory(Mode.MEMORY),
                request, true, StandardCharsets.ISO_8859_1);
        encoder.addBodyAttribute("v", "crème brûlée");
        HttpRequest full = encoder.finalizeRequest();
        assertThat(((FullHttpRequest) full).content().toString(StandardCharsets.ISO_8859_1))
                .contains("Content-Type: text/plain; charset=ISO-8859-1\r\n\r\ncrème brûlée\r\n");
        HttpPostRequestDecoder decoder = new HttpPostRequestDecoder(full);
        try {
            Attribute v = (Attribute) decoder.getBodyHttpData("v");
            assertThat(v.getValue()).isEqualTo("crème brûlée");
            assertThat(v.getCharset()).isEqualTo(StandardCharsets.ISO_8859_1);
        } finally {
            decoder.destroy();
            ((FullHttpRequest) full).release();
            encoder.cleanFiles();
        }
    }

    @Test
    void misuseIsRefused() {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/form");
        HttpPostRequestEncoder encoder = new HttpPostRequestEncoder(request, false);
        assertThatThrownBy(() -> encoder.addBodyFileUpload("f", tempDir.toFile(), null, false))
                .isInstanceOf(ErrorDataEncoderException.class).hasMessageContaining("multipart");
        assertThatThrownBy(() -> encoder.readChunk(io.weir.buffer.UnpooledByteBufAllocator.DEFAULT))
                .isInstanceOf(IllegalStateException.class);
        HttpRequest finalized = encoder.finalizeRequest();
        assertThatThrownBy(encoder::finalizeRequest).isInstanceOf(ErrorDataEncoderException.class);
        assertThatThrownBy(() -> encoder.addBodyAttribute("a", "b")).isInstanceOf(ErrorDataEncoderException.class);
        ReferenceCountUtil.release(finalized);
        encoder.cleanFiles();
    }

    @Test
    void lastChunkIsALastHttpContent() throws Exception {
        Path file = Files.write(tempDir.resolve("f.bin"), new byte[20_000]);
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/");
        HttpPostRequestEncoder encoder = new HttpPostRequestEncoder(
                new DefaultHttpDataFactory(Mode.DISK), request, true, StandardCharsets.UTF_8);
        encoder.addBodyFileUpload("f", file.toFile(), null, false);
        encoder.finalizeRequest();
        long total = 0;
        HttpContent c;
        do {
            c = encoder.readChunk(io.weir.buffer.UnpooledByteBufAllocator.DEFAULT);
            total += c.content().readableBytes();
            assertThat(c.content().readableBytes()).isLessThanOrEqualTo(HttpPostRequestEncoder.DEFAULT_CHUNK_SIZE_BYTES);
            c.release();
        } while (!(c instanceof LastHttpContent));
        assertThat(encoder.isEndOfInput()).isTrue();
        assertThat(total).isEqualTo(encoder.length());
        assertThat(encoder.readChunk(io.weir.buffer.UnpooledByteBufAllocator.DEFAULT)).isNull();
        encoder.close();
        encoder.cleanFiles();
        assertThat(file).exists();
    }
}
