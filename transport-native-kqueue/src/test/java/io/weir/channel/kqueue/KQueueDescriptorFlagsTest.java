package io.weir.channel.kqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.channel.unix.DomainSocketAddress;
import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kqueue library compiles unix-common's C with the paths macOS and the BSDs take ({@code socket} and
 * {@code accept} followed by {@code fcntl}, {@code recvmsg} without {@code MSG_CMSG_CLOEXEC}): every descriptor
 * they hand out must still be close-on-exec (a child process would otherwise inherit connections) and, for sockets,
 * non-blocking (a blocking one would stall the event loop). Read from Linux's {@code /proc/self/fdinfo}; skipped
 * where there is none.
 */
class KQueueDescriptorFlagsTest {
    // Octal values of Linux's open-file flags, as fdinfo prints them.
    private static final int O_NONBLOCK = 04000;
    private static final int O_CLOEXEC = 02000000;

    @BeforeAll
    static void requireKQueueAndFdinfo() {
        assumeTrue(KQueue.isAvailable(), () -> "kqueue unavailable, so not tested: " + KQueue.unavailabilityCause());
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fdinfo")), "no /proc/self/fdinfo to read flags from");
    }

    /** The descriptor's open-file flags as the kernel reports them. */
    private static int flags(FileDescriptor fd) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/self/fdinfo/" + fd.intValue()));
        for (String line : lines) {
            if (line.startsWith("flags:")) {
                return Integer.parseInt(line.substring("flags:".length()).trim(), 8);
            }
        }
        throw new AssertionError("no flags line in fdinfo of " + fd + ": " + lines);
    }

    private static void assertNonBlockingAndCloseOnExec(FileDescriptor fd) throws IOException {
        int flags = flags(fd);
        assertThat(flags & O_NONBLOCK).as("O_NONBLOCK of %s", fd).isEqualTo(O_NONBLOCK);
        assertThat(flags & O_CLOEXEC).as("O_CLOEXEC of %s", fd).isEqualTo(O_CLOEXEC);
    }

    @Test
    void newSocketsAreNonBlockingAndCloseOnExec() throws IOException {
        Socket[] sockets = {Socket.newSocketStream(), Socket.newSocketDgram(), Socket.newSocketDomain()};
        try {
            for (Socket socket : sockets) {
                assertNonBlockingAndCloseOnExec(socket);
            }
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    @Test
    void acceptedSocketsAreNonBlockingAndCloseOnExecWithoutAccept4() throws IOException {
        Socket listener = KQueueSockets.listener();
        try {
            Socket[] pair = KQueueSockets.connectedPair(listener);
            try {
                assertNonBlockingAndCloseOnExec(pair[1]);
            } finally {
                pair[0].close();
                pair[1].close();
            }
        } finally {
            listener.close();
        }
    }

    @Test
    void aReceivedDescriptorIsCloseOnExecWithoutMsgCmsgCloexec(@TempDir Path dir) throws IOException {
        Socket listener = Socket.newSocketDomain();
        Socket client = Socket.newSocketDomain();
        Socket accepted = null;
        Socket passed = Socket.newSocketDgram();
        FileDescriptor received = null;
        try {
            listener.bind(new DomainSocketAddress(dir.resolve("s").toFile()));
            listener.listen(1);
            if (!client.connect(listener.localAddress())) {
                KQueueSockets.await(client, Native.EVFILT_WRITE);
                assertThat(client.finishConnect()).isTrue();
            }
            KQueueSockets.await(listener, Native.EVFILT_READ);
            accepted = listener.accept();
            assertThat(accepted).isNotNull();
            assertThat(client.sendFd(passed)).isTrue();
            KQueueSockets.await(accepted, Native.EVFILT_READ);
            received = accepted.recvFd();
            assertThat(received).isNotNull();
            // A socket keeps its own O_NONBLOCK through SCM_RIGHTS; close-on-exec is the receiver's to set.
            assertNonBlockingAndCloseOnExec(received);
        } finally {
            if (received != null) {
                received.close();
            }
            if (accepted != null) {
                accepted.close();
            }
            passed.close();
            client.close();
            listener.close();
        }
    }
}
