package io.weir.grpc;

import io.grpc.Metadata;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.util.AsciiString;
import java.util.Base64;

/**
 * grpc-java's {@link Metadata} to and from HTTP/2 header fields (gRPC over HTTP/2, "Custom-Metadata"): ASCII values
 * as they are, {@code -bin} values base64-encoded. On the way out values are written without padding, as the
 * protocol recommends; on the way in padded and unpadded values are accepted, and a field may carry several
 * comma-separated values.
 *
 * <p>Stateless; any thread.
 */
final class GrpcMetadataCodec {
    private static final Base64.Encoder BASE64 = Base64.getEncoder().withoutPadding();
    private static final AsciiString TE = AsciiString.cached("te");

    private GrpcMetadataCodec() {
    }

    /**
     * The request's regular fields as metadata, those gRPC reserves for itself ({@code grpc-timeout},
     * {@code grpc-encoding}, {@code grpc-accept-encoding}, {@code content-type}, {@code te}) left out.
     *
     * @throws IllegalArgumentException for a {@code -bin} field that is not base64
     */
    static Metadata toMetadata(Http2Headers headers) {
        Metadata metadata = new Metadata();
        for (int i = headers.pseudoHeaderCount(); i < headers.size(); i++) {
            CharSequence name = headers.name(i);
            if (isReserved(name)) {
                continue;
            }
            String key = name.toString();
            String value = headers.value(i).toString();
            if (key.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
                Metadata.Key<byte[]> k = binaryKey(key);
                if (k == null) {
                    continue;
                }
                int start = 0;
                for (;;) {
                    int comma = value.indexOf(',', start);
                    int end = comma < 0 ? value.length() : comma;
                    // Base64.getDecoder() accepts a value with or without its '=' padding.
                    metadata.put(k, Base64.getDecoder().decode(value.substring(start, end).trim()));
                    if (comma < 0) {
                        break;
                    }
                    start = comma + 1;
                }
            } else {
                Metadata.Key<String> k = asciiKey(key);
                if (k != null) {
                    metadata.put(k, value);
                }
            }
        }
        return metadata;
    }

    /**
     * Adds {@code metadata}'s entries to {@code headers}, leaving out the fields the call writes itself
     * ({@code grpc-status}, {@code grpc-message}, {@code grpc-encoding}, {@code grpc-accept-encoding},
     * {@code content-type}, {@code te}) and pseudo-headers.
     *
     * @throws IllegalArgumentException for a value HTTP/2 cannot carry (a CR, LF or NUL)
     */
    static void addTo(Metadata metadata, Http2Headers headers) {
        for (String key : metadata.keys()) {
            if (key.isEmpty() || key.charAt(0) == ':' || isReserved(key)
                    || AsciiString.contentEqualsIgnoreCase(GrpcHeaderNames.GRPC_STATUS, key)
                    || AsciiString.contentEqualsIgnoreCase(GrpcHeaderNames.GRPC_MESSAGE, key)) {
                continue;
            }
            if (key.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
                for (byte[] value : metadata.getAll(Metadata.Key.of(key, Metadata.BINARY_BYTE_MARSHALLER))) {
                    headers.add(key, BASE64.encodeToString(value));
                }
            } else {
                for (String value : metadata.getAll(Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER))) {
                    headers.add(key, value);
                }
            }
        }
    }

    private static boolean isReserved(CharSequence name) {
        return AsciiString.contentEqualsIgnoreCase(GrpcHeaderNames.GRPC_TIMEOUT, name)
                || AsciiString.contentEqualsIgnoreCase(GrpcHeaderNames.GRPC_ENCODING, name)
                || AsciiString.contentEqualsIgnoreCase(GrpcHeaderNames.GRPC_ACCEPT_ENCODING, name)
                || AsciiString.contentEqualsIgnoreCase(GrpcHeaderNames.CONTENT_TYPE, name)
                || AsciiString.contentEqualsIgnoreCase(TE, name);
    }

    private static Metadata.Key<byte[]> binaryKey(String name) {
        try {
            return Metadata.Key.of(name, Metadata.BINARY_BYTE_MARSHALLER);
        } catch (IllegalArgumentException e) {
            // An HTTP field name gRPC does not allow in metadata (outside 0-9 a-z _ - .): not for the service.
            return null;
        }
    }

    private static Metadata.Key<String> asciiKey(String name) {
        try {
            return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
