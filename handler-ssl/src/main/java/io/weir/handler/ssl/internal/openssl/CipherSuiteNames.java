package io.weir.handler.ssl.internal.openssl;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The TLS 1.2 cipher suites the OpenSSL provider offers, under their IANA/JDK names and BoringSSL's. Only
 * ECDHE with an AEAD: forward secrecy and no CBC. TLS 1.3 suites are BoringSSL's fixed set (RFC 8446 §9.1) and
 * keep their IANA names in both libraries.
 */
final class CipherSuiteNames {
    /** IANA name to BoringSSL name, in the default preference order. */
    private static final Map<String, String> TLS12 = Map.of(
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "ECDHE-ECDSA-AES128-GCM-SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "ECDHE-ECDSA-AES256-GCM-SHA384",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA-CHACHA20-POLY1305",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-RSA-CHACHA20-POLY1305");
    /** The default TLS 1.2 preference order (IANA names). */
    static final List<String> DEFAULT_TLS12 = List.of(
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");
    /** TLS 1.3's suites, always enabled when TLS 1.3 is. */
    static final List<String> TLS13 = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256");

    private CipherSuiteNames() {
    }

    /** Every suite this provider supports (IANA names). */
    static List<String> supported() {
        List<String> all = new ArrayList<>(TLS13);
        all.addAll(DEFAULT_TLS12);
        return all;
    }

    /** BoringSSL's cipher string for these TLS 1.2 suites (IANA names; TLS 1.3 names are skipped). */
    static String toOpenSsl(List<String> ianaNames) {
        StringBuilder b = new StringBuilder();
        for (String name : ianaNames) {
            String openssl = TLS12.get(name);
            if (openssl != null) {
                if (b.length() > 0) {
                    b.append(':');
                }
                b.append(openssl);
            }
        }
        return b.toString();
    }

    /** The IANA name of a suite BoringSSL reports; unknown names are returned as they are. */
    static String toIana(String openSslName) {
        if (openSslName == null) {
            return "SSL_NULL_WITH_NULL_NULL";
        }
        if (openSslName.startsWith("TLS_")) {
            return openSslName;
        }
        for (Map.Entry<String, String> e : TLS12.entrySet()) {
            if (e.getValue().equals(openSslName)) {
                return e.getKey();
            }
        }
        return openSslName;
    }
}
