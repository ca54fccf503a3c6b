package io.weir.handler.codec.http.multipart;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http.DefaultHttpContent;
import io.weir.handler.codec.http.DefaultHttpRequest;
import io.weir.handler.codec.http.DefaultLastHttpContent;
import io.weir.handler.codec.http.HttpContent;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Requests, bodies and a readable summary of what a decoder produced, shared by the POST decoder tests. */
final class PostBodies {
    private PostBodies() {
    }

    static HttpRequest post(String contentType) {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/upload");
        request.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        return request;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Offers {@code body} cut at {@code cuts} (ascending offsets), the last piece as LastHttpContent. */
    static void offer(InterfaceHttpPostRequestDecoder decoder, byte[] body, int... cuts) {
        int start = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int end = i < cuts.length ? cuts[i] : body.length;
            ByteBuf buf = Unpooled.copiedBuffer(body, start, end - start);
            HttpContent content = i < cuts.length ? new DefaultHttpContent(buf) : new DefaultLastHttpContent(buf);
            try {
                decoder.offer(content);
            } finally {
                content.release();
            }
            start = end;
        }
    }

    /** Offers {@code body} one byte per content. */
    static void offerBytewise(InterfaceHttpPostRequestDecoder decoder, byte[] body) {
        int[] cuts = new int[Math.max(0, body.length - 1)];
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = i + 1;
        }
        offer(decoder, body, cuts);
    }

    /** One line per item: kind, name, file details, content. */
    static List<String> summary(InterfaceHttpPostRequestDecoder decoder) {
        List<String> out = new ArrayList<>();
        for (InterfaceHttpData d : decoder.getBodyHttpDatas()) {
            try {
                if (d instanceof FileUpload f) {
                    out.add("file " + f.getName() + " '" + f.getFilename() + "' " + f.getContentType() + " "
                            + f.getContentTransferEncoding() + " " + f.length() + " [" + f.getString() + "]");
                } else {
                    Attribute a = (Attribute) d;
                    out.add("attr " + a.getName() + "=" + a.getValue() + " (" + a.getCharset().name() + ")");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    static long countFiles(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
