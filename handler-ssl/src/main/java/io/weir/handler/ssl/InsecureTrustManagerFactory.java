package io.weir.handler.ssl;

import java.net.Socket;
import java.security.KeyStore;
import java.security.Provider;
import java.security.cert.X509Certificate;
import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.TrustManagerFactorySpi;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * <b>Insecure: for tests and local development only.</b> A trust manager factory whose trust manager accepts every
 * certificate chain and every host name, so that a client reaches a server with a self-signed certificate without
 * configuring it. With it TLS still encrypts, but no longer authenticates: anyone between the client and the server
 * can read and change the traffic. Never use it where the peer is not a test fixture on the same machine; give the
 * server's certificate to {@link SslContextBuilder#trustManager(X509Certificate...)} instead.
 *
 * <pre>{@code
 * SslContext insecureClient = SslContextBuilder.forClient()
 *         .trustManager(InsecureTrustManagerFactory.INSTANCE).build(); // tests only
 * }</pre>
 *
 * <p>Thread-safe and stateless. Each chain it accepts is logged at DEBUG with its subject, so that an accidental
 * use shows up in a debug log.
 */
public final class InsecureTrustManagerFactory extends TrustManagerFactory {
    /** The one instance; already initialised. */
    public static final InsecureTrustManagerFactory INSTANCE = new InsecureTrustManagerFactory();

    private static final System.Logger LOGGER = System.getLogger(InsecureTrustManagerFactory.class.getName());
    private static final X509Certificate[] NO_ISSUERS = new X509Certificate[0];
    private static final Provider PROVIDER = new Provider("WeirInsecure", "1.0",
            "Weir's trust-everything trust manager, for tests only") {
        private static final long serialVersionUID = 1L;
    };

    private InsecureTrustManagerFactory() {
        super(new Spi(), PROVIDER, "InsecureTrustEverything");
    }

    /** Accepts every chain: the whole of the insecurity is here. */
    private static final class TrustEverything extends X509ExtendedTrustManager {
        static final TrustEverything INSTANCE = new TrustEverything();
        static final TrustManager[] AS_ARRAY = {INSTANCE};

        private static void accept(X509Certificate[] chain, String side) {
            if (LOGGER.isLoggable(System.Logger.Level.DEBUG)) {
                LOGGER.log(System.Logger.Level.DEBUG, "InsecureTrustManagerFactory accepts the {0} chain of {1}",
                        side, chain == null || chain.length == 0 ? "(none)" : chain[0].getSubjectX500Principal());
            }
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            accept(chain, "client");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            accept(chain, "server");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
            accept(chain, "client");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
            accept(chain, "server");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            accept(chain, "client");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            accept(chain, "server");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return NO_ISSUERS;
        }
    }

    private static final class Spi extends TrustManagerFactorySpi {
        @Override
        protected void engineInit(KeyStore keyStore) {
            // Nothing to load: every chain is accepted.
        }

        @Override
        protected void engineInit(ManagerFactoryParameters parameters) {
            // Nothing to load: every chain is accepted.
        }

        @Override
        protected TrustManager[] engineGetTrustManagers() {
            return TrustEverything.AS_ARRAY.clone();
        }
    }
}
