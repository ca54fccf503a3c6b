package io.weir.channel.kqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.unix.internal.Readiness;
import org.junit.jupiter.api.Test;

/** How a kevent becomes the readiness unix-common's channels act on; no library needed. */
class KQueueIoEventTest {
    /** ECONNREFUSED on the BSDs and macOS; the number itself matters not, only that one travels with the event. */
    private static final int SOME_ERRNO = 61;

    @Test
    void writeFilterIsWriteReadinessOnlyEvenAtEndOfFile() {
        assertThat(KQueueIoEvent.of(Native.EVFILT_WRITE, 0, 0).readiness).isEqualTo(Readiness.WRITABLE);
        // libkqueue reports EV_EOF on the write filter of a socket whose peer left: writing fails, reading decides.
        assertThat(KQueueIoEvent.of(Native.EVFILT_WRITE, Native.EV_EOF, 0).readiness).isEqualTo(Readiness.WRITABLE);
    }

    @Test
    void readFilterEndOfFileIsThePeersFin() {
        assertThat(KQueueIoEvent.of(Native.EVFILT_READ, 0, 0).readiness).isEqualTo(Readiness.READABLE);
        assertThat(KQueueIoEvent.of(Native.EVFILT_READ, Native.EV_EOF, 0).readiness)
                .isEqualTo(Readiness.READABLE | Readiness.PEER_FIN);
    }

    @Test
    void errorNumberOnTheReadFilterIsAnErrorCarriedToTheChannel() {
        KQueueIoEvent refused = KQueueIoEvent.of(Native.EVFILT_READ, Native.EV_EOF, SOME_ERRNO);
        assertThat(refused.readiness).isEqualTo(Readiness.READABLE | Readiness.PEER_FIN | Readiness.ERROR);
        assertThat(refused.errorNumber()).isEqualTo(SOME_ERRNO);
    }

    @Test
    void readinessWithoutAnErrorAllocatesNothing() {
        assertThat(KQueueIoEvent.of(Native.EVFILT_READ, Native.EV_EOF, 0))
                .isSameAs(KQueueIoEvent.of(Native.EVFILT_READ, Native.EV_EOF, 0));
    }
}
