package io.weir.server;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.channel.uring.IoUring;
import io.weir.channel.uring.IoUringIoHandler;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link Http2InteropTest}'s real HTTP/2 clients against the example server on io_uring (multishot receives into
 * the loops' provided buffer rings where the kernel has them). Skipped only where io_uring is not available, with
 * its cause.
 */
class IoUringHttp2InteropTest extends Http2InteropTest {

    /** Supersedes {@link Http2InteropTest#start()}: the same server, on io_uring loops. */
    @BeforeAll
    static void start() throws Exception {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring not available: " + IoUring.unavailabilityCause());
        startOn(IoUringIoHandler.newFactory());
    }
}
