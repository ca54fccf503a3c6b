package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The example server's {@code /ws.html} in a real browser: headless Chromium (Debian's {@code chromium}, which
 * {@code .ci/run} installs) loads the page over the DevTools protocol, types a message, presses Send and the test
 * waits, inside the page, for the echo to appear in the DOM. No sleeps: the page's own MutationObserver resolves the
 * evaluation, with generous deadlines for a loaded machine.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ChromiumWebSocketPageTest {
    static final String INSTALL = "apt-get install -y chromium";
    private static final Pattern DEVTOOLS = Pattern.compile("DevTools listening on (ws://\\S+)");
    private static final Pattern PAGE_SOCKET = Pattern.compile("\"webSocketDebuggerUrl\"\\s*:\\s*\"(ws://[^\"]+)\"");
    private static final Pattern VALUE = Pattern.compile("\"value\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final String MESSAGE = "Hello from Chromium, ünïcödé";
    private static final long PAGE_DEADLINE_MILLIS = 90_000;

    static Path chromium() {
        for (String name : new String[] {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
            if (Files.isExecutable(Path.of(name))) {
                return Path.of(name);
            }
        }
        throw new AssertionError("chromium is not installed; install it with: " + INSTALL);
    }

    /** A DevTools connection to one page: sends commands, queues every message received. */
    static final class DevTools implements WebSocket.Listener {
        final BlockingQueue<String> received = new LinkedBlockingQueue<>();
        final List<String> history = new CopyOnWriteArrayList<>();
        private final StringBuilder part = new StringBuilder();
        private WebSocket socket;
        private int nextId;

        void connect(HttpClient http, String url) throws Exception {
            socket = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(60)).buildAsync(URI.create(url), this)
                    .get(60, TimeUnit.SECONDS);
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            part.append(data);
            if (last) {
                received.add(part.toString());
                history.add(part.toString());
                part.setLength(0);
            }
            ws.request(1);
            return null;
        }

        /** Sends a command; returns its id. */
        int send(String method, String paramsJson) throws Exception {
            int id = ++nextId;
            socket.sendText("{\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + paramsJson + "}", true)
                    .get(60, TimeUnit.SECONDS);
            return id;
        }

        /** Whether a message containing {@code marker} arrives within {@code seconds}. */
        boolean arrives(String marker, long seconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            for (;;) {
                long left = deadline - System.nanoTime();
                String m = left > 0 ? received.poll(left, TimeUnit.NANOSECONDS) : null;
                if (m == null) {
                    return false;
                }
                if (m.contains(marker)) {
                    return true;
                }
            }
        }

        /** The first message received that contains {@code marker}, waiting at most {@code seconds}. */
        String await(String marker, long seconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            for (;;) {
                long left = deadline - System.nanoTime();
                String m = left > 0 ? received.poll(left, TimeUnit.NANOSECONDS) : null;
                assertThat(m).as("a DevTools message with %s within %d s", marker, seconds).isNotNull();
                if (m.contains(marker)) {
                    return m;
                }
            }
        }

        /** Every message received so far that contains {@code marker}. */
        List<String> seen(String marker) {
            return history.stream().filter(m -> m.contains(marker)).toList();
        }

        void close() {
            if (socket != null) {
                socket.sendClose(WebSocket.NORMAL_CLOSURE, "").orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> null)
                        .join();
            }
        }
    }

    /**
     * Over plain HTTP the page and its WebSocket use HTTP/1.1 (handshake status 101); over TLS the page comes by h2
     * and Chromium, seeing SETTINGS_ENABLE_CONNECT_PROTOCOL, opens the WebSocket as an extended CONNECT on that connection (RFC 8441, status 200).
     */
    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void pageConnectsSendsAndShowsTheEcho(boolean tls, @TempDir Path profile) throws Exception {
        Path chromium = chromium();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        Process browser = null;
        DevTools page = new DevTools();
        try (HttpServer server = new HttpServer(group)) {
            int port = ((InetSocketAddress) server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .localAddress()).getPort();
            if (tls) {
                port = ((InetSocketAddress) server.startTls(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                        0)).localAddress()).getPort();
            }
            browser = new ProcessBuilder(chromium.toString(), "--headless", "--disable-gpu", "--no-sandbox",
                    "--disable-dev-shm-usage", "--no-first-run", "--no-proxy-server",
                    "--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable", "--remote-debugging-address=127.0.0.1",
                    "--remote-debugging-port=0", "--remote-allow-origins=*", "--user-data-dir=" + profile,
                    // The example's certificate is self-signed.
                    "--ignore-certificate-errors",
                    "about:blank").redirectErrorStream(true).start();
            String browserSocket = devToolsAddress(browser);
            URI devtools = URI.create(browserSocket);
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(60)).build();
            // A new tab (PUT since Chromium 111); its own DevTools socket drives it.
            HttpResponse<String> tab = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + devtools.getPort() + "/json/new?about:blank")).PUT(HttpRequest.BodyPublishers.noBody())
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = PAGE_SOCKET.matcher(tab.body());
            assertThat(m.find()).as("a page target in %s", tab.body()).isTrue();
            page.connect(http, m.group(1));

            page.send("Page.enable", "{}");
            page.send("Network.enable", "{}");
            String origin = tls ? "https://localhost:" + port : "http://127.0.0.1:" + port;
            String navigate = "{\"url\":\"" + origin + WebSocketRoute.PAGE_PATH + "\"}";
            page.send("Page.navigate", navigate);
            if (!page.arrives("\"Page.loadEventFired\"", 45)) {
                // Once, on a loaded CI machine, a first navigation to the plain port never fired its load event.
                // A second navigation tells a lost navigation from a server that does not answer; the network
                // events seen so far go into the failure message.
                page.send("Page.navigate", navigate);
                assertThat(page.arrives("\"Page.loadEventFired\"", 60))
                        .as("the page's load event after a second navigation; network events: %s",
                                page.seen("\"Network.")).isTrue();
            }
            // Inside the page: once the socket is open, type and press Send; resolve when the echo is in the log.
            String script = """
                    new Promise((resolve, reject) => {
                      const log = document.getElementById('log');
                      const timer = setTimeout(() => reject(new Error('no echo; log: ' + log.textContent)), %d);
                      let sent = false;
                      const step = () => {
                        if (!sent && log.textContent.includes('open')) {
                          sent = true;
                          document.getElementById('message').value = %s;
                          document.getElementById('send').click();
                        }
                        if (log.textContent.includes('echo: ' + %s)) {
                          clearTimeout(timer);
                          resolve(log.textContent);
                        }
                      };
                      new MutationObserver(step).observe(log, {childList: true, characterData: true, subtree: true});
                      step();
                    })""".formatted(PAGE_DEADLINE_MILLIS, jsString(MESSAGE), jsString(MESSAGE));
            int id = page.send("Runtime.evaluate", "{\"expression\":" + jsonString(script)
                    + ",\"awaitPromise\":true,\"returnByValue\":true}");
            String answer = page.await("\"id\":" + id + ",", PAGE_DEADLINE_MILLIS / 1000 + 30);
            Matcher value = VALUE.matcher(answer);
            assertThat(value.find()).as("the page's log in %s", answer).isTrue();
            String log = unescape(value.group(1));
            assertThat(log).contains("open, extensions: permessage-deflate").contains("echo: " + MESSAGE);

            // The echo is in the DOM itself, as the user sees it.
            int domId = page.send("Runtime.evaluate",
                    "{\"expression\":\"document.documentElement.outerHTML\",\"returnByValue\":true}");
            Matcher dom = VALUE.matcher(page.await("\"id\":" + domId + ",", 60));
            assertThat(dom.find()).isTrue();
            assertThat(unescape(dom.group(1))).contains("<pre id=\"log\">").contains("echo: " + MESSAGE);
            List<String> handshakes = page.seen("\"Network.webSocketHandshakeResponseReceived\"");
            assertThat(handshakes).hasSize(1);
            assertThat(handshakes.get(0)).as("the handshake's status").containsPattern(
                    "\"status\"\\s*:\\s*" + (tls ? "200" : "101"));
        } finally {
            page.close();
            if (browser != null) {
                stop(browser);
            }
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Stops the browser and every process it started (renderer, GPU, crash handler), waiting for them all: the
     * profile directory is deleted after this, and a helper still writing into it would fail the deletion.
     */
    private static void stop(Process browser) throws Exception {
        List<ProcessHandle> all = new ArrayList<>(browser.descendants().toList());
        all.add(browser.toHandle());
        browser.destroy();
        for (ProcessHandle p : all) {
            try {
                p.onExit().get(30, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                p.destroyForcibly();
                p.onExit().get(30, TimeUnit.SECONDS);
            }
        }
    }

    /** Reads the browser's output until it prints its DevTools address (within 90 s). */
    private static String devToolsAddress(Process browser) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(browser.getInputStream(),
                StandardCharsets.UTF_8));
        CompletableFuture<String> found = new CompletableFuture<>();
        StringBuilder seen = new StringBuilder();
        Thread reader = new Thread(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    Matcher m = DEVTOOLS.matcher(line);
                    if (m.find()) {
                        found.complete(m.group(1));
                    } else if (!found.isDone()) {
                        synchronized (seen) {
                            seen.append(line).append('\n');
                        }
                    }
                }
                found.completeExceptionally(new AssertionError("chromium exited without a DevTools address"));
            } catch (IOException e) {
                found.completeExceptionally(e);
            }
        }, "chromium-output");
        reader.setDaemon(true);
        reader.start();
        try {
            return found.get(90, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            synchronized (seen) {
                throw new AssertionError("no DevTools address from chromium; its output:\n" + seen, e);
            }
        }
    }

    private static String jsString(String s) {
        return jsonString(s);
    }

    /** {@code s} as a JSON (and so JavaScript) string literal. */
    private static String jsonString(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /** Undoes JSON string escapes. */
    private static String unescape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                sb.append(c);
                continue;
            }
            char n = s.charAt(++i);
            switch (n) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case 'u' -> {
                    sb.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> sb.append(n);
            }
        }
        return sb.toString();
    }
}
