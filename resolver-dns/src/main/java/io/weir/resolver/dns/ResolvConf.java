package io.weir.resolver.dns;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a {@code resolv.conf} file says (resolv.conf(5)): {@code nameserver}, {@code search} (or {@code domain}),
 * and {@code options ndots:n timeout:n attempts:n rotate}. Unknown lines and options are ignored; malformed values
 * fall back to the defaults. Values are bounded as glibc bounds them. Immutable.
 *
 * @param nameServers    the name servers, port 53, at most {@value #MAX_NAME_SERVERS}
 * @param searchDomains  the search list, at most {@value #MAX_SEARCH_DOMAINS}
 * @param ndots          dots a name needs to be tried as is before the search list, 0 to {@value #MAX_NDOTS}
 * @param timeoutSeconds seconds to wait for one answer, 1 to {@value #MAX_TIMEOUT_SECONDS}
 * @param attempts       tries per name server, 1 to {@value #MAX_ATTEMPTS}
 * @param rotate         whether queries rotate over the name servers
 */
public record ResolvConf(List<InetSocketAddress> nameServers, List<String> searchDomains, int ndots,
                         int timeoutSeconds, int attempts, boolean rotate) {
    /** The system's file. */
    public static final Path SYSTEM_PATH = Path.of("/etc/resolv.conf");
    /** The DNS port. */
    public static final int DNS_PORT = 53;
    /** Name servers kept, as glibc's MAXNS. */
    public static final int MAX_NAME_SERVERS = 3;
    /** Search domains kept. */
    public static final int MAX_SEARCH_DOMAINS = 6;
    /** The default ndots. */
    public static final int DEFAULT_NDOTS = 1;
    /** The largest ndots (glibc's cap). */
    public static final int MAX_NDOTS = 15;
    /** The default seconds per answer. */
    public static final int DEFAULT_TIMEOUT_SECONDS = 5;
    /** The largest timeout honoured (glibc's RES_MAXRETRANS cap is 30). */
    public static final int MAX_TIMEOUT_SECONDS = 30;
    /** The default tries per name server. */
    public static final int DEFAULT_ATTEMPTS = 2;
    /** The most tries per name server (glibc's RES_MAXRETRY). */
    public static final int MAX_ATTEMPTS = 5;
    /** The longest file read, in bytes; the rest is ignored. */
    public static final int MAX_FILE_BYTES = 64 * 1024;

    /** Copies the lists. */
    public ResolvConf {
        nameServers = List.copyOf(nameServers);
        searchDomains = List.copyOf(searchDomains);
    }

    /** What an empty file says: no name server, no search list, the default options. */
    public static ResolvConf empty() {
        return new ResolvConf(List.of(), List.of(), DEFAULT_NDOTS, DEFAULT_TIMEOUT_SECONDS, DEFAULT_ATTEMPTS, false);
    }

    /**
     * {@link #SYSTEM_PATH} parsed, or {@link #empty()} if it does not exist or cannot be read. Blocks on file I/O:
     * call it off the event loops.
     */
    public static ResolvConf system() {
        try {
            return parse(SYSTEM_PATH);
        } catch (IOException | SecurityException e) {
            return empty();
        }
    }

    /**
     * Parses the file at {@code path} ({@link #empty()} if there is none). Blocks on file I/O.
     *
     * @throws IOException if it exists but cannot be read
     */
    public static ResolvConf parse(Path path) throws IOException {
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.ISO_8859_1)) {
            return parse(r);
        } catch (NoSuchFileException e) {
            return empty();
        }
    }

    /**
     * Parses what {@code reader} gives, up to {@value #MAX_FILE_BYTES} chars. The reader is not closed.
     *
     * @throws IOException if reading fails
     */
    public static ResolvConf parse(Reader reader) throws IOException {
        List<InetSocketAddress> servers = new ArrayList<>();
        List<String> search = new ArrayList<>();
        int ndots = DEFAULT_NDOTS;
        int timeout = DEFAULT_TIMEOUT_SECONDS;
        int attempts = DEFAULT_ATTEMPTS;
        boolean rotate = false;
        BufferedReader in = new BufferedReader(new BoundedReader(reader, MAX_FILE_BYTES));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] words = words(line);
            if (words.length < 2) {
                continue;
            }
            switch (words[0]) {
                case "nameserver" -> {
                    InetAddress a = IpLiterals.parse(words[1]);
                    if (a != null && servers.size() < MAX_NAME_SERVERS) {
                        servers.add(new InetSocketAddress(a, DNS_PORT));
                    }
                }
                case "domain" -> {
                    search.clear();
                    search.add(domain(words[1]));
                }
                case "search" -> {
                    // The last search or domain line wins (resolv.conf(5)).
                    search.clear();
                    for (int i = 1; i < words.length && search.size() < MAX_SEARCH_DOMAINS; i++) {
                        search.add(domain(words[i]));
                    }
                }
                case "options" -> {
                    for (int i = 1; i < words.length; i++) {
                        String o = words[i];
                        if (o.startsWith("ndots:")) {
                            ndots = option(o, ndots, 0, MAX_NDOTS);
                        } else if (o.startsWith("timeout:")) {
                            timeout = option(o, timeout, 1, MAX_TIMEOUT_SECONDS);
                        } else if (o.startsWith("attempts:")) {
                            attempts = option(o, attempts, 1, MAX_ATTEMPTS);
                        } else if (o.equals("rotate")) {
                            rotate = true;
                        }
                    }
                }
                default -> {
                    // Other keywords (sortlist, lookup, ...) do not concern this resolver.
                }
            }
        }
        return new ResolvConf(servers, search, ndots, timeout, attempts, rotate);
    }

    private static String[] words(String line) {
        int hash = line.indexOf('#');
        int semicolon = line.indexOf(';');
        int end = line.length();
        if (hash >= 0) {
            end = hash;
        }
        if (semicolon >= 0 && semicolon < end) {
            end = semicolon;
        }
        String s = line.substring(0, end).trim();
        return s.isEmpty() ? new String[0] : s.split("\\s+");
    }

    private static String domain(String d) {
        String lower = d.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }

    private static int option(String option, int fallback, int min, int max) {
        String v = option.substring(option.indexOf(':') + 1);
        if (v.isEmpty() || v.length() > 4) {
            return fallback;
        }
        for (int i = 0; i < v.length(); i++) {
            if (v.charAt(i) < '0' || v.charAt(i) > '9') {
                return fallback;
            }
        }
        return Math.max(min, Math.min(max, Integer.parseInt(v)));
    }

    /** A reader that ends after {@code limit} chars, so a huge or endless file cannot exhaust memory. */
    static final class BoundedReader extends Reader {
        private final Reader in;
        private int left;

        BoundedReader(Reader in, int limit) {
            this.in = in;
            this.left = limit;
        }

        @Override
        public int read(char[] buf, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = in.read(buf, off, Math.min(len, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
