package io.weir.grpc;

import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Marshallers the grpc module's tests share. */
final class TestMarshallers {
    /**
     * Byte arrays as they are, streamed with their length known up front (as protobuf's streams are), so the
     * calls take the same paths as generated stubs do.
     */
    static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new KnownLengthBytes(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    };

    private TestMarshallers() {
    }

    private static final class KnownLengthBytes extends ByteArrayInputStream implements KnownLength {
        KnownLengthBytes(byte[] bytes) {
            super(bytes);
        }
    }
}
