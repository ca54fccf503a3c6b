package io.weir.microbench.http.load;

/**
 * The command line shared by every load server here, so both halves of a load test are started the same way:
 * {@code [--port N] [--transport nio|epoll|io_uring] [--threads N] [--engine jdk|openssl]} (the engine only matters
 * to the TLS servers).
 */
record LoadServerArgs(int port, Transport transport, int threads, Engine engine) {
    static final int DEFAULT_PORT = 8080;
    /**
     * The {@code Server} header both servers send: one value, so their responses are byte-identical and neither
     * side encodes or writes more than the other.
     */
    static final String SERVER_HEADER = "plaintext";

    /** The I/O a server runs on, as {@code --transport} names it; each framework maps it to its own classes. */
    enum Transport {
        NIO("nio"),
        EPOLL("epoll"),
        IO_URING("io_uring");

        private final String label;

        Transport(String label) {
            this.label = label;
        }

        /** The name {@code --transport} takes and the servers print. */
        String label() {
            return label;
        }

        static Transport of(String label) {
            for (Transport t : values()) {
                if (t.label.equals(label)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("--transport: " + label + " (expected: nio, epoll or io_uring)");
        }

        /**
         * Thrown at start-up when this transport cannot run here, with the framework's own reason, so that a load
         * script stops with a cause instead of quietly measuring another transport.
         */
        IllegalStateException unavailable(String framework, Throwable cause) {
            return new IllegalStateException(framework + "'s " + label + " transport is unavailable here: " + cause,
                    cause);
        }
    }

    /**
     * The TLS engine a TLS server uses, as {@code --engine} names it: the JDK's {@code SSLEngine}, or BoringSSL
     * through netty-tcnative (each framework's own OpenSSL engine over the same native library).
     */
    enum Engine {
        JDK("jdk"),
        OPENSSL("openssl");

        private final String label;

        Engine(String label) {
            this.label = label;
        }

        /** The name {@code --engine} takes and the servers print. */
        String label() {
            return label;
        }

        static Engine of(String label) {
            for (Engine e : values()) {
                if (e.label.equals(label)) {
                    return e;
                }
            }
            throw new IllegalArgumentException("--engine: " + label + " (expected: jdk or openssl)");
        }
    }

    static LoadServerArgs parse(String[] args) {
        int port = DEFAULT_PORT;
        Transport transport = Transport.NIO;
        int threads = 1;
        Engine engine = Engine.JDK;
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + ": missing value");
            }
            String value = args[++i];
            switch (name) {
                case "--port" -> port = Integer.parseInt(value);
                case "--threads" -> threads = Integer.parseInt(value);
                case "--transport" -> transport = Transport.of(value);
                case "--engine" -> engine = Engine.of(value);
                default -> throw new IllegalArgumentException(
                        "unknown option: " + name + " (expected: --port, --transport, --threads, --engine)");
            }
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port: " + port + " (expected: 0-65535)");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("--threads: " + threads + " (expected: >= 1)");
        }
        return new LoadServerArgs(port, transport, threads, engine);
    }
}
