package io.weir.handler.ssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;

class PemReaderTest {
    static InputStream resource(String name) {
        InputStream in = PemReaderTest.class.getResourceAsStream(name);
        assertThat(in).as("test resource " + name).isNotNull();
        return in;
    }

    static X509Certificate certificate(String name) throws Exception {
        try (InputStream in = resource(name)) {
            return PemReader.readCertificates(in).get(0);
        }
    }

    static PrivateKey key(String name, char[] password) throws Exception {
        try (InputStream in = resource(name)) {
            return PemReader.readPrivateKey(in, password);
        }
    }

    /** A key read from PEM must sign something its certificate's public key verifies. */
    private static void assertKeyMatches(PrivateKey key, X509Certificate cert) throws Exception {
        String alg = key.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
        Signature signer = Signature.getInstance(alg);
        signer.initSign(key);
        signer.update("weir".getBytes(StandardCharsets.US_ASCII));
        byte[] sig = signer.sign();
        Signature verifier = Signature.getInstance(alg);
        verifier.initVerify(cert.getPublicKey());
        verifier.update("weir".getBytes(StandardCharsets.US_ASCII));
        assertThat(verifier.verify(sig)).isTrue();
    }

    @Test
    void pkcs8RsaKeyMatchesItsCertificate() throws Exception {
        assertKeyMatches(key("rsa-pkcs8.key", null), certificate("rsa.crt"));
    }

    @Test
    void pkcs1RsaKeyIsWrappedIntoPkcs8() throws Exception {
        PrivateKey key = key("rsa-pkcs1.key", null);
        assertThat(key.getAlgorithm()).isEqualTo("RSA");
        assertThat(key.getEncoded()).isEqualTo(key("rsa-pkcs8.key", null).getEncoded());
        assertKeyMatches(key, certificate("rsa.crt"));
    }

    @Test
    void sec1EcKeyAfterEcParametersBlockIsRead() throws Exception {
        PrivateKey key = key("ec-sec1.key", null);
        assertThat(key.getAlgorithm()).isEqualTo("EC");
        assertKeyMatches(key, certificate("ec.crt"));
    }

    @Test
    void pkcs8EcKeyMatchesItsCertificate() throws Exception {
        assertKeyMatches(key("ec-pkcs8.key", null), certificate("ec.crt"));
    }

    @Test
    void encryptedPkcs8KeyIsDecryptedWithItsPassword() throws Exception {
        PrivateKey key = key("rsa-encrypted.key", "weir-test".toCharArray());
        assertThat(key.getEncoded()).isEqualTo(key("rsa-pkcs8.key", null).getEncoded());
    }

    @Test
    void encryptedKeyWithWrongPasswordIsRefused() {
        assertThatThrownBy(() -> key("rsa-encrypted.key", "not it".toCharArray()))
                .isInstanceOfSatisfying(PemException.class,
                        e -> assertThat(e.reason()).isEqualTo(PemException.Reason.WRONG_PASSWORD));
    }

    @Test
    void encryptedKeyWithoutPasswordIsRefused() {
        assertThatThrownBy(() -> key("rsa-encrypted.key", null))
                .isInstanceOfSatisfying(PemException.class,
                        e -> assertThat(e.reason()).isEqualTo(PemException.Reason.PASSWORD_REQUIRED));
    }

    @Test
    void ed25519Pkcs8KeyIsRead() throws Exception {
        assertThat(key("ed25519.key", null).getAlgorithm()).isIn("EdDSA", "Ed25519");
    }

    @Test
    void chainKeepsFileOrder() throws Exception {
        List<X509Certificate> chain;
        try (InputStream in = resource("chain-two.crt")) {
            chain = PemReader.readCertificates(in);
        }
        assertThat(chain).hasSize(2);
        assertThat(chain.get(0)).isEqualTo(certificate("rsa.crt"));
        assertThat(chain.get(1)).isEqualTo(certificate("ec.crt"));
    }

    private static PemException.Reason keyReason(String pem) {
        try {
            PemReader.readPrivateKey(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)), null);
        } catch (PemException e) {
            return e.reason();
        } catch (Exception e) {
            throw new AssertionError("untyped error", e);
        }
        throw new AssertionError("accepted: " + pem);
    }

    @Test
    void malformedInputTable() {
        assertThat(keyReason("")).isEqualTo(PemException.Reason.NO_PEM_BLOCK);
        assertThat(keyReason("-----BEGIN PRIVATE KEY-----\nAAAA\n")).isEqualTo(PemException.Reason.NO_PEM_BLOCK);
        assertThat(keyReason("-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n"))
                .isEqualTo(PemException.Reason.BAD_BASE64);
        // A SEQUENCE claiming 0x7FFFFFFF bytes of content.
        assertThat(keyReason("-----BEGIN PRIVATE KEY-----\nMIR/////\n-----END PRIVATE KEY-----\n"))
                .isEqualTo(PemException.Reason.MALFORMED_DER);
        // An indefinite length (BER, not DER).
        assertThat(keyReason("-----BEGIN RSA PRIVATE KEY-----\nMIAAAA==\n-----END RSA PRIVATE KEY-----\n"))
                .isEqualTo(PemException.Reason.MALFORMED_DER);
        // SEC1 without its curve: SEQUENCE { INTEGER 1, OCTET STRING 01 }.
        assertThat(keyReason("-----BEGIN EC PRIVATE KEY-----\nMAYCAQEEAQE=\n-----END EC PRIVATE KEY-----\n"))
                .isEqualTo(PemException.Reason.UNSUPPORTED);
        assertThat(keyReason("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n"
                + "AAAA\n-----END RSA PRIVATE KEY-----\n")).isEqualTo(PemException.Reason.UNSUPPORTED);
    }

    @Test
    void oversizedPemIsRefusedWithoutReadingItAll() {
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return 'A';
            }
        };
        assertThatThrownBy(() -> PemReader.readCertificates(endless))
                .isInstanceOfSatisfying(PemException.class,
                        e -> assertThat(e.reason()).isEqualTo(PemException.Reason.TOO_LARGE));
    }

    @Test
    void garbageCertificateIsRefusedWithATypedError() {
        String pem = "-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATE-----\n";
        assertThatThrownBy(() -> PemReader.readCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII))))
                .isInstanceOfSatisfying(PemException.class,
                        e -> assertThat(e.reason()).isEqualTo(PemException.Reason.BAD_CERTIFICATE));
    }
}
