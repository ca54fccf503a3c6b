package io.weir.handler.ssl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SelfSignedCertificateTest {
    @ParameterizedTest
    @EnumSource(SelfSignedCertificate.KeyType.class)
    void certificateIsSelfSignedWithLocalhostNames(SelfSignedCertificate.KeyType type) throws Exception {
        Instant from = Instant.parse("2024-01-01T00:00:00Z");
        Instant to = Instant.parse("2060-06-30T12:00:00Z"); // after 2049: GeneralizedTime
        SelfSignedCertificate ssc = SelfSignedCertificate.create(type, "weir.test", from, to);
        assertThat(ssc.certificate().getVersion()).isEqualTo(3);
        assertThat(ssc.certificate().getSubjectX500Principal().getName()).isEqualTo("CN=weir.test");
        assertThat(ssc.certificate().getIssuerX500Principal()).isEqualTo(ssc.certificate().getSubjectX500Principal());
        assertThat(ssc.certificate().getNotBefore().toInstant()).isEqualTo(from);
        assertThat(ssc.certificate().getNotAfter().toInstant()).isEqualTo(to.truncatedTo(ChronoUnit.SECONDS));
        assertThat(ssc.certificate().getBasicConstraints()).isEqualTo(-1);
        ssc.certificate().verify(ssc.certificate().getPublicKey());
        assertThat(ssc.certificate().getSubjectAlternativeNames())
                .containsExactlyInAnyOrder(List.of(2, "localhost"), List.of(7, "127.0.0.1"));
        assertThat(ssc.privateKey().getAlgorithm()).isEqualTo(type == SelfSignedCertificate.KeyType.RSA_2048 ? "RSA" : "EC");
    }

    @ParameterizedTest
    @EnumSource(SelfSignedCertificate.KeyType.class)
    void pemRoundTripsThroughPemReader(SelfSignedCertificate.KeyType type) throws Exception {
        SelfSignedCertificate ssc = SelfSignedCertificate.create(type, "localhost",
                Instant.now().minusSeconds(60), Instant.now().plusSeconds(3600));
        assertThat(PemReader.readCertificates(new ByteArrayInputStream(ssc.certificatePem().getBytes(StandardCharsets.US_ASCII))))
                .containsExactly(ssc.certificate());
        assertThat(PemReader.readPrivateKey(new ByteArrayInputStream(ssc.privateKeyPem().getBytes(StandardCharsets.US_ASCII)), null)
                .getEncoded()).isEqualTo(ssc.privateKey().getEncoded());
    }
}
