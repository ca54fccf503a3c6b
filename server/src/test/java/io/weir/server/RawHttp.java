package io.weir.server;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal HTTP/1.1 client over one socket, for requests {@code java.net.http} refuses to send (dot segments,
 * backslashes, raw percent-escapes) and for checking that a connection is reused. Reads responses framed by
 * {@code Content-Length} only, which is all the example server sends.
 */
final class RawHttp implements AutoCloseable {
    private static final int SOCKET_TIMEOUT_MILLIS = 30_000;

    record Response(int status, Map<String, String> headers, byte[] body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String bodyText() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawHttp(InetSocketAddress address) throws IOException {
        socket = new Socket(address.getAddress(), address.getPort());
        socket.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** Sends {@code GET target} (or another method) with the extra header lines, and reads the response. */
    Response send(String method, String target, String... headerLines) throws IOException {
        StringBuilder request = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: x\r\n");
        for (String line : headerLines) {
            request.append(line).append("\r\n");
        }
        out.write(request.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return read(method.equals("HEAD"));
    }

    /** Sends {@code request} (head and body, as given) and reads one response to a non-HEAD request. */
    Response sendRaw(byte[] request) throws IOException {
        out.write(request);
        out.flush();
        return read(false);
    }

    /** Whether the server closed the connection (end of stream before any byte of a next response). */
    boolean closedByServer() throws IOException {
        return in.read() == -1;
    }

    private Response read(boolean head) throws IOException {
        String statusLine = readLine();
        int status = Integer.parseInt(statusLine.substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line; !(line = readLine()).isEmpty(); ) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        String length = headers.get("content-length");
        int n = head || length == null || status == 304 ? 0 : Integer.parseInt(length);
        byte[] body = in.readNBytes(n);
        if (body.length != n) {
            throw new EOFException("body cut at " + body.length + " of " + n + " bytes");
        }
        return new Response(status, headers, body);
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b; (b = in.read()) != '\n'; ) {
            if (b == -1) {
                throw new EOFException("connection closed inside a response head: " + line);
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
