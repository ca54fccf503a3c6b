package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.stream.ChunkedFile;
import io.weir.handler.stream.ChunkedInput;
import io.weir.handler.stream.ChunkedStream;
import io.weir.handler.stream.ChunkedWriteHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpChunkedInputTest {
    private static final int CHUNK_SIZE_BYTES = 1000;

    @TempDir
    Path dir;

    private static byte[] sample(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) ('a' + i % 26);
        }
        return bytes;
    }

    private static byte[] drain(EmbeddedChannel ch) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            out.writeBytes(bytes);
            b.release();
        }
        return out.toByteArray();
    }

    private static String chunk(byte[] data, int from, int to) {
        return Integer.toHexString(to - from) + "\r\n"
                + new String(data, from, to - from, StandardCharsets.ISO_8859_1) + "\r\n";
    }

    @Test
    void aFileArrivesAsChunkedFramesOfTheSourceChunksThenTheLastChunk() throws Exception {
        byte[] data = sample(2 * CHUNK_SIZE_BYTES + 500);
        Path file = Files.write(dir.resolve("body.txt"), data);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder(), new ChunkedWriteHandler());
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(head, true);
        ch.write(head);
        HttpChunkedInput input = new HttpChunkedInput(
                new ChunkedFile(new RandomAccessFile(file.toFile(), "r"), CHUNK_SIZE_BYTES));
        ch.writeAndFlush(input).sync();

        String expected = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
                + chunk(data, 0, 1000) + chunk(data, 1000, 2000) + chunk(data, 2000, 2500) + "0\r\n\r\n";
        assertThat(new String(drain(ch), StandardCharsets.ISO_8859_1)).isEqualTo(expected);
        assertThat(input.isEndOfInput()).isTrue();
        assertThat(input.progress()).isEqualTo(data.length);
        assertThat(input.length()).isEqualTo(data.length);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void trailersGivenAsTheLastContentFollowTheLastChunk() throws Exception {
        byte[] data = sample(10);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder(), new ChunkedWriteHandler());
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(head, true);
        LastHttpContent last = new DefaultLastHttpContent();
        last.trailingHeaders().set("x-checksum", "abc");
        ch.write(head);
        ch.writeAndFlush(new HttpChunkedInput(new ChunkedStream(new ByteArrayInputStream(data), 4), last)).sync();

        assertThat(new String(drain(ch), StandardCharsets.ISO_8859_1)).isEqualTo(
                "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
                        + chunk(data, 0, 4) + chunk(data, 4, 8) + chunk(data, 8, 10)
                        + "0\r\nx-checksum: abc\r\n\r\n");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void anEmptyFileIsOnlyTheLastChunk() throws Exception {
        Path file = Files.write(dir.resolve("empty"), new byte[0]);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder(), new ChunkedWriteHandler());
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(head, true);
        ch.write(head);
        ch.writeAndFlush(new HttpChunkedInput(new ChunkedFile(file.toFile()))).sync();
        assertThat(new String(drain(ch), StandardCharsets.ISO_8859_1))
                .isEqualTo("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aContentLengthBodyIsWrittenWithoutFraming() throws Exception {
        byte[] data = sample(2500);
        Path file = Files.write(dir.resolve("plain.bin"), data);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder(), new ChunkedWriteHandler());
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setContentLength(head, data.length);
        ch.write(head);
        ch.writeAndFlush(new HttpChunkedInput(
                new ChunkedFile(new RandomAccessFile(file.toFile(), "r"), CHUNK_SIZE_BYTES))).sync();
        assertThat(new String(drain(ch), StandardCharsets.ISO_8859_1)).isEqualTo(
                "HTTP/1.1 200 OK\r\ncontent-length: 2500\r\n\r\n" + new String(data, StandardCharsets.ISO_8859_1));
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void closingBeforeTheEndClosesTheSourceAndReleasesTheUnsentTrailers() throws Exception {
        boolean[] closed = new boolean[1];
        ChunkedInput<ByteBuf> source = new ChunkedInput<>() {
            @Override
            public boolean isEndOfInput() {
                return closed[0];
            }

            @Override
            public void close() {
                closed[0] = true;
            }

            @Override
            public ByteBuf readChunk(ByteBufAllocator allocator) {
                return Unpooled.buffer(1).writeByte('x');
            }

            @Override
            public long length() {
                return -1;
            }

            @Override
            public long progress() {
                return 0;
            }
        };
        LastHttpContent last = new DefaultLastHttpContent(Unpooled.buffer(1).writeByte('z'));
        HttpChunkedInput input = new HttpChunkedInput(source, last);
        HttpContent first = input.readChunk(ByteBufAllocator.DEFAULT);
        assertThat(first).isNotInstanceOf(LastHttpContent.class);
        first.release();
        input.close();
        input.close();
        assertThat(closed[0]).isTrue();
        assertThat(last.refCnt()).isZero();
        assertThat(input.isEndOfInput()).isTrue();
        assertThat(input.readChunk(ByteBufAllocator.DEFAULT)).isNull();
        assertThat(input.length()).isEqualTo(-1);
    }
}
