package io.weir.handler.ssl;

/**
 * The TLS implementation behind an {@link SslContext}. Only the JDK's {@code SSLEngine} is available today;
 * an OpenSSL (BoringSSL through netty-tcnative) provider is planned behind the same {@link SslContext} and
 * {@link SslHandler} API.
 */
public enum SslProvider {
    /** The JDK's {@link javax.net.ssl.SSLEngine} (SunJSSE or whatever provider {@code SSLContext.getInstance("TLS")} returns). */
    JDK
}
