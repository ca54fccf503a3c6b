package io.weir.channel.unix;

import static io.weir.channel.epoll.Readiness.awaitReadable;
import static io.weir.channel.epoll.Readiness.awaitWritable;
import static io.weir.channel.epoll.Readiness.connectedPair;
import static io.weir.channel.epoll.Readiness.listener;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.epoll.Epoll;
import io.weir.util.platform.PlatformInfo;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SocketTest {
    private Socket server;
    private Socket client;
    private Socket accepted;

    @BeforeAll
    static void loadNatives() {
        assumeTrue(PlatformInfo.isLinux(), "the native transport exists only on Linux");
        Epoll.ensureAvailability();
    }

    @BeforeEach
    void connect() throws IOException {
        server = listener();
        Socket[] pair = connectedPair(server);
        client = pair[0];
        accepted = pair[1];
    }

    @AfterEach
    void close() throws IOException {
        for (Socket s : new Socket[] {client, accepted, server}) {
            if (s != null) {
                s.close();
            }
        }
    }

    private static long address(ByteBuf buf) {
        if (buf.hasMemoryAddress()) {
            return buf.memoryAddress();
        }
        ByteBuffer nio = buf.nioBuffer(0, buf.capacity());
        return UnixNative.directBufferAddress(nio) + nio.position();
    }

    private static String readString(Socket from, int expectedBytes) throws IOException {
        ByteBuf in = Unpooled.directBuffer(expectedBytes);
        try {
            long address = address(in);
            int got = 0;
            while (got < expectedBytes) {
                awaitReadable(from);
                int n = from.read(address, got, expectedBytes);
                assertThat(n).as("bytes read (-1: unexpected end of stream)").isGreaterThanOrEqualTo(0);
                got += n;
            }
            in.writerIndex(got);
            return in.toString(StandardCharsets.US_ASCII);
        } finally {
            in.release();
        }
    }

    @Test
    void bytesWrittenFromDirectMemoryArriveAtThePeer() throws IOException {
        ByteBuf out = Unpooled.directBuffer(16);
        try {
            out.writeBytes("hello, weir".getBytes(StandardCharsets.US_ASCII));
            int written = client.write(address(out), 0, out.writerIndex());
            assertThat(written).isEqualTo(11);
        } finally {
            out.release();
        }
        assertThat(readString(accepted, 11)).isEqualTo("hello, weir");
    }

    @Test
    void readWithNothingAvailableReturnsZeroInsteadOfThrowing() throws IOException {
        ByteBuf in = Unpooled.directBuffer(8);
        try {
            assertThat(accepted.read(address(in), 0, 8)).isZero();
        } finally {
            in.release();
        }
    }

    @Test
    void sendAndRecvCarryBytesLikeWriteAndRead() throws IOException {
        ByteBuf out = Unpooled.directBuffer(16);
        ByteBuf in = Unpooled.directBuffer(16);
        try {
            out.writeBytes("xxsent by send".getBytes(StandardCharsets.US_ASCII));
            assertThat(client.send(address(out), 2, out.writerIndex())).isEqualTo(12);
            long inAddress = address(in);
            assertThat(accepted.recv(inAddress, 0, 0)).as("an empty range reads nothing").isZero();
            assertThatThrownBy(() -> accepted.recv(inAddress, 4, 0)).isInstanceOf(IndexOutOfBoundsException.class);
            int got = 0;
            while (got < 12) {
                awaitReadable(accepted);
                int n = accepted.recv(inAddress, got, 16);
                assertThat(n).as("bytes received (-1: unexpected end of stream)").isGreaterThanOrEqualTo(0);
                got += n;
            }
            in.writerIndex(got);
            assertThat(in.toString(StandardCharsets.US_ASCII)).isEqualTo("sent by send");
            assertThat(accepted.recv(inAddress, 0, 16)).as("nothing more available").isZero();
            client.shutdown(false, true);
            awaitReadable(accepted);
            assertThat(accepted.recv(inAddress, 0, 16)).as("end of stream").isEqualTo(-1);
        } finally {
            out.release();
            in.release();
        }
    }

    @Test
    void gatheringWriteSendsSeveralBuffersInOrder() throws IOException {
        ByteBuf a = Unpooled.directBuffer(8);
        ByteBuf b = Unpooled.directBuffer(8);
        ByteBuf c = Unpooled.directBuffer(8);
        try (IovArray iov = new IovArray()) {
            a.writeBytes("one,".getBytes(StandardCharsets.US_ASCII));
            b.writeBytes("two,".getBytes(StandardCharsets.US_ASCII));
            c.writeBytes("three".getBytes(StandardCharsets.US_ASCII));
            assertThat(iov.add(a)).isTrue();
            assertThat(iov.add(b)).isTrue();
            assertThat(iov.add(c)).isTrue();
            assertThat(iov.count()).isEqualTo(3);
            assertThat(iov.size()).isEqualTo(13);
            assertThat(client.writev(iov)).isEqualTo(13);
        } finally {
            a.release();
            b.release();
            c.release();
        }
        assertThat(readString(accepted, 13)).isEqualTo("one,two,three");
    }

    @Test
    void scatteringReadFillsSeveralBuffersInOrder() throws IOException {
        ByteBuf out = Unpooled.directBuffer(10).writeBytes("abcdefghij".getBytes(StandardCharsets.US_ASCII));
        try {
            assertThat(client.write(address(out), 0, 10)).isEqualTo(10);
        } finally {
            out.release();
        }
        awaitReadable(accepted);
        ByteBuf first = Unpooled.directBuffer(4);
        ByteBuf second = Unpooled.directBuffer(6);
        try (IovArray iov = new IovArray()) {
            assertThat(iov.add(first, 0, 4)).isTrue();
            assertThat(iov.add(second, 0, 6)).isTrue();
            // Ten bytes written at once over loopback are readable at once.
            assertThat(accepted.readv(iov, 0, iov.count())).isEqualTo(10);
            first.writerIndex(4);
            second.writerIndex(6);
            assertThat(first.toString(StandardCharsets.US_ASCII)).isEqualTo("abcd");
            assertThat(second.toString(StandardCharsets.US_ASCII)).isEqualTo("efghij");
        } finally {
            first.release();
            second.release();
        }
    }

    @Test
    void datagramSocketBindsToAnEphemeralPort() throws IOException {
        try (Socket udp = Socket.newSocketDgram()) {
            udp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            InetSocketAddress local = (InetSocketAddress) udp.localAddress();
            assertThat(local.getAddress()).isEqualTo(InetAddress.getLoopbackAddress());
            assertThat(local.getPort()).isPositive();
            assertThat(udp.remoteAddress()).as("not connected").isNull();
        }
    }

    @Test
    void shutdownOutputMakesThePeerReadEndOfStream() throws IOException {
        client.shutdown(false, true);
        assertThat(client.isOutputShutdown()).isTrue();
        assertThat(client.isInputShutdown()).isFalse();
        awaitReadable(accepted);
        ByteBuf in = Unpooled.directBuffer(8);
        try {
            assertThat(accepted.read(address(in), 0, 8)).isEqualTo(-1);
        } finally {
            in.release();
        }
        // Half-closed: the other direction still works.
        ByteBuf out = Unpooled.directBuffer(4);
        try {
            out.writeBytes("ack!".getBytes(StandardCharsets.US_ASCII));
            assertThat(accepted.write(address(out), 0, 4)).isEqualTo(4);
        } finally {
            out.release();
        }
        assertThat(readString(client, 4)).isEqualTo("ack!");
    }

    @Test
    void addressesAreTheLoopbackEndpointsOfBothSides() throws IOException {
        InetSocketAddress serverAddress = (InetSocketAddress) server.localAddress();
        assertThat(serverAddress.getAddress()).isEqualTo(InetAddress.getLoopbackAddress());
        assertThat(serverAddress.getPort()).isPositive();
        assertThat(client.remoteAddress()).isEqualTo(serverAddress);
        assertThat(accepted.localAddress()).isEqualTo(serverAddress);
        assertThat(accepted.remoteAddress()).isEqualTo(client.localAddress());
    }

    @Test
    void ipv6LoopbackAddressesSurviveTheRoundTrip() throws IOException {
        assumeTrue(Socket.isIPv6Supported(), "IPv6 is off in this kernel");
        InetAddress v6Loopback = InetAddress.getByName("::1");
        try (Socket v6 = Socket.newSocketStream()) {
            try {
                v6.bind(new InetSocketAddress(v6Loopback, 0));
            } catch (NativeIoException e) {
                org.junit.jupiter.api.Assumptions.abort("no ::1 on this host: " + e.getMessage());
            }
            InetSocketAddress local = (InetSocketAddress) v6.localAddress();
            assertThat(local.getAddress()).isEqualTo(v6Loopback);
            assertThat(local.getPort()).isPositive();
        }
    }

    @Test
    void connectingToAClosedPortIsAConnectException() throws IOException {
        int port;
        try (Socket probe = Socket.newSocketStream()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            port = ((InetSocketAddress) probe.localAddress()).getPort();
        }
        Socket s = Socket.newSocketStream();
        try {
            InetSocketAddress closed = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
            assertThatThrownBy(() -> {
                if (!s.connect(closed)) {
                    awaitWritable(s);
                    s.finishConnect();
                }
            }).isInstanceOf(ConnectException.class)
                    .isInstanceOfSatisfying(NativeConnectException.class,
                            e -> assertThat(e.errno()).isEqualTo(Errors.ECONNREFUSED));
        } finally {
            s.close();
        }
    }

    @Test
    void readingFromAResetConnectionThrowsTheSharedStacklessResetException() throws IOException {
        accepted.setSoLinger(0);
        accepted.close(); // linger 0: close sends RST
        awaitReadable(client);
        ByteBuf in = Unpooled.directBuffer(8);
        try {
            long address = address(in);
            assertThatThrownBy(() -> client.read(address, 0, 8))
                    .isInstanceOfSatisfying(ConnectionResetException.class, e -> {
                        assertThat(e.errno()).isEqualTo(Errors.ECONNRESET);
                        assertThat(e.getStackTrace()).isEmpty();
                    });
        } finally {
            in.release();
        }
    }

    @ParameterizedTest(name = "through send(2): {0}")
    @ValueSource(booleans = {false, true})
    void writingToAResetPeerThrowsTheResetOrBrokenPipeType(boolean throughSend) throws IOException {
        accepted.setSoLinger(0);
        accepted.close();
        awaitReadable(client);
        ByteBuf out = Unpooled.directBuffer(4);
        try {
            out.writeBytes(new byte[4]);
            long address = address(out);
            // After the RST the first write fails with ECONNRESET or EPIPE depending on what the kernel saw first
            // (send(2) carries MSG_NOSIGNAL, so EPIPE is an error code and never a SIGPIPE).
            IOException failure = null;
            for (int i = 0; i < 2 && failure == null; i++) {
                try {
                    if (throughSend) {
                        client.send(address, 0, 4);
                    } else {
                        client.write(address, 0, 4);
                    }
                } catch (IOException e) {
                    failure = e;
                }
            }
            assertThat(failure).isInstanceOfSatisfying(ConnectionResetException.class,
                    e -> assertThat(e.errno()).isIn(Errors.ECONNRESET, Errors.EPIPE));
        } finally {
            out.release();
        }
    }

    @Test
    void closeIsIdempotentAndLaterUseIsAClosedChannelException() throws IOException {
        client.close();
        client.close();
        assertThat(client.isOpen()).isFalse();
        assertThatThrownBy(() -> client.read(1, 0, 1)).isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> client.setTcpNoDelay(true)).isInstanceOf(ClosedChannelException.class);
    }

    @Test
    void socketOptionsReadBackWhatWasSet() throws IOException {
        client.setTcpNoDelay(true);
        assertThat(client.isTcpNoDelay()).isTrue();
        client.setTcpNoDelay(false);
        assertThat(client.isTcpNoDelay()).isFalse();
        client.setKeepAlive(true);
        assertThat(client.isKeepAlive()).isTrue();
        client.setReuseAddress(true);
        assertThat(client.isReuseAddress()).isTrue();
        client.setReusePort(true);
        assertThat(client.isReusePort()).isTrue();
        client.setSoLinger(7);
        assertThat(client.getSoLinger()).isEqualTo(7);
        client.setSoLinger(-1);
        assertThat(client.getSoLinger()).isEqualTo(-1);
        client.setReceiveBufferSize(64 * 1024);
        // Linux doubles the requested size for its bookkeeping.
        assertThat(client.getReceiveBufferSize()).isGreaterThanOrEqualTo(64 * 1024);
        client.setSendBufferSize(32 * 1024);
        assertThat(client.getSendBufferSize()).isGreaterThanOrEqualTo(32 * 1024);
        client.setTrafficClass(0x10);
        assertThat(client.getTrafficClass()).isEqualTo(0x10);
    }

    @Test
    void badOptionValuesFailFastWithTheValue() {
        assertThatThrownBy(() -> client.setTrafficClass(256)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("256");
        assertThatThrownBy(() -> client.setReceiveBufferSize(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }

    @Test
    void sendFileSendsTheFilesBytesWithoutMovingItsPosition(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("payload.txt");
        Files.write(file, "0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long sent = 0;
            while (sent < 10) {
                sent += client.sendFile(channel, 3 + sent, 10 - sent);
            }
            assertThat(channel.position()).isZero();
        }
        assertThat(readString(accepted, 10)).isEqualTo("3456789abc");
    }

    @Test
    void domainSocketsCarryBytesCredentialsAndDescriptors(@TempDir Path dir) throws IOException {
        DomainSocketAddress path = new DomainSocketAddress(dir.resolve("weir.sock").toString());
        Socket domainServer = Socket.newSocketDomain();
        Socket domainClient = Socket.newSocketDomain();
        Socket domainAccepted = null;
        try {
            domainServer.bind(path);
            domainServer.listen(8);
            assertThat(domainServer.localAddress()).isEqualTo(path);
            if (!domainClient.connect(path)) {
                awaitWritable(domainClient);
                assertThat(domainClient.finishConnect()).isTrue();
            }
            awaitReadable(domainServer);
            domainAccepted = domainServer.accept();
            assertThat(domainAccepted).isNotNull();
            assertThat(domainClient.remoteAddress()).isEqualTo(path);

            PeerCredentials credentials = domainAccepted.peerCredentials();
            assertThat(credentials.pid()).isEqualTo((int) ProcessHandle.current().pid());

            // Pass the inet client's descriptor across; the received copy talks to the same connection.
            assertThat(domainClient.sendFd(client)).isTrue();
            awaitReadable(domainAccepted);
            FileDescriptor received = domainAccepted.recvFd();
            assertThat(received).isNotNull();
            assertThat(received.intValue()).isNotEqualTo(client.intValue());
            try {
                ByteBuf out = Unpooled.directBuffer(3);
                try {
                    out.writeBytes("fd!".getBytes(StandardCharsets.US_ASCII));
                    assertThat(received.write(address(out), 0, 3)).isEqualTo(3);
                } finally {
                    out.release();
                }
            } finally {
                received.close();
            }
            assertThat(readString(accepted, 3)).isEqualTo("fd!");
        } finally {
            domainClient.close();
            domainServer.close();
            if (domainAccepted != null) {
                domainAccepted.close();
            }
        }
    }

    @Test
    void domainAddressRejectsPathsTheKernelCannotHold() {
        assertThatThrownBy(() -> new DomainSocketAddress("x".repeat(DomainSocketAddress.MAX_PATH_BYTES + 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("108");
        assertThatThrownBy(() -> new DomainSocketAddress("")).isInstanceOf(IllegalArgumentException.class);
    }
}
