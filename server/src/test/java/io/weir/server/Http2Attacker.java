package io.weir.server;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A hostile HTTP/2 client over a plain socket, for tests: it writes raw frames (HPACK literals, so it needs no
 * encoder state beyond what it chose to index) and, when asked to, reads the server's frames only to learn its
 * WINDOW_UPDATEs, discarding everything else and never granting a window of its own. Blocking writes: a server
 * that stops reading blocks the writer, which is the point. Closing the socket ends every loop.
 */
final class Http2Attacker implements AutoCloseable {
    static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int SETTINGS = 0x4;
    static final int WINDOW_UPDATE = 0x8;
    static final int END_STREAM = 0x1;
    static final int END_HEADERS = 0x4;
    static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
    /** RFC 9113 §6.9.2: the window every stream and the connection start with. */
    static final int DEFAULT_WINDOW = 65_535;
    /** The DATA frame size of {@link #echoFlood}: RFC 9113 §4.2's default SETTINGS_MAX_FRAME_SIZE. */
    static final int ECHO_CHUNK_BYTES = 16_384;

    final Socket socket;
    private final OutputStream out;
    /** The server's receive window for the connection, as far as its WINDOW_UPDATEs told us. */
    final AtomicLong connectionWindow = new AtomicLong(DEFAULT_WINDOW);
    /** The server's receive window of stream {@code 2i+1}, for the first streams a test opens. */
    final AtomicLongArray streamWindows = new AtomicLongArray(1024);
    /** Bytes of frames read from the server (and discarded). */
    final AtomicLong bytesRead = new AtomicLong();
    /** DATA octets written. */
    final AtomicLong dataWritten = new AtomicLong();
    private final Object windowOpened = new Object();
    /** Set when the reader saw the connection end (the server closed it, or reset it). */
    private volatile boolean readerEnded;

    /**
     * Connects with a small receive buffer, so that a peer that reads nothing makes the server's socket back up
     * within a few dozen KiB.
     */
    Http2Attacker(InetSocketAddress address) throws IOException {
        for (int i = 0; i < streamWindows.length(); i++) {
            streamWindows.set(i, DEFAULT_WINDOW);
        }
        socket = new Socket();
        socket.setReceiveBufferSize(16 * 1024);
        socket.setSendBufferSize(64 * 1024);
        socket.setTcpNoDelay(true);
        socket.connect(address, 10_000);
        out = socket.getOutputStream();
    }

    /**
     * Sends the preface, a SETTINGS frame of {@code idValuePairs} and, at once, the acknowledgement of the
     * server's SETTINGS (which a server sends first thing), so that its SETTINGS timeout does not end the attack.
     */
    void handshake(int... idValuePairs) throws IOException {
        ByteArrayOutputStream settings = new ByteArrayOutputStream();
        for (int i = 0; i < idValuePairs.length; i += 2) {
            settings.write(idValuePairs[i] >>> 8);
            settings.write(idValuePairs[i]);
            writeInt(settings, idValuePairs[i + 1]);
        }
        out.write(PREFACE);
        frame(SETTINGS, 0, 0, settings.toByteArray());
        frame(SETTINGS, 0x1, 0, new byte[0]);
        out.flush();
    }

