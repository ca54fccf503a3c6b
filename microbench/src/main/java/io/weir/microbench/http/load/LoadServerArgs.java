package io.weir.microbench.http.load;

/**
 * The command line shared by {@link WeirPlaintextServer} and {@link NettyPlaintextServer}, so both halves of
 * the load test are started the same way: {@code [--port N] [--transport nio|epoll] [--threads N]}.
 */
record LoadServerArgs(int port, boolean epoll, int threads) {
    static final int DEFAULT_PORT = 8080;
    /**
     * The {@code Server} header both servers send: one value, so their responses are byte-identical and neither
     * side encodes or writes more than the other.
     */
    static final String SERVER_HEADER = "plaintext";

    static LoadServerArgs parse(String[] args) {
        int port = DEFAULT_PORT;
        boolean epoll = false;
        int threads = 1;
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + ": missing value");
            }
            String value = args[++i];
            switch (name) {
                case "--port" -> port = Integer.parseInt(value);
                case "--threads" -> threads = Integer.parseInt(value);
                case "--transport" -> {
                    if (!value.equals("nio") && !value.equals("epoll")) {
                        throw new IllegalArgumentException("--transport: " + value + " (expected: nio or epoll)");
                    }
                    epoll = value.equals("epoll");
                }
                default -> throw new IllegalArgumentException(
                        "unknown option: " + name + " (expected: --port, --transport, --threads)");
            }
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port: " + port + " (expected: 0-65535)");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("--threads: " + threads + " (expected: >= 1)");
        }
        return new LoadServerArgs(port, epoll, threads);
    }
}
