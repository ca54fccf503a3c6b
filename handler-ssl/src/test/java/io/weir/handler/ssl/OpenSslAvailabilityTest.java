package io.weir.handler.ssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import javax.net.ssl.SSLException;
import org.junit.jupiter.api.Test;

/**
 * What a user sees of the OpenSSL provider with netty-tcnative on the class path (the default test run) and
 * without it (the {@code without-tcnative} surefire execution): available and {@link SslProvider#defaultProvider()},
 * or unavailable with a cause that names the missing jar, the JDK provider chosen, and an explicit OPENSSL request refused.
 */
class OpenSslAvailabilityTest {
    private static boolean tcnativeOnClassPath() {
        try {
            Class.forName("io.netty.internal.tcnative.SSL", false, OpenSslAvailabilityTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    @Test
    void providerFollowsTheClassPath() throws Exception {
        if (tcnativeOnClassPath()) {
            assertThat(OpenSsl.unavailabilityCause()).isNull();
            assertThat(OpenSsl.isAvailable()).isTrue();
            assertThat(OpenSsl.versionString()).contains("BoringSSL");
            assertThat(SslProvider.defaultProvider()).isEqualTo(SslProvider.OPENSSL);
            assertThat(TlsTestSupport.server().sslProvider(SslProvider.defaultProvider()).build().provider())
                    .isEqualTo(SslProvider.OPENSSL);
        } else {
            assertThat(OpenSsl.isAvailable()).isFalse();
            assertThat(OpenSsl.unavailabilityCause()).hasMessageContaining("netty-tcnative-classes");
            assertThat(OpenSsl.versionString()).isNull();
            assertThat(SslProvider.defaultProvider()).isEqualTo(SslProvider.JDK);
            assertThat(TlsTestSupport.server().sslProvider(SslProvider.defaultProvider()).build().provider())
                    .isEqualTo(SslProvider.JDK);
            assertThatThrownBy(() -> TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).build())
                    .isInstanceOf(SSLException.class).hasMessageContaining("unavailable")
                    .hasRootCauseInstanceOf(ClassNotFoundException.class);
        }
    }

    @Test
    void jdkProviderIsKeptWhenNamed() throws Exception {
        assertThat(TlsTestSupport.server().sslProvider(SslProvider.JDK).build().provider())
                .isEqualTo(SslProvider.JDK);
    }
}
