package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpEncoderTest.ascii;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.Unpooled;
import io.weir.handler.codec.DecoderException;
import io.weir.handler.codec.DecoderResult;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HttpMessagesTest {

    @Test
    void fullRequestOwnsItsContentAndReplaceCopiesTheHead() {
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.PUT, "/a", ascii("body"));
        req.headers().set("x", "1");
        req.trailingHeaders().set("t", "2");
        FullHttpRequest other = req.replace(ascii("new"));
        other.headers().set("x", "changed");
        assertThat(req.headers().get("x")).isEqualTo("1");
        assertThat(other.trailingHeaders().get("t")).isEqualTo("2");
        assertThat(other.method()).isEqualTo(HttpMethod.PUT);
        assertThat(other.content().toString(StandardCharsets.US_ASCII)).isEqualTo("new");
        assertThat(other.release()).isTrue();

        FullHttpRequest dup = req.retainedDuplicate();
        assertThat(req.refCnt()).isEqualTo(2);
        assertThat(dup.release()).isFalse();
        FullHttpRequest copy = req.copy();
        assertThat(copy).isEqualTo(req);
        assertThat(copy.release()).isTrue();
        assertThat(req.release()).isTrue();
        assertThat(req.refCnt()).isZero();
    }

    @Test
    void fullResponseChainsSettersAndComparesByContent() {
        FullHttpResponse a = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, ascii("x"))
                .setStatus(HttpResponseStatus.CREATED).setProtocolVersion(HttpVersion.HTTP_1_0);
        FullHttpResponse b = new DefaultFullHttpResponse(HttpVersion.HTTP_1_0, HttpResponseStatus.CREATED,
                ascii("x"));
        try {
            assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
            b.headers().add("h", "v");
            assertThat(a).isNotEqualTo(b);
        } finally {
            a.release();
            b.release();
        }
    }

    @Test
    void toStringShowsTheInitialLineAndHeaders() {
        HttpRequest req = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/index.html");
        req.headers().add(HttpHeaderNames.HOST, "example.com");
        assertThat(req.toString()).contains("GET /index.html HTTP/1.1").contains("host: example.com")
                .contains("decodeResult: success");
        HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND);
        assertThat(res.toString()).contains("HTTP/1.1 404 Not Found");
    }

    @Test
    void decoderResultDefaultsToSuccessAndCanRecordAFailure() {
        HttpRequest req = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
        assertThat(req.decoderResult().isSuccess()).isTrue();
        req.setDecoderResult(DecoderResult.failure(new DecoderException("bad")));
        assertThat(req.decoderResult().isFailure()).isTrue();
        assertThatThrownBy(() -> req.setDecoderResult(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void emptyLastContentIsSharedAndImmune() {
        LastHttpContent empty = LastHttpContent.EMPTY_LAST_CONTENT;
        assertThat(empty.release()).isFalse();
        assertThat(empty.retain()).isSameAs(empty);
        assertThat(empty.refCnt()).isEqualTo(1);
        assertThat(empty.content().readableBytes()).isZero();
        assertThat(empty.trailingHeaders().isEmpty()).isTrue();
        assertThatThrownBy(() -> empty.trailingHeaders().add("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);
        LastHttpContent replaced = empty.replace(ascii("z"));
        assertThat(replaced).isInstanceOf(DefaultLastHttpContent.class);
        assertThat(replaced.release()).isTrue();
    }

    @Test
    void contentPiecesKeepTheirTypeThroughCopies() {
        DefaultLastHttpContent last = new DefaultLastHttpContent(ascii("abc"));
        last.trailingHeaders().add("t", "1");
        LastHttpContent copy = last.copy();
        assertThat(copy.trailingHeaders().get("t")).isEqualTo("1");
        assertThat(copy.content().toString(StandardCharsets.US_ASCII)).isEqualTo("abc");
        copy.release();
        HttpContent piece = new DefaultHttpContent(Unpooled.EMPTY_BUFFER);
        assertThat(piece.duplicate()).isInstanceOf(DefaultHttpContent.class);
        assertThat(last.release()).isTrue();
    }
}
