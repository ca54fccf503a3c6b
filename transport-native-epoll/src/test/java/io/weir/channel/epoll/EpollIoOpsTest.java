package io.weir.channel.epoll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class EpollIoOpsTest {

    @Test
    void setsAreEdgeTriggeredUnlessLevelTriggeredIsAsked() {
        assertThat(EpollIoOps.EPOLLIN.isEdgeTriggered()).isTrue();
        assertThat(EpollIoOps.EPOLLIN.kernelEvents()).isEqualTo(0x001 | (1 << 31));
        EpollIoOps level = EpollIoOps.EPOLLIN.with(EpollIoOps.LEVEL_TRIGGERED);
        assertThat(level.isEdgeTriggered()).isFalse();
        assertThat(level.kernelEvents()).as("Weir's flag never reaches the kernel").isEqualTo(0x001);
    }

    @Test
    void combiningSetsAllocatesNothingNew() {
        EpollIoOps both = EpollIoOps.EPOLLIN.with(EpollIoOps.EPOLLOUT).with(EpollIoOps.EPOLLRDHUP);
        assertThat(both).isSameAs(EpollIoOps.valueOf(0x001 | 0x004 | 0x2000));
        assertThat(both.contains(EpollIoOps.EPOLLOUT)).isTrue();
        assertThat(both.without(EpollIoOps.EPOLLOUT)).isSameAs(EpollIoOps.EPOLLIN.with(EpollIoOps.EPOLLRDHUP));
        assertThat(both.intersects(EpollIoOps.EPOLLPRI)).isFalse();
        assertThat(both).hasToString("EpollIoOps(EPOLLIN|EPOLLOUT|EPOLLRDHUP)");
    }

    @Test
    void unknownBitsAndEpollEtAreRejectedWithTheValue() {
        assertThatIllegalArgumentException().isThrownBy(() -> EpollIoOps.valueOf(1 << 31)).withMessageContaining("80000000");
        assertThatIllegalArgumentException().isThrownBy(() -> EpollIoOps.valueOf(0x400)).withMessageContaining("400");
    }

    @Test
    void readyEventsKeepOnlyTheKernelBitsTheyKnow() {
        EpollIoEvent event = EpollIoEvent.of(0x001 | 0x010 | 0x2000 | 0x040 /* EPOLLRDNORM */);
        assertThat(event.isReadable()).isTrue();
        assertThat(event.isHangUp()).isTrue();
        assertThat(event.isReadHangUp()).isTrue();
        assertThat(event.isWritable()).isFalse();
        assertThat(event.isError()).isFalse();
        assertThat(event).isSameAs(EpollIoEvent.of(0x001 | 0x010 | 0x2000));
    }

    @Test
    void readyEventsBecomeTheReadinessTheSharedChannelsActOn() {
        assertThat(EpollIoEvent.of(0x001).readiness).isEqualTo(Flags.READABLE);
        assertThat(EpollIoEvent.of(0x004).readiness).isEqualTo(Flags.WRITABLE);
        assertThat(EpollIoEvent.of(0x2000).readiness).as("EPOLLRDHUP: the peer's FIN, the socket still readable")
                .isEqualTo(Flags.PEER_FIN);
        assertThat(EpollIoEvent.of(0x010).readiness).as("EPOLLHUP: a FIN too, and both directions down")
                .isEqualTo(Flags.PEER_FIN | Flags.HANGUP);
        assertThat(EpollIoEvent.of(0x008 | 0x001).readiness).isEqualTo(Flags.ERROR | Flags.READABLE);
        assertThat(EpollIoEvent.of(0x002).readiness).as("EPOLLPRI alone is nothing the channels act on").isZero();
    }

    /** unix-common's flags; this package's {@code Readiness} is a test helper of another kind. */
    private static final class Flags {
        static final int READABLE = io.weir.channel.unix.internal.Readiness.READABLE;
        static final int WRITABLE = io.weir.channel.unix.internal.Readiness.WRITABLE;
        static final int PEER_FIN = io.weir.channel.unix.internal.Readiness.PEER_FIN;
        static final int HANGUP = io.weir.channel.unix.internal.Readiness.HANGUP;
        static final int ERROR = io.weir.channel.unix.internal.Readiness.ERROR;
    }
}
