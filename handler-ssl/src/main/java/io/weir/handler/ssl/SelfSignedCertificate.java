package io.weir.handler.ssl;

import io.weir.handler.ssl.internal.der.DerWriter;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A freshly generated key pair and a self-signed X.509 v3 certificate for it, for examples and tests: never
 * trust it in production. The certificate names {@code CN=<commonName>} as subject and issuer and carries a
 * subjectAltName of {@code DNS:localhost} and {@code IP:127.0.0.1}, so a client that trusts it can keep
 * hostname verification on against a local server.
 *
 * <p>The JDK has no public certificate builder, so the TBSCertificate (RFC 5280 §4.1) is DER-encoded here and
 * signed with {@link Signature}; no third-party library is involved. Immutable; safe from any thread.
 */
public final class SelfSignedCertificate {
    /** The key type of a generated certificate. */
    public enum KeyType {
        /** RSA-2048 signed with SHA256withRSA. */
        RSA_2048,
        /** ECDSA on P-256 (secp256r1) signed with SHA256withECDSA. */
        EC_P256
    }

    /** How long a generated certificate is valid from one hour before its creation: one year. */
    public static final Duration DEFAULT_VALIDITY = Duration.ofDays(365);

    private static final String OID_SHA256_WITH_RSA = "1.2.840.113549.1.1.11";
    private static final String OID_ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
    private static final String OID_COMMON_NAME = "2.5.4.3";
    private static final String OID_SUBJECT_ALT_NAME = "2.5.29.17";
    private static final String OID_BASIC_CONSTRAINTS = "2.5.29.19";
    private static final int SERIAL_BYTES = 16;
    private static final byte[] LOOPBACK_V4 = {127, 0, 0, 1};

    private final X509Certificate certificate;
    private final PrivateKey privateKey;

    private SelfSignedCertificate(X509Certificate certificate, PrivateKey privateKey) {
        this.certificate = certificate;
        this.privateKey = privateKey;
    }

    /** An EC P-256 certificate for {@code commonName}, valid from an hour ago for {@link #DEFAULT_VALIDITY}. */
    public static SelfSignedCertificate create(String commonName) {
        Instant now = Instant.now();
        return create(KeyType.EC_P256, commonName, now.minus(Duration.ofHours(1)), now.plus(DEFAULT_VALIDITY));
    }

    /**
     * A certificate of {@code keyType} for {@code commonName}, valid from {@code notBefore} to {@code notAfter}
     * (to the second).
     *
     * @throws IllegalArgumentException if {@code notAfter} is not after {@code notBefore}
     * @throws IllegalStateException if the JDK lacks the key or signature algorithm
     */
    public static SelfSignedCertificate create(KeyType keyType, String commonName, Instant notBefore,
                                               Instant notAfter) {
        Objects.requireNonNull(keyType, "keyType");
        Objects.requireNonNull(commonName, "commonName");
        if (!notAfter.isAfter(notBefore)) {
            throw new IllegalArgumentException("notAfter " + notAfter + " is not after notBefore " + notBefore);
        }
        try {
            SecureRandom random = new SecureRandom();
            KeyPair pair;
            String signatureAlgorithm;
            byte[] signatureOid;
            if (keyType == KeyType.RSA_2048) {
                KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
                gen.initialize(2048, random);
                pair = gen.generateKeyPair();
                signatureAlgorithm = "SHA256withRSA";
                // RFC 4055 §5: the parameters of sha256WithRSAEncryption are NULL.
                signatureOid = DerWriter.sequence(DerWriter.oid(OID_SHA256_WITH_RSA), DerWriter.nul());
            } else {
                KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
                gen.initialize(new ECGenParameterSpec("secp256r1"), random);
                pair = gen.generateKeyPair();
                signatureAlgorithm = "SHA256withECDSA";
                // RFC 5758 §3.2: ecdsa-with-SHA256 has no parameters.
                signatureOid = DerWriter.sequence(DerWriter.oid(OID_ECDSA_WITH_SHA256));
            }
            byte[] serial = new byte[SERIAL_BYTES];
            random.nextBytes(serial);
            serial[0] &= 0x7F; // RFC 5280 §4.1.2.2: a positive integer
            serial[0] |= 0x01;
            byte[] name = DerWriter.sequence(DerWriter.set(DerWriter.sequence(
                    DerWriter.oid(OID_COMMON_NAME), DerWriter.utf8String(commonName))));
            byte[] subjectAltName = DerWriter.sequence(
                    DerWriter.element(DerWriter.TAG_CONTEXT_PRIMITIVE_2, "localhost".getBytes(StandardCharsets.US_ASCII)),
                    DerWriter.element(DerWriter.TAG_CONTEXT_PRIMITIVE_7, LOOPBACK_V4));
            byte[] extensions = DerWriter.sequence(
                    // RFC 5280 §4.2.1.9: an end-entity certificate, not a CA.
                    DerWriter.sequence(DerWriter.oid(OID_BASIC_CONSTRAINTS), DerWriter.octetString(DerWriter.sequence())),
                    DerWriter.sequence(DerWriter.oid(OID_SUBJECT_ALT_NAME), DerWriter.octetString(subjectAltName)));
            // RFC 5280 §4.1: TBSCertificate, version [0] EXPLICIT v3 (2), extensions [3] EXPLICIT.
            byte[] tbs = DerWriter.sequence(
                    DerWriter.element(0xA0, DerWriter.integer(2)),
                    DerWriter.integer(new BigInteger(serial)),
                    signatureOid,
                    name,
                    DerWriter.sequence(DerWriter.time(notBefore), DerWriter.time(notAfter)),
                    name,
                    pair.getPublic().getEncoded(),
                    DerWriter.element(0xA3, extensions));
            Signature signer = Signature.getInstance(signatureAlgorithm);
            signer.initSign(pair.getPrivate(), random);
            signer.update(tbs);
            byte[] der = DerWriter.sequence(tbs, signatureOid, DerWriter.bitString(signer.sign()));
            X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
            cert.verify(pair.getPublic());
            return new SelfSignedCertificate(cert, pair.getPrivate());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate a " + keyType + " self-signed certificate", e);
        }
    }

    /** The certificate. */
    public X509Certificate certificate() {
        return certificate;
    }

    /** The private key of the certificate. */
    public PrivateKey privateKey() {
        return privateKey;
    }

    /** The certificate as a PEM {@code CERTIFICATE} block. */
    public String certificatePem() {
        try {
            return PemReader.encode("CERTIFICATE", certificate.getEncoded());
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalStateException("the JDK cannot re-encode a certificate it parsed", e);
        }
    }

    /** The private key as an unencrypted PKCS#8 PEM {@code PRIVATE KEY} block. */
    public String privateKeyPem() {
        return PemReader.encode("PRIVATE KEY", privateKey.getEncoded());
    }
}
