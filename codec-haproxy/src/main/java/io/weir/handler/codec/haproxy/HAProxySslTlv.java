package io.weir.handler.codec.haproxy;

import java.util.List;
import java.util.Objects;

/**
 * The value of a {@link HAProxyTlv#TYPE_SSL} TLV (the specification's section 2.2.6): how the client reached the
 * proxy over TLS. Immutable, holds copies only.
 *
 * <pre>
 *  byte 0        1    2    3    4        5 ...
 *      +--------+--------------------+------------------------------+
 *      | client | verify (big-endian)| sub-TLVs, each as HAProxyTlv |
 *      +--------+--------------------+------------------------------+
 * </pre>
 *
 * {@code client} is a bit field of {@link #CLIENT_SSL}, {@link #CLIENT_CERT_CONN} and {@link #CLIENT_CERT_SESS};
 * {@code verify} is zero if the client presented a certificate and it was verified. The sub-TLVs carry the TLS
 * version, the client certificate's Common Name, the cipher and the proxy certificate's algorithms
 * ({@code HAProxyTlv.SUBTYPE_SSL_*}).
 */
public final class HAProxySslTlv {
    /** {@code client} bit: the client connected over TLS. */
    public static final int CLIENT_SSL = 0x01;
    /** {@code client} bit: the client presented a certificate on this connection. */
    public static final int CLIENT_CERT_CONN = 0x02;
    /** {@code client} bit: the client presented a certificate at least once in this TLS session. */
    public static final int CLIENT_CERT_SESS = 0x04;
    /** Bytes before the sub-TLVs: {@code client} (1) and {@code verify} (4). */
    public static final int FIXED_BYTES = 5;

    private static final long MAX_VERIFY = 0xFFFF_FFFFL;

    private final int client;
    private final long verify;
    private final List<HAProxyTlv> subTlvs;

    /**
     * @param client the {@code client} bit field, 0 to 255
     * @param verify the {@code verify} field, 0 to 2<sup>32</sup>-1 (0: a client certificate was verified)
     * @param subTlvs the sub-TLVs, in order; copied
     * @throws IllegalArgumentException if a field is out of range, a registered sub-type appears twice, or the
     *         whole value would exceed {@value HAProxyTlv#MAX_VALUE_BYTES} bytes
     * @throws NullPointerException if {@code subTlvs} or one of its elements is null
     */
    public HAProxySslTlv(int client, long verify, List<HAProxyTlv> subTlvs) {
        if (client < 0 || client > 0xFF) {
            throw new IllegalArgumentException("client: " + client + " (expected 0 to 255)");
        }
        if (verify < 0 || verify > MAX_VERIFY) {
            throw new IllegalArgumentException("verify: " + verify + " (expected 0 to " + MAX_VERIFY + ")");
        }
        this.client = client;
        this.verify = verify;
        this.subTlvs = List.copyOf(subTlvs);
        String problem = HAProxyTlvs.duplicateSubtype(this.subTlvs);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        long bytes = FIXED_BYTES + HAProxyTlvs.encodedBytes(this.subTlvs);
        if (bytes > HAProxyTlv.MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("SSL TLV of " + bytes + " bytes (expected <= "
                    + HAProxyTlv.MAX_VALUE_BYTES + ")");
        }
    }

    /** The {@code client} bit field. */
    public int client() {
        return client;
    }

    /** Whether the client connected over TLS ({@link #CLIENT_SSL}). */
    public boolean isSsl() {
        return (client & CLIENT_SSL) != 0;
    }

    /** Whether the client presented a certificate on this connection ({@link #CLIENT_CERT_CONN}). */
    public boolean hasClientCertificateOnConnection() {
        return (client & CLIENT_CERT_CONN) != 0;
    }

    /** Whether the client presented a certificate in this TLS session ({@link #CLIENT_CERT_SESS}). */
    public boolean hasClientCertificateOnSession() {
        return (client & CLIENT_CERT_SESS) != 0;
    }

