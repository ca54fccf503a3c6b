package io.weir.resolver.dns;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.dns.DnsMessage;
import io.weir.handler.codec.dns.DnsMessageDecoder;
import io.weir.handler.codec.dns.DnsMessageEncoder;
import io.weir.handler.codec.dns.DnsQuestion;
import io.weir.handler.codec.dns.DnsRecord;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.BindException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A scripted DNS server on loopback for tests: a UDP socket (and a TCP listener on the same port) whose threads
 * hand each query to a script, which answers, misbehaves or stays silent. Records every query it receives.
 */
final class FakeDnsServer implements AutoCloseable {
    /** What the server does with one query. */
    @FunctionalInterface
    interface Script {
        void onQuery(FakeDnsServer server, Query query) throws Exception;
    }

    /** A received query: its message, where it came from, and how many came before it. */
    record Query(DnsMessage message, InetSocketAddress client, int number, Socket tcp) {
        DnsQuestion question() {
            return message.questions().get(0);
        }
    }

    private static final int MAX_DATAGRAM_BYTES = 65_535;
    private static final int MAX_BIND_TRIES = 20;

    final DatagramSocket udp;
    private final ServerSocket tcp;
    private final Script script;
    final List<Query> queries = new CopyOnWriteArrayList<>();
    final List<Query> tcpQueries = new CopyOnWriteArrayList<>();
    private final Thread udpThread;
    private final Thread tcpThread;
    private volatile boolean closed;

    FakeDnsServer(Script script) throws IOException {
        this.script = script;
        // The TCP listener needs the UDP socket's port number, which another process may hold for TCP: try
        // other ports until both are free.
        DatagramSocket u = null;
        ServerSocket t = null;
        for (int i = 0; t == null; i++) {
            u = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try {
                t = new ServerSocket();
                t.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), u.getLocalPort()));
            } catch (BindException taken) {
                t.close();
                t = null;
                u.close();
                if (i == MAX_BIND_TRIES) {
                    throw taken;
                }
            }
        }
        this.udp = u;
        this.tcp = t;
        udpThread = new Thread(this::serveUdp, "fake-dns-udp");
        tcpThread = new Thread(this::serveTcp, "fake-dns-tcp");
        udpThread.setDaemon(true);
        tcpThread.setDaemon(true);
        udpThread.start();
        tcpThread.start();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) udp.getLocalSocketAddress();
    }

    private void serveUdp() {
        byte[] buf = new byte[MAX_DATAGRAM_BYTES];
        while (!closed) {
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                udp.receive(p);
                DnsMessage m = decode(java.util.Arrays.copyOf(p.getData(), p.getLength()));
                Query q = new Query(m, (InetSocketAddress) p.getSocketAddress(), queries.size(), null);
                queries.add(q);
                script.onQuery(this, q);
            } catch (SocketException e) {
                return;
            } catch (Exception e) {
                if (!closed) {
                    e.printStackTrace();
                }
            }
        }
    }

    private void serveTcp() {
        while (!closed) {
            try (Socket s = tcp.accept()) {
                DataInputStream in = new DataInputStream(s.getInputStream());
                byte[] bytes = new byte[in.readUnsignedShort()];
                in.readFully(bytes);
                Query q = new Query(decode(bytes), (InetSocketAddress) s.getRemoteSocketAddress(), tcpQueries.size(), s);
                tcpQueries.add(q);
                script.onQuery(this, q);
                s.getOutputStream().flush();
            } catch (SocketException e) {
                if (closed) {
                    return;
                }
            } catch (Exception e) {
                if (!closed) {
                    e.printStackTrace();
                }
            }
        }
    }

    /** Sends {@code m} back the way {@code q} came (UDP or TCP). */
    void reply(Query q, DnsMessage m) throws IOException {
        send(q, encode(m));
    }

    /** Sends raw bytes back the way {@code q} came. */
    void send(Query q, byte[] bytes) throws IOException {
        if (q.tcp() != null) {
            DataOutputStream out = new DataOutputStream(q.tcp().getOutputStream());
            out.writeShort(bytes.length);
            out.write(bytes);
        } else {
            udp.send(new DatagramPacket(bytes, bytes.length, q.client()));
        }
    }

    /** A response to {@code q} with {@code rcode}, its own id and question, and the given sections. */
    static DnsMessage response(Query q, int extraFlags, List<DnsRecord> answers, List<DnsRecord> authorities) {
        DnsMessage query = q.message();
        return new DnsMessage(query.id(), DnsMessage.FLAG_RESPONSE | DnsMessage.FLAG_RECURSION_DESIRED
                | DnsMessage.FLAG_RECURSION_AVAILABLE | extraFlags, query.questions(), answers, authorities, List.of());
    }

    static byte[] encode(DnsMessage m) {
        ByteBuf buf = Unpooled.buffer();
        try {
            DnsMessageEncoder.encode(m, buf);
            byte[] b = new byte[buf.readableBytes()];
            buf.readBytes(b);
            return b;
        } finally {
            buf.release();
        }
    }

    static DnsMessage decode(byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            return new DnsMessageDecoder().decode(buf);
        } finally {
            buf.release();
        }
    }

    @Override
    public void close() throws Exception {
        closed = true;
        udp.close();
        tcp.close();
        udpThread.join(5_000);
        tcpThread.join(5_000);
    }
}
