package io.weir.example.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChatServerTest {
    private static final int SOCKET_TIMEOUT_MILLIS = 30_000;

    private EventLoopGroup group;
    private ChatServer server;
    private InetSocketAddress address;

    @BeforeEach
    void startServer() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        server = new ChatServer(group);
        Channel channel = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        address = (InetSocketAddress) channel.localAddress();
    }

    @AfterEach
    void stopServer() throws Exception {
        server.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    @Test
    void aLineGoesToTheOthersPrefixedWithTheSenderButNotBackToTheSender() throws Exception {
        try (Client a = join(0); Client b = join(1)) {
            assertThat(a.readLine()).isEqualTo("* " + b.address() + " joined");

            a.send("hello, b");
            assertThat(b.readLine()).isEqualTo("[" + a.address() + "] hello, b");
            // Had the server echoed a's line to a, it would have been written to a before b's answer.
            b.send("hi a");
            assertThat(a.readLine()).isEqualTo("[" + b.address() + "] hi a");
        }
    }

    @Test
    void everyOtherClientReceivesTheLine() throws Exception {
        try (Client a = join(0); Client b = join(1); Client c = join(2)) {
            a.send("to all");
            b.skipUntil("[" + a.address() + "] to all");
            c.skipUntil("[" + a.address() + "] to all");
            assertThat(server.clientCount()).isEqualTo(3);
        }
    }

    @Test
    void aClientThatDisconnectsIsRemovedAndTheOthersAreTold() throws Exception {
        try (Client a = join(0); Client b = join(1)) {
            String bAddress = b.address();
            assertThat(a.readLine()).isEqualTo("* " + bAddress + " joined");
            b.close();
            assertThat(a.readLine()).isEqualTo("* " + bAddress + " left");
            assertThat(server.clientCount()).isEqualTo(1);
            try (Client c = join(1)) {
                a.send("still here");
                assertThat(a.readLine()).isEqualTo("* " + c.address() + " joined");
                assertThat(c.readLine()).isEqualTo("[" + a.address() + "] still here");
            }
        }
    }

    @Test
    void byeClosesTheSendersConnection() throws Exception {
        try (Client a = join(0); Client b = join(1)) {
            b.send("BYE ");
            assertThat(b.reader.read()).as("end of stream").isEqualTo(-1);
            a.skipUntil("* " + b.address() + " left");
            assertThat(server.clientCount()).isEqualTo(1);
        }
    }

    @Test
    void unicodeLinesArriveIntact() throws Exception {
        try (Client a = join(0); Client b = join(1)) {
            a.send("grüße, 你好 👋");
            assertThat(b.readLine()).isEqualTo("[" + a.address() + "] grüße, 你好 👋");
        }
    }

    @Test
    void aTooLongLineIsDroppedAndReportedAndTheConnectionGoesOn() throws Exception {
        try (Client a = join(0); Client b = join(1)) {
            assertThat(a.readLine()).startsWith("* ");
            a.send("x".repeat(ChatPipeline.MAX_LINE_LENGTH_BYTES + 1));
            assertThat(a.readLine()).isEqualTo("! line dropped, longer than 8192 bytes");
            // Sent only now: bytes that arrive in the same read as the end of the dropped line wait in the
            // decoder until the next read (ByteToMessageDecoder stops decoding a read at the exception).
            a.send("short");
            assertThat(b.readLine()).isEqualTo("[" + a.address() + "] short");
        }
    }

    @Test
    void exampleClientSendsTypedLinesAndLeavesWithBye() throws Exception {
        try (Client a = join(0)) {
            BlockingQueue<String> printed = new LinkedBlockingQueue<>();
            PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8) {
                @Override
                public void println(String line) {
                    printed.add(line);
                }
            };
            Channel client = ChatClient.connect(group, address, out);
            assertThat(printed.poll(30, TimeUnit.SECONDS)).startsWith("Welcome, you are ").endsWith("; 1 others here.");
            String clientAddress = client.localAddress().toString();
            assertThat(a.readLine()).isEqualTo("* " + clientAddress + " joined");

            a.send("hello example");
            assertThat(printed.poll(30, TimeUnit.SECONDS)).isEqualTo("[" + a.address() + "] hello example");

            ChatClient.chat(client, new BufferedReader(new StringReader("first\nsecond\nbye\nnever sent\n")));
            assertThat(client.isOpen()).isFalse();
            assertThat(a.readLine()).isEqualTo("[" + clientAddress + "] first");
            assertThat(a.readLine()).isEqualTo("[" + clientAddress + "] second");
            assertThat(a.readLine()).isEqualTo("* " + clientAddress + " left");
        }
    }

    /**
     * Connects a plain socket and reads the welcome line, after which the server counts it as a member: from then
     * on it receives every line sent by others.
     */
    private Client join(int othersBefore) throws Exception {
        Client client = new Client(new Socket(address.getAddress(), address.getPort()));
        assertThat(client.readLine()).isEqualTo("Welcome, you are " + client.address() + "; " + othersBefore
                + " others here.");
        return client;
    }

    private static final class Client implements AutoCloseable {
        final Socket socket;
        final BufferedReader reader;
        final OutputStream out;

        Client(Socket socket) throws Exception {
            this.socket = socket;
            socket.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
            reader = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out = socket.getOutputStream();
        }

        /** The client's address as the server sees it: its remote address. */
        String address() {
            return socket.getLocalSocketAddress().toString();
        }

        void send(String line) throws Exception {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        String readLine() throws Exception {
            return reader.readLine();
        }

        /** Reads lines until {@code expected}; fails on end of stream (or the socket timeout). */
        void skipUntil(String expected) throws Exception {
            String line;
            do {
                line = reader.readLine();
                assertThat(line).as("stream ended before " + expected).isNotNull();
            } while (!line.equals(expected));
        }

        @Override
        public void close() throws java.io.IOException {
            socket.close();
        }
    }
}