    /** The {@code verify} field, unsigned: 0 if the client presented a certificate and it was verified. */
    public long verify() {
        return verify;
    }

    /** The sub-TLVs, in wire order; unmodifiable. */
    public List<HAProxyTlv> subTlvs() {
        return subTlvs;
    }

    /** The TLS version ({@link HAProxyTlv#SUBTYPE_SSL_VERSION}), or {@code null}. */
    public String version() {
        return text(HAProxyTlv.SUBTYPE_SSL_VERSION);
    }

    /** The client certificate's Common Name ({@link HAProxyTlv#SUBTYPE_SSL_CN}), or {@code null}. */
    public String commonName() {
        return text(HAProxyTlv.SUBTYPE_SSL_CN);
    }

    /** The cipher ({@link HAProxyTlv#SUBTYPE_SSL_CIPHER}), or {@code null}. */
    public String cipher() {
        return text(HAProxyTlv.SUBTYPE_SSL_CIPHER);
    }

    /** The proxy certificate's signature algorithm ({@link HAProxyTlv#SUBTYPE_SSL_SIG_ALG}), or {@code null}. */
    public String signatureAlgorithm() {
        return text(HAProxyTlv.SUBTYPE_SSL_SIG_ALG);
    }

    /** The proxy certificate's key algorithm ({@link HAProxyTlv#SUBTYPE_SSL_KEY_ALG}), or {@code null}. */
    public String keyAlgorithm() {
        return text(HAProxyTlv.SUBTYPE_SSL_KEY_ALG);
    }

    private String text(int subtype) {
        HAProxyTlv t = HAProxyTlvs.first(subTlvs, subtype);
        return t == null ? null : t.valueAsString();
    }

    /** This value as a {@link HAProxyTlv#TYPE_SSL} TLV, to put in a message. */
    public HAProxyTlv toTlv() {
        byte[] value = new byte[FIXED_BYTES + (int) HAProxyTlvs.encodedBytes(subTlvs)];
        value[0] = (byte) client;
        value[1] = (byte) (verify >>> 24);
        value[2] = (byte) (verify >>> 16);
        value[3] = (byte) (verify >>> 8);
        value[4] = (byte) verify;
        HAProxyTlvs.write(subTlvs, value, FIXED_BYTES);
        return new HAProxyTlv(HAProxyTlv.TYPE_SSL, value);
    }

    /**
     * Reads the value of an SSL TLV.
     *
     * @throws HAProxyProtocolException if it is shorter than {@value #FIXED_BYTES} bytes or its sub-TLVs are
     *         malformed
     */
    static HAProxySslTlv read(byte[] value) {
        if (value.length < FIXED_BYTES) {
            throw new HAProxyProtocolException(HAProxyProtocolException.Reason.MALFORMED_TLV, "SSL TLV of "
                    + value.length + " bytes (expected >= " + FIXED_BYTES + ")");
        }
        long verify = (value[1] & 0xFFL) << 24 | (value[2] & 0xFF) << 16 | (value[3] & 0xFF) << 8 | (value[4] & 0xFF);
        List<HAProxyTlv> subTlvs = HAProxyTlvs.read(value, FIXED_BYTES, value.length, "the SSL TLV");
        String problem = HAProxyTlvs.duplicateSubtype(subTlvs);
        if (problem != null) {
            throw new HAProxyProtocolException(HAProxyProtocolException.Reason.MALFORMED_TLV, problem);
        }
        return new HAProxySslTlv(value[0] & 0xFF, verify, subTlvs);
    }

    /** Whether {@code o} has the same fields and sub-TLVs. */
    @Override
    public boolean equals(Object o) {
        return o instanceof HAProxySslTlv s && s.client == client && s.verify == verify && s.subTlvs.equals(subTlvs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(client, verify, subTlvs);
    }

    @Override
    public String toString() {
        return "SSL(client=0x" + Integer.toHexString(client) + ", verify=" + verify + ", version=" + version()
                + ", cn=" + commonName() + ", cipher=" + cipher() + ")";
    }
}
