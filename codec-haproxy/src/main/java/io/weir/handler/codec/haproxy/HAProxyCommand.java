package io.weir.handler.codec.haproxy;

/** The command of a PROXY protocol header: whether the connection is relayed for a client or the proxy's own. */
public enum HAProxyCommand {
    /**
     * The proxy made the connection on its own behalf (a health check): the connection's real endpoints apply and
     * any address in the header is to be ignored. Version 2 only.
     */
    LOCAL(0x0),
    /** The connection is relayed for a client whose addresses the header gives. */
    PROXY(0x1);

    private final int code;

    HAProxyCommand(int code) {
        this.code = code;
    }

    /** The command's code, the low nibble of a version 2 header's 13th byte. */
    public int code() {
        return code;
    }
}
