package io.weir.handler.codec.http.multipart;

import static io.weir.handler.codec.http.multipart.PostBodies.bytes;
import static io.weir.handler.codec.http.multipart.PostBodies.countFiles;
import static io.weir.handler.codec.http.multipart.PostBodies.offer;
import static io.weir.handler.codec.http.multipart.PostBodies.offerBytewise;
import static io.weir.handler.codec.http.multipart.PostBodies.post;
import static io.weir.handler.codec.http.multipart.PostBodies.summary;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.handler.codec.http.multipart.DefaultHttpDataFactory.Mode;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.ErrorDataDecoderException;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.TooLongFormFieldException;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.TooManyFormFieldsException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpPostStandardRequestDecoderTest {
    private static final String FORM = "application/x-www-form-urlencoded";
    private static final String SAMPLE = "name=Jos%C3%A9+Garc%C3%ADa&empty=&flag&&tags=a&tags=b%26c&eq=a%3Db=c";
    private static final List<String> SAMPLE_ITEMS = List.of("attr name=José García (UTF-8)",
            "attr empty= (UTF-8)", "attr flag= (UTF-8)", "attr tags=a (UTF-8)", "attr tags=b&c (UTF-8)",
            "attr eq=a=b=c (UTF-8)");

    @TempDir
    Path tempDir;

    private HttpPostRequestDecoder decoder(String contentType, HttpPostDecoderConfig config) {
        return new HttpPostRequestDecoder(new DefaultHttpDataFactory(Mode.MIXED).setBaseDirectory(tempDir),
                post(contentType), StandardCharsets.UTF_8, config);
    }

    @Test
    void decodesFieldsWithPercentAndPlus() {
        HttpPostRequestDecoder decoder = decoder(FORM, new HttpPostDecoderConfig());
        try {
            assertThat(decoder.isMultipart()).isFalse();
            offer(decoder, bytes(SAMPLE));
            assertThat(summary(decoder)).containsExactlyElementsOf(SAMPLE_ITEMS);
            assertThat(decoder.getBodyHttpDatas("tags")).hasSize(2);
            assertThat(decoder.currentPartialHttpData()).isNull();
        } finally {
            decoder.destroy();
        }
    }

    @Test
    void sameResultSplitAtEveryByteAndBytewise() {
        byte[] body = bytes(SAMPLE);
        for (int cut = 0; cut <= body.length; cut++) {
            HttpPostRequestDecoder decoder = decoder(FORM, new HttpPostDecoderConfig());
            try {
                offer(decoder, body, cut);
                assertThat(summary(decoder)).as("cut at %d", cut).containsExactlyElementsOf(SAMPLE_ITEMS);
            } finally {
                decoder.destroy();
            }
        }
        HttpPostRequestDecoder decoder = decoder(FORM, new HttpPostDecoderConfig());
        try {
            offerBytewise(decoder, body);
            assertThat(summary(decoder)).containsExactlyElementsOf(SAMPLE_ITEMS);
        } finally {
            decoder.destroy();
        }
    }

    @Test
    void charsetOfTheContentTypeIsUsed() {
        HttpPostRequestDecoder decoder = decoder(FORM + "; charset=ISO-8859-1", new HttpPostDecoderConfig());
        try {
            offer(decoder, bytes("v=caf%E9"));
            assertThat(summary(decoder)).containsExactly("attr v=café (ISO-8859-1)");
        } finally {
            decoder.destroy();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"a=%", "a=%4", "a=%zz", "=nameless", "a=1&b=%G0"})
    void invalidPercentEncodingOrNamelessFieldIsATypedError(String body) {
        HttpPostRequestDecoder decoder = decoder(FORM, new HttpPostDecoderConfig());
        try {
            assertThatThrownBy(() -> offer(decoder, bytes(body))).isInstanceOf(ErrorDataDecoderException.class);
        } finally {
            decoder.destroy();
        }
    }

    @Test
    void tooManyFieldsIsRejected() {
        HttpPostRequestDecoder decoder = decoder(FORM, new HttpPostDecoderConfig().setMaxFields(3));
        try {
            assertThatThrownBy(() -> offer(decoder, bytes("a=1&b=2&c=3&d=4"), 2, 9))
                    .isInstanceOf(TooManyFormFieldsException.class);
        } finally {
            decoder.destroy();
        }
        assertThat(countFiles(tempDir)).isZero();
    }

    @Test
    void undelimitedFieldGrowingBeyondTheLimitIsRejectedBeforeTheEnd() {
        HttpPostRequestDecoder decoder = decoder(FORM, new HttpPostDecoderConfig().setMaxFieldSizeBytes(1000));
        try {
            byte[] body = bytes("a=" + "x".repeat(5000));
            // Cut so the limit must trip on a non-last content: the body is never held whole.
            assertThatThrownBy(() -> offer(decoder, body, 600, 1200, 1800))
                    .isInstanceOf(TooLongFormFieldException.class).hasMessageContaining("1000");
        } finally {
            decoder.destroy();
        }
    }

    @Test
    void requestWithoutContentTypeIsTreatedAsUrlEncoded() {
        HttpPostRequestDecoder decoder = new HttpPostRequestDecoder(new io.weir.handler.codec.http.DefaultHttpRequest(
                io.weir.handler.codec.http.HttpVersion.HTTP_1_1, io.weir.handler.codec.http.HttpMethod.POST, "/"));
        try {
            offer(decoder, bytes("k=v"));
            assertThat(summary(decoder)).containsExactly("attr k=v (UTF-8)");
        } finally {
            decoder.destroy();
        }
    }
}
