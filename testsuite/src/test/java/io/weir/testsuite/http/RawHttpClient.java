package io.weir.testsuite.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A blocking HTTP/1.1 client on a plain {@link Socket}, for tests that must control exactly when bytes are written
 * and read (pipelining without reading, half-closes, resets). Its socket buffers are small so that a server's
 * backpressure shows within a few hundred kilobytes.
 */
final class RawHttpClient implements AutoCloseable {
    /** Client socket buffers: small, so a peer that stops reading blocks the writer early. */
    static final int SOCKET_BUFFER_BYTES = 32 * 1024;
    private static final int SO_TIMEOUT_MILLIS = 30_000;

    /** One response: status code, lower-cased head and body. */
    record Response(int status, String head, byte[] body) {
        String bodyText() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }
    }

    final Socket socket;
    private final InputStream in;

    RawHttpClient(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.setSendBufferSize(SOCKET_BUFFER_BYTES);
        socket.setReceiveBufferSize(SOCKET_BUFFER_BYTES);
        socket.setSoTimeout(SO_TIMEOUT_MILLIS);
        socket.connect(address, SO_TIMEOUT_MILLIS);
        in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    }

    void write(String s) throws IOException {
        write(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    void write(byte[] b) throws IOException {
        socket.getOutputStream().write(b);
    }

    /** Reads one response framed by Content-Length (the example server's responses all carry it). */
    Response read() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream(256);
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the connection closed inside a response head: " + head);
            }
            head.write(b);
            matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
        }
        String text = head.toString(StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        int status = Integer.parseInt(text.substring(9, 12));
        int at = text.indexOf("\r\ncontent-length:");
        int length = 0;
        if (at >= 0) {
            int end = text.indexOf('\r', at + 2);
            length = Integer.parseInt(text.substring(at + 17, end).trim());
        }
        byte[] body = in.readNBytes(length);
        if (body.length < length) {
            throw new EOFException("the connection closed inside a response body");
        }
        return new Response(status, text, body);
    }

    /** Whether the server closed the connection (end of stream) before anything else arrived. */
    boolean readsEndOfStream() throws IOException {
        try {
            return in.read() < 0;
        } catch (java.net.SocketException e) {
            // A reset where an orderly close was expected.
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
