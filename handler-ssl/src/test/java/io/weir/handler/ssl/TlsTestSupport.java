package io.weir.handler.ssl;

import io.weir.buffer.ByteBuf;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.concurrent.TimeUnit;

/** Certificates and contexts shared by the TLS tests, and a shuttle between two embedded channels. */
final class TlsTestSupport {
    /** EC P-256, valid now, for localhost and 127.0.0.1. */
    static final SelfSignedCertificate SERVER_CERT = SelfSignedCertificate.create("localhost");
    static final SelfSignedCertificate CLIENT_CERT = SelfSignedCertificate.create("weir-client");
    static final long TIMEOUT_SECONDS = 30;

    private TlsTestSupport() {
    }

    static SslContextBuilder server(String... protocols) {
        SslContextBuilder b = SslContextBuilder.forServer(SERVER_CERT.privateKey(), SERVER_CERT.certificate());
        return protocols.length == 0 ? b : b.protocols(protocols);
    }

    static SslContextBuilder client(String... protocols) {
        SslContextBuilder b = SslContextBuilder.forClient().trustManager(SERVER_CERT.certificate());
        return protocols.length == 0 ? b : b.protocols(protocols);
    }

    /**
     * Moves every outbound buffer of each channel to the other's inbound side until neither has anything left;
     * returns the number of buffers moved.
     */
    static int shuttle(EmbeddedChannel a, EmbeddedChannel b) {
        int moved = 0;
        for (int round = 0; round < 1000; round++) {
            int n = move(a, b) + move(b, a);
            a.runPendingTasks();
            b.runPendingTasks();
            if (n == 0) {
                return moved;
            }
            moved += n;
        }
        throw new AssertionError("the two channels never went quiet");
    }

    static int move(EmbeddedChannel from, EmbeddedChannel to) {
        int n = 0;
        for (Object o; (o = from.readOutbound()) != null; ) {
            n++;
            if (to.isOpen()) {
                to.writeInbound(o);
            } else {
                ((ByteBuf) o).release();
            }
        }
        return n;
    }

    static void await(io.weir.util.concurrent.Future<?> f) throws Exception {
        if (!f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("not done within " + TIMEOUT_SECONDS + " s: " + f);
        }
    }
}