    /**
     * Starts a daemon thread that reads every frame, adds the connection's WINDOW_UPDATE increments to
     * {@link #connectionWindow} and drops the rest. It never answers anything (our SETTINGS ACK is owed by us too:
     * the server's SETTINGS timeout may end the connection, which tests allow for).
     */
    void readWindowUpdates() {
        Thread reader = new Thread(() -> {
            try {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                byte[] header = new byte[9];
                for (;;) {
                    in.readFully(header);
                    int length = (header[0] & 0xff) << 16 | (header[1] & 0xff) << 8 | header[2] & 0xff;
                    int type = header[3] & 0xff;
                    int streamId = ((header[5] & 0x7f) << 24) | (header[6] & 0xff) << 16 | (header[7] & 0xff) << 8
                            | header[8] & 0xff;
                    byte[] payload = new byte[length];
                    in.readFully(payload);
                    bytesRead.addAndGet(9 + length);
                    if (type == WINDOW_UPDATE && length == 4) {
                        int increment = ((payload[0] & 0x7f) << 24) | (payload[1] & 0xff) << 16
                                | (payload[2] & 0xff) << 8 | payload[3] & 0xff;
                        if (streamId == 0) {
                            connectionWindow.addAndGet(increment);
                        } else if ((streamId - 1) / 2 < streamWindows.length()) {
                            streamWindows.addAndGet((streamId - 1) / 2, increment);
                        }
                        synchronized (windowOpened) {
                            windowOpened.notifyAll();
                        }
                    }
                }
            } catch (IOException e) {
                // closed: the test is over, or the server ended the connection
            } finally {
                readerEnded = true;
                synchronized (windowOpened) {
                    windowOpened.notifyAll();
                }
            }
        }, "h2-attacker-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Waits until a WINDOW_UPDATE arrives or {@code millis} pass, whichever is first: for a writer whose every
     * stream is out of window.
     */
    void awaitWindowUpdate(long millis) throws InterruptedException {
        synchronized (windowOpened) {
            windowOpened.wait(Math.max(1, millis));
        }
    }

    /** Whether the reader started by {@link #readWindowUpdates} saw the connection end. */
    boolean readerEnded() {
        return readerEnded;
    }

    /** A HEADERS frame of HPACK literals without indexing ({@code nameValues}: name, value, ...). */
    void headers(int streamId, boolean endStream, String... nameValues) throws IOException {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        for (int i = 0; i < nameValues.length; i += 2) {
            block.write(0x00); // RFC 7541 §6.2.2: literal without indexing, new name
            literal(block, nameValues[i]);
            literal(block, nameValues[i + 1]);
        }
        frame(HEADERS, END_HEADERS | (endStream ? END_STREAM : 0), streamId, block.toByteArray());
    }

    /** A HEADERS frame with an already encoded header block. */
    void headerBlock(int streamId, boolean endStream, byte[] block) throws IOException {
        frame(HEADERS, END_HEADERS | (endStream ? END_STREAM : 0), streamId, block);
    }

    /** Whether stream {@code streamId} and the connection both have room for {@code bytes} of DATA. */
    boolean maySend(int streamId, int bytes) {
        return connectionWindow.get() >= bytes && streamWindows.get((streamId - 1) / 2) >= bytes;
    }

    /** A DATA frame; the caller keeps to the windows ({@link #maySend}). */
    void data(int streamId, byte[] payload, boolean endStream) throws IOException {
        connectionWindow.addAndGet(-payload.length);
        streamWindows.addAndGet((streamId - 1) / 2, -payload.length);
        frame(DATA, endStream ? END_STREAM : 0, streamId, payload);
        dataWritten.addAndGet(payload.length);
    }

    /**
     * Opens {@code streams} streams posting {@code bodyBytes} each to {@code /echo} and sends their bodies round
     * robin in 16 KiB DATA frames, within the windows the server grants (it must {@link #readWindowUpdates}),
     * never granting one, until the bodies are sent, {@code deadlineNanos} passes or the server ends the
     * connection. Returns whether the server ended it.
     *
     * @throws IOException when a write fails (the server reset or closed the connection, or the test closed it)
     */
    boolean echoFlood(int streams, int bodyBytes, long deadlineNanos) throws IOException, InterruptedException {
        for (int s = 0; s < streams; s++) {
            headers(2 * s + 1, false, ":method", "POST", ":scheme", "http", ":authority", "localhost",
                    ":path", "/echo", "content-type", "application/octet-stream",
                    "content-length", Integer.toString(bodyBytes));
        }
        flush();
        byte[] chunk = new byte[ECHO_CHUNK_BYTES];
        java.util.Arrays.fill(chunk, (byte) 'x');
        int[] sent = new int[streams];
        while (System.nanoTime() - deadlineNanos < 0) {
            if (readerEnded) {
                return true;
            }
            boolean wrote = false;
            for (int s = 0; s < streams; s++) {
                int id = 2 * s + 1;
                if (sent[s] < bodyBytes && maySend(id, ECHO_CHUNK_BYTES)) {
                    sent[s] += ECHO_CHUNK_BYTES;
                    data(id, chunk, sent[s] >= bodyBytes);
                    wrote = true;
                }
            }
            flush();
            if (!wrote) {
                awaitWindowUpdate(Math.min(200, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())));
            }
        }
        return readerEnded;
    }

    void flush() throws IOException {
        out.flush();
    }

    void frame(int type, int flags, int streamId, byte[] payload) throws IOException {
        byte[] header = {(byte) (payload.length >>> 16), (byte) (payload.length >>> 8), (byte) payload.length,
                (byte) type, (byte) flags, (byte) (streamId >>> 24), (byte) (streamId >>> 16),
                (byte) (streamId >>> 8), (byte) streamId};
        // One write per frame: a frame split over two segments lets a server that rejects it on its header close
        // before the rest arrives, and the kernel then answers the late octets with a reset.
        byte[] frame = Arrays.copyOf(header, header.length + payload.length);
        System.arraycopy(payload, 0, frame, header.length, payload.length);
        out.write(frame);
    }

    /** RFC 7541 §5.2: a string literal, not Huffman-coded, its length as a 7-bit prefix integer. */
    static void literal(ByteArrayOutputStream block, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.ISO_8859_1);
        integer(block, 0x00, 7, bytes.length);
        block.write(bytes, 0, bytes.length);
    }

    /** RFC 7541 §5.1: {@code value} as an integer with an {@code prefixBits}-bit prefix, first byte's high bits set. */
    static void integer(ByteArrayOutputStream block, int highBits, int prefixBits, int value) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            block.write(highBits | value);
            return;
        }
        block.write(highBits | max);
        value -= max;
        while (value >= 0x80) {
            block.write(value & 0x7f | 0x80);
            value >>>= 7;
        }
        block.write(value);
    }

    private static void writeInt(ByteArrayOutputStream out, int v) {
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
