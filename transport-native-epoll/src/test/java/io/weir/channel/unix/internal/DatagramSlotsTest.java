package io.weir.channel.unix.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import io.weir.channel.epoll.Epoll;
import io.weir.util.platform.PlatformInfo;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The per-thread slots epoll's batches and kqueue's single datagrams share: a peer written to a slot is read back
 * as the same address, a slot without one has none, and a peer seen again is not decoded again. The slots are
 * plain direct memory; the epoll library registers the native that finds its address.
 */
class DatagramSlotsTest {

    @BeforeAll
    static void loadNatives() {
        Assumptions.assumeTrue(PlatformInfo.isLinux(), "epoll exists only on Linux");
        Epoll.ensureAvailability();
    }

    @Test
    void peerWrittenToASlotIsReadBackEqual() throws Exception {
        DatagramSlots slots = DatagramSlots.current();
        InetSocketAddress v4 = new InetSocketAddress(InetAddress.getByName("192.0.2.7"), 5353);
        InetSocketAddress v6 = new InetSocketAddress(
                Inet6Address.getByAddress(null, InetAddress.getByName("fe80::1").getAddress(), 3), 443);
        slots.buffer(0, 0, 0);
        slots.peer(0, v4);
        slots.buffer(DatagramSlots.SLOTS - 1, 0, 0);
        slots.peer(DatagramSlots.SLOTS - 1, v6);
        assertThat(slots.peer(0)).isEqualTo(v4);
        InetSocketAddress back = slots.peer(DatagramSlots.SLOTS - 1);
        assertThat(back).isEqualTo(v6);
        assertThat(((Inet6Address) back.getAddress()).getScopeId()).isEqualTo(3);
    }

    @Test
    void slotPointedAtABufferHasNoPeerUntilOneIsSet() {
        DatagramSlots slots = DatagramSlots.current();
        slots.buffer(1, 0, 0);
        assertThat(slots.peer(1)).isNull();
    }

    @Test
    void peerSeenAgainIsNotDecodedAgain() throws Exception {
        DatagramSlots slots = DatagramSlots.current();
        InetSocketAddress peer = new InetSocketAddress(InetAddress.getByName("198.51.100.1"), 9000);
        slots.buffer(2, 0, 0);
        slots.peer(2, peer);
        InetSocketAddress first = slots.peer(2);
        slots.buffer(3, 0, 0);
        slots.peer(3, new InetSocketAddress(InetAddress.getByName("198.51.100.1"), 9000));
        assertThat(slots.peer(3)).as("an echo answering one sender allocates no address per datagram")
                .isSameAs(first);
    }

    @Test
    void eachThreadHasItsOwnSlots() throws Exception {
        DatagramSlots mine = DatagramSlots.current();
        DatagramSlots[] other = new DatagramSlots[1];
        Thread thread = new Thread(() -> other[0] = DatagramSlots.current());
        thread.start();
        thread.join(10_000);
        assertThat(other[0]).isNotNull().isNotSameAs(mine);
        assertThat(other[0].address()).isNotEqualTo(mine.address());
    }
}
