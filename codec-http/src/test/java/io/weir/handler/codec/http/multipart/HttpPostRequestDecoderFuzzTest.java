package io.weir.handler.codec.http.multipart;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http.DefaultHttpContent;
import io.weir.handler.codec.http.DefaultLastHttpContent;
import io.weir.handler.codec.http.HttpContent;
import io.weir.handler.codec.http.multipart.DefaultHttpDataFactory.Mode;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.ErrorDataDecoderException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzz target for the POST decoders. Run as a plain test it replays the corpus under
 * {@code src/test/resources/io/weir/handler/codec/http/multipart/HttpPostRequestDecoderFuzzTestInputs/postDecoder/};
 * with {@code JAZZER_FUZZ=1} Jazzer mutates it.
 *
 * <p>Input layout: byte 0 picks multipart (bit 0) or urlencoded, the storage mode (bits 1-2) and the read size
 * (bits 3-7); the rest is the body, for multipart with boundary {@code b}. Invariants: the decoder either accepts
 * the body or throws an {@link ErrorDataDecoderException}, every item read back has the length it claims, and after
 * {@code destroy()} no buffer leaks (PARANOID leak detection fails the class otherwise) and no temporary file stays.
 */
class HttpPostRequestDecoderFuzzTest {
    private static final Path TEMP_DIR;

    static {
        try {
            TEMP_DIR = Files.createTempDirectory("weir-post-fuzz");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "30s")
    void postDecoder(byte[] data) {
        if (data.length == 0) {
            return;
        }
        int control = data[0] & 0xff;
        boolean multipart = (control & 1) != 0;
        Mode mode = Mode.values()[((control >> 1) & 3) % 3];
        int readSize = 1 + (control >> 3);
        DefaultHttpDataFactory factory = new DefaultHttpDataFactory(mode, 64, StandardCharsets.UTF_8)
                .setBaseDirectory(TEMP_DIR);
        HttpPostDecoderConfig config = new HttpPostDecoderConfig().setMaxFields(16).setMaxFieldSizeBytes(512)
                .setMaxBufferedBytes(1024).setMaxPartHeaderSizeBytes(256);
        HttpPostRequestDecoder decoder;
        try {
            decoder = new HttpPostRequestDecoder(factory, PostBodies.post(multipart
                    ? "multipart/form-data; boundary=b" : "application/x-www-form-urlencoded"),
                    StandardCharsets.UTF_8, config);
        } catch (ErrorDataDecoderException e) {
            return;
        }
        try {
            for (int i = 1, end = -1; end < data.length; i = end) {
                end = Math.min(data.length, i + readSize);
                ByteBuf buf = Unpooled.copiedBuffer(data, i, end - i);
                HttpContent content = end == data.length ? new DefaultLastHttpContent(buf)
                        : new DefaultHttpContent(buf);
                try {
                    decoder.offer(content);
                } finally {
                    content.release();
                }
                while (decoder.hasNext()) {
                    HttpData item = (HttpData) decoder.next();
                    assertThat(item.isCompleted()).isTrue();
                    assertThat((long) item.get().length).isEqualTo(item.length());
                }
            }
            assertThat(decoder.getBodyHttpDatas().size()).isLessThanOrEqualTo(16);
        } catch (ErrorDataDecoderException expected) {
            // A typed rejection is a fine outcome for arbitrary input.
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            decoder.destroy();
        }
        assertThat(PostBodies.countFiles(TEMP_DIR)).isZero();
    }
}
