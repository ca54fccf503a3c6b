package io.weir.handler.ssl.internal.jdk;

import io.weir.handler.ssl.internal.EngineFactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.function.BiFunction;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * Makes configured {@link SSLEngine}s from a JDK {@link SSLContext}: protocols, cipher suites, client
 * authentication, endpoint identification and ALPN applied to every engine. Immutable after construction;
 * {@link #newEngine} may be called from any thread.
 */
public final class JdkEngineFactory implements EngineFactory {
    /** {@code SSLParameters.setNamedGroups(String[])} (JDK 20 and later), or null on older JDKs. */
    private static final MethodHandle SET_NAMED_GROUPS = namedGroupsSetter();

    private final SSLContext context;
    private final boolean client;
    private final String[] protocols;
    private final String[] cipherSuites;
    private final boolean needClientAuth;
    private final boolean wantClientAuth;
    private final String endpointIdentificationAlgorithm;
    private final String[] applicationProtocols;
    private final String[] namedGroups;
    private final BiFunction<SSLEngine, List<String>, String> serverProtocolSelector;

    /**
     * A factory for {@code client} or server engines.
     *
     * @param cipherSuites the suites to enable, already filtered against the context's supported ones; null
     *     keeps the JDK's defaults
     * @param endpointIdentificationAlgorithm {@code "HTTPS"} to verify the peer's host name (clients), or null
     * @param applicationProtocols the ALPN protocols in preference order; empty for no ALPN
     * @param namedGroups key-exchange groups by the JDK's names, in preference order, or null for the JDK's list;
     *     only where {@link #namedGroupsSupported()}
     */
    public JdkEngineFactory(SSLContext context, boolean client, String[] protocols, String[] cipherSuites,
                            boolean needClientAuth, boolean wantClientAuth, String endpointIdentificationAlgorithm,
                            String[] applicationProtocols, String[] namedGroups) {
        if (namedGroups != null && SET_NAMED_GROUPS == null) {
            throw new IllegalArgumentException("this JDK (" + Runtime.version() + ") cannot set key-exchange groups "
                    + "per engine; use -Djdk.tls.namedGroups");
        }
        this.namedGroups = namedGroups == null ? null : namedGroups.clone();
        this.context = context;
        this.client = client;
        this.protocols = protocols.clone();
        this.cipherSuites = cipherSuites == null ? null : cipherSuites.clone();
        this.needClientAuth = needClientAuth;
        this.wantClientAuth = wantClientAuth;
        this.endpointIdentificationAlgorithm = endpointIdentificationAlgorithm;
        this.applicationProtocols = applicationProtocols.clone();
        this.serverProtocolSelector = client || applicationProtocols.length == 0 ? null
                : new ServerPreferenceSelector(this.applicationProtocols);
    }

    /** A new engine; {@code peerHost} (may be null) feeds SNI and hostname verification on clients. */
    @Override
    public SSLEngine newEngine(String peerHost, int peerPort) {
        SSLEngine engine = peerHost == null ? context.createSSLEngine() : context.createSSLEngine(peerHost, peerPort);
        engine.setUseClientMode(client);
        SSLParameters params = engine.getSSLParameters();
        params.setProtocols(protocols);
        if (cipherSuites != null) {
            params.setCipherSuites(cipherSuites);
        }
        if (client) {
            params.setEndpointIdentificationAlgorithm(endpointIdentificationAlgorithm);
        } else if (needClientAuth) {
            params.setNeedClientAuth(true);
        } else if (wantClientAuth) {
            params.setWantClientAuth(true);
        }
        if (applicationProtocols.length > 0) {
            params.setApplicationProtocols(applicationProtocols);
        }
        if (namedGroups != null) {
            setNamedGroups(params, namedGroups);
        }
        engine.setSSLParameters(params);
        if (serverProtocolSelector != null) {
            engine.setHandshakeApplicationProtocolSelector(serverProtocolSelector);
        }
        return engine;
    }

    /** Whether this JDK sets key-exchange groups per engine ({@code SSLParameters.setNamedGroups}, JDK 20+). */
    public static boolean namedGroupsSupported() {
        return SET_NAMED_GROUPS != null;
    }

    /**
     * The JDK's names (those of {@code jdk.tls.namedGroups}) for groups named as {@code SslContextBuilder.groups}
     * takes them: {@code P-256} is {@code secp256r1} and so on (RFC 8446 §4.2.7); other names pass unchanged.
     */
    public static String[] jdkGroupNames(List<String> groups) {
        String[] names = new String[groups.size()];
        for (int i = 0; i < names.length; i++) {
            String g = groups.get(i);
            switch (g) {
                case "P-256" -> names[i] = "secp256r1";
                case "P-384" -> names[i] = "secp384r1";
                case "P-521" -> names[i] = "secp521r1";
                case "X25519" -> names[i] = "x25519";
                case "X448" -> names[i] = "x448";
                default -> names[i] = g;
            }
        }
        return names;
    }

    private static MethodHandle namedGroupsSetter() {
        try {
            return MethodHandles.publicLookup().findVirtual(SSLParameters.class, "setNamedGroups",
                    MethodType.methodType(void.class, String[].class));
        } catch (NoSuchMethodException | IllegalAccessException olderJdk) {
            return null;
        }
    }

    private static void setNamedGroups(SSLParameters params, String[] groups) {
        try {
            SET_NAMED_GROUPS.invokeExact(params, groups.clone());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("SSLParameters.setNamedGroups failed", t);
        }
    }

    /** The context's supported cipher suites, for filtering. */
    public static String[] supportedCipherSuites(SSLContext context) {
        return context.getSupportedSSLParameters().getCipherSuites();
    }

    /**
     * RFC 7301 §3.2: the server picks. It takes the first of its own protocols, in its preference order, that
     * the client offered; with no overlap it answers without ALPN (the empty string tells the JDK so; null would
     * make it fail the handshake with no_application_protocol), and the application decides.
     */
    private static final class ServerPreferenceSelector implements BiFunction<SSLEngine, List<String>, String> {
        private final String[] preference;

        ServerPreferenceSelector(String[] preference) {
            this.preference = preference;
        }

        @Override
        public String apply(SSLEngine engine, List<String> offered) {
            for (String p : preference) {
                if (offered.contains(p)) {
                    return p;
                }
            }
            return "";
        }
    }
}
