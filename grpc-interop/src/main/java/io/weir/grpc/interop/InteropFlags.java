package io.weir.grpc.interop;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Flags in grpc's interop style, {@code --name=value} (a bare {@code --name} is {@code true}). */
final class InteropFlags {
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Set<String> read = new HashSet<>();

    private InteropFlags() {
    }

    /** @throws IllegalArgumentException for an argument that is not a flag */
    static InteropFlags parse(String... args) {
        InteropFlags flags = new InteropFlags();
        for (String arg : args) {
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new IllegalArgumentException("not a --flag=value: " + arg);
            }
            int eq = arg.indexOf('=');
            if (eq < 0) {
                flags.values.put(arg.substring(2), "true");
            } else {
                flags.values.put(arg.substring(2, eq), arg.substring(eq + 1));
            }
        }
        return flags;
    }

    String value(String name, String otherwise) {
        read.add(name);
        return values.getOrDefault(name, otherwise);
    }

    int intValue(String name, int otherwise) {
        String v = value(name, null);
        try {
            return v == null ? otherwise : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " takes a number, not " + v);
        }
    }

    boolean booleanValue(String name, boolean otherwise) {
        String v = value(name, null);
        if (v == null) {
            return otherwise;
        }
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException("--" + name + " takes true or false, not " + v);
        }
        return Boolean.parseBoolean(v);
    }

    /** @throws IllegalArgumentException naming the flags given that nothing read */
    void rejectUnknown() {
        Set<String> unknown = new HashSet<>(values.keySet());
        unknown.removeAll(read);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown flags: " + unknown);
        }
    }
}
