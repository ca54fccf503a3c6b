package io.weir.resolver.dns;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a hosts file says (hosts(5)): each line an IP address followed by the names it belongs to; {@code #} starts a
 * comment. Names are matched ignoring case and a final dot. Lines whose address does not parse are ignored. At most
 * {@value #MAX_FILE_BYTES} chars are read. Immutable and thread-safe.
 */
public final class HostsFile {
    /** The system's file. */
    public static final Path SYSTEM_PATH = Path.of("/etc/hosts");
    /** The longest file read, in chars; the rest is ignored. */
    public static final int MAX_FILE_BYTES = 4 * 1024 * 1024;

    private static final HostsFile EMPTY = new HostsFile(Map.of());

    private final Map<String, List<InetAddress>> byName;

    private HostsFile(Map<String, List<InetAddress>> byName) {
        this.byName = byName;
    }

    /** A hosts file with no entries. */
    public static HostsFile empty() {
        return EMPTY;
    }

    /** {@link #SYSTEM_PATH} parsed, or an empty one if it cannot be read. Blocks on file I/O. */
    public static HostsFile system() {
        try {
            return parse(SYSTEM_PATH);
        } catch (IOException | SecurityException e) {
            return EMPTY;
        }
    }

    /**
     * Parses the file at {@code path} (empty if there is none). Blocks on file I/O.
     *
     * @throws IOException if it exists but cannot be read
     */
    public static HostsFile parse(Path path) throws IOException {
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.ISO_8859_1)) {
            return parse(r);
        } catch (NoSuchFileException e) {
            return EMPTY;
        }
    }

    /**
     * Parses what {@code reader} gives. The reader is not closed.
     *
     * @throws IOException if reading fails
     */
    public static HostsFile parse(Reader reader) throws IOException {
        Map<String, List<InetAddress>> map = new HashMap<>();
        BufferedReader in = new BufferedReader(new ResolvConf.BoundedReader(reader, MAX_FILE_BYTES));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            int hash = line.indexOf('#');
            String s = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (s.isEmpty()) {
                continue;
            }
            String[] words = s.split("\\s+");
            InetAddress address = words.length > 1 ? IpLiterals.parse(words[0]) : null;
            if (address == null) {
                continue;
            }
            for (int i = 1; i < words.length; i++) {
                List<InetAddress> list = map.computeIfAbsent(normalize(words[i]), k -> new ArrayList<>(2));
                if (!list.contains(address)) {
                    list.add(address);
                }
            }
        }
        Map<String, List<InetAddress>> frozen = new HashMap<>(map.size() * 2);
        map.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
        return new HostsFile(Map.copyOf(frozen));
    }

    /**
     * The addresses the file gives {@code name} of the wanted families, in {@code types} order; empty if none.
     */
    public List<InetAddress> addresses(String name, ResolvedAddressTypes types) {
        List<InetAddress> all = byName.get(normalize(name));
        if (all == null) {
            return List.of();
        }
        List<InetAddress> v4 = new ArrayList<>(all.size());
        List<InetAddress> v6 = new ArrayList<>(all.size());
        for (InetAddress a : all) {
            (a instanceof Inet4Address ? v4 : v6).add(a);
        }
        return switch (types) {
            case IPV4_ONLY -> List.copyOf(v4);
            case IPV6_ONLY -> List.copyOf(v6);
            case IPV4_PREFERRED -> concat(v4, v6);
            case IPV6_PREFERRED -> concat(v6, v4);
        };
    }

    private static List<InetAddress> concat(List<InetAddress> a, List<InetAddress> b) {
        List<InetAddress> all = new ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    private static String normalize(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }
}
