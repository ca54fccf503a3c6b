package io.weir.grpc.interop;

import io.weir.grpc.WeirGrpcChannel;
import io.weir.handler.ssl.SslContextBuilder;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The interop client: Weir's {@link WeirGrpcChannel} runs one of {@link InteropCases#NAMES} against any
 * implementation's interop server, flagged as grpc's interop clients are.
 *
 * <pre>
 * java -cp grpc-interop/target/weir-grpc-interop.jar io.weir.grpc.interop.TestServiceClient \
 *      --server_host=localhost --server_port=10000 --use_tls=false --test_case=large_unary
 * </pre>
 *
 * With {@code --use_tls=true} the JDK's trusted roots verify the server, or with {@code --use_test_ca=true} the
 * certificates in {@code --ca_file}; {@code --server_host_override} sets the calls' authority. Exits 0 only when
 * the case passed, 1 when it failed, 2 for bad flags.
 */
public final class TestServiceClient {
    private TestServiceClient() {
    }

    public static void main(String[] args) throws Exception {
        String host;
        int port;
        boolean tls;
        String caFile;
        String authority;
        String testCase;
        int soakIterations;
        try {
            InteropFlags flags = InteropFlags.parse(args);
            host = flags.value("server_host", "localhost");
            port = flags.intValue("server_port", 10000);
            tls = flags.booleanValue("use_tls", false);
            caFile = flags.booleanValue("use_test_ca", false) ? flags.value("ca_file", null) : null;
            authority = flags.value("server_host_override", null);
            testCase = flags.value("test_case", "large_unary");
            soakIterations = flags.intValue("soak_iterations", 10);
            flags.rejectUnknown();
            if (!InteropCases.NAMES.contains(testCase)) {
                throw new IllegalArgumentException("unknown --test_case " + testCase + "; known: "
                        + InteropCases.NAMES);
            }
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        WeirGrpcChannel.Builder builder = WeirGrpcChannel.forAddress(host, port);
        if (tls) {
            SslContextBuilder context = SslContextBuilder.forClient().applicationProtocols("h2");
            if (caFile != null) {
                context.trustManager(Path.of(caFile));
            }
            builder.tls(context.build());
        }
        if (authority != null) {
            builder.overrideAuthority(authority);
        }
        WeirGrpcChannel channel = builder.build();
        int exit = 0;
        try {
            new InteropCases(channel, soakIterations).run(testCase);
            System.out.println("PASSED " + testCase);
        } catch (Exception | AssertionError e) {
            System.out.println("FAILED " + testCase + ": " + e);
            e.printStackTrace(System.out);
            exit = 1;
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        System.exit(exit);
    }
}
