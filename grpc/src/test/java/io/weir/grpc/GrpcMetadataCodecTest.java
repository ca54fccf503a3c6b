package io.weir.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Metadata;
import io.weir.handler.codec.http2.Http2Headers;
import org.junit.jupiter.api.Test;

class GrpcMetadataCodecTest {
    private static final Metadata.Key<byte[]> BLOB = Metadata.Key.of("x-blob-bin", Metadata.BINARY_BYTE_MARSHALLER);
    private static final Metadata.Key<String> TOKEN = Metadata.Key.of("x-token", Metadata.ASCII_STRING_MARSHALLER);

    private static Http2Headers request() {
        return new Http2Headers().method("POST").path("/a.B/C").scheme("http").authority("h");
    }

    @Test
    void binaryValuesAreDecodedWithOrWithoutPaddingAndCommaSeparated() {
        Http2Headers headers = request().add("x-blob-bin", "/gA=").add("x-blob-bin", "/gA").add("x-blob-bin",
                "AQ==, AgM");
        Metadata metadata = GrpcMetadataCodec.toMetadata(headers);
        assertThat(metadata.getAll(BLOB)).containsExactly(new byte[] {(byte) 0xFE, 0}, new byte[] {(byte) 0xFE, 0},
                new byte[] {1}, new byte[] {2, 3});
    }

    @Test
    void binaryValueThatIsNotBase64IsRejected() {
        assertThatThrownBy(() -> GrpcMetadataCodec.toMetadata(request().add("x-blob-bin", "not base64!")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void reservedAndPseudoFieldsStayOutOfTheMetadata() {
        Http2Headers headers = request().add("content-type", "application/grpc").add("te", "trailers")
                .add("grpc-timeout", "1S").add("grpc-encoding", "gzip").add("grpc-accept-encoding", "gzip")
                .add("x-token", "t").add("user-agent", "grpc-java");
        Metadata metadata = GrpcMetadataCodec.toMetadata(headers);
        assertThat(metadata.keys()).containsExactlyInAnyOrder("x-token", "user-agent");
        assertThat(metadata.get(TOKEN)).isEqualTo("t");
    }

    @Test
    void binaryValuesAreWrittenWithoutPaddingAndReservedKeysAreDropped() {
        Metadata metadata = new Metadata();
        metadata.put(BLOB, new byte[] {(byte) 0xFE, 0});
        metadata.put(TOKEN, "a");
        metadata.put(TOKEN, "b");
        metadata.put(Metadata.Key.of("grpc-status", Metadata.ASCII_STRING_MARSHALLER), "0");
        metadata.put(Metadata.Key.of("content-type", Metadata.ASCII_STRING_MARSHALLER), "text/plain");
        Http2Headers headers = new Http2Headers();
        GrpcMetadataCodec.addTo(metadata, headers);
        assertThat(headers.getAll("x-blob-bin")).extracting(CharSequence::toString).containsExactly("/gA");
        assertThat(headers.getAll("x-token")).extracting(CharSequence::toString).containsExactly("a", "b");
        assertThat(headers.contains("grpc-status")).isFalse();
        assertThat(headers.contains("content-type")).isFalse();
    }

    @Test
    void valueHttp2CannotCarryIsRefused() {
        Metadata metadata = new Metadata();
        metadata.put(TOKEN, "line\r\nbreak");
        assertThatThrownBy(() -> GrpcMetadataCodec.addTo(metadata, new Http2Headers()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void acceptEncodingListIsMatchedByName() {
        assertThat(ServerCallStream.accepts("identity, deflate,gzip", "gzip")).isTrue();
        assertThat(ServerCallStream.accepts("gzipx", "gzip")).isFalse();
        assertThat(ServerCallStream.accepts(null, "gzip")).isFalse();
    }
}
