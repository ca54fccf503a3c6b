package io.weir.handler.ssl;

import io.weir.handler.ssl.internal.der.DerException;
import io.weir.handler.ssl.internal.der.DerReader;
import io.weir.handler.ssl.internal.der.DerWriter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Reads X.509 certificate chains and private keys from PEM text (RFC 7468). Private keys may be
 * PKCS#8 ({@code PRIVATE KEY}), PKCS#1 RSA ({@code RSA PRIVATE KEY}), SEC1 EC ({@code EC PRIVATE KEY}) or
 * encrypted PKCS#8 ({@code ENCRYPTED PRIVATE KEY}, RFC 5958, PBES2 as {@code openssl genpkey -aes256} writes
 * it). PKCS#1 and SEC1 keys are wrapped into PKCS#8 by DER encoding so that the JDK's {@link KeyFactory} reads
 * them; no third-party library is involved.
 *
 * <p>Input is bounded ({@link #DEFAULT_MAX_PEM_BYTES}); every malformed input ends in a {@link PemException}
 * with a {@link PemException.Reason}. Text outside the blocks (comments, {@code Bag Attributes}) is ignored.
 * Static methods, safe from any thread.
 */
public final class PemReader {
    /** The most PEM bytes read from one file or stream: 1 MiB, far above any real chain. */
    public static final int DEFAULT_MAX_PEM_BYTES = 1024 * 1024;

    private static final String OID_RSA = "1.2.840.113549.1.1.1";
    private static final String OID_RSA_PSS = "1.2.840.113549.1.1.10";
    private static final String OID_EC = "1.2.840.10045.2.1";
    private static final String OID_DSA = "1.2.840.10040.4.1";
    private static final String OID_ED25519 = "1.3.101.112";
    private static final String OID_ED448 = "1.3.101.113";
    private static final String OID_X25519 = "1.3.101.110";
    private static final String OID_X448 = "1.3.101.111";
    private static final String BEGIN = "-----BEGIN ";
    private static final String END = "-----END ";
    private static final String DASHES = "-----";
    private static final java.util.regex.Pattern WHITESPACE = java.util.regex.Pattern.compile("\\s+");

    private PemReader() {
    }

    /** Reads every certificate in {@code file}, in file order (leaf first for a chain). */
    public static List<X509Certificate> readCertificates(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return readCertificates(in);
        }
    }

    /**
     * Reads every {@code CERTIFICATE} block of {@code in} (not closed), in order.
     *
     * @throws PemException if there is none, the input is too large, or one is malformed
     */
    public static List<X509Certificate> readCertificates(InputStream in) throws IOException {
        List<Block> blocks = blocks(readBounded(in, DEFAULT_MAX_PEM_BYTES));
        List<X509Certificate> certificates = new ArrayList<>();
        CertificateFactory factory;
        try {
            factory = CertificateFactory.getInstance("X.509");
        } catch (CertificateException e) {
            throw new IllegalStateException("the JDK has no X.509 certificate factory", e);
        }
        for (Block b : blocks) {
            if (b.label.equals("CERTIFICATE") || b.label.equals("X509 CERTIFICATE")) {
                try {
                    certificates.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(b.der)));
                } catch (CertificateException | RuntimeException e) {
                    throw new PemException(PemException.Reason.BAD_CERTIFICATE,
                            "certificate " + (certificates.size() + 1) + " (" + b.der.length + " bytes) was refused");
                }
            }
        }
        if (certificates.isEmpty()) {
            throw new PemException(PemException.Reason.NO_PEM_BLOCK, "no CERTIFICATE block among " + blocks.size()
                    + " PEM block(s)");
        }
        return certificates;
    }

    /** Reads the private key in {@code file}; {@code password} is needed only for an encrypted key. */
    public static PrivateKey readPrivateKey(Path file, char[] password) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return readPrivateKey(in, password);
        }
    }

    /**
     * Reads the first private-key block of {@code in} (not closed).
     *
     * @param password the password of an {@code ENCRYPTED PRIVATE KEY}; ignored (may be null) otherwise
     * @throws PemException if there is no key block, the key is malformed or unsupported, or the password is
     *     missing or wrong
     */
    public static PrivateKey readPrivateKey(InputStream in, char[] password) throws IOException {
        List<Block> blocks = blocks(readBounded(in, DEFAULT_MAX_PEM_BYTES));
        for (Block b : blocks) {
            switch (b.label) {
                case "PRIVATE KEY":
                    return pkcs8(b.der);
                case "RSA PRIVATE KEY":
                    // RFC 8017 Appendix A.1.2 inside RFC 5208 PrivateKeyInfo with rsaEncryption and NULL parameters.
                    return pkcs8(wrapPkcs8(DerWriter.sequence(DerWriter.oid(OID_RSA), DerWriter.nul()), b.der));
                case "EC PRIVATE KEY":
                    return pkcs8(wrapPkcs8(DerWriter.sequence(DerWriter.oid(OID_EC), sec1Curve(b.der)), b.der));
                case "ENCRYPTED PRIVATE KEY":
                    return encryptedPkcs8(b.der, password);
                default:
                    break;
            }
        }
        throw new PemException(PemException.Reason.NO_PEM_BLOCK, "no private key block among " + blocks.size()
                + " PEM block(s)");
    }

    // RFC 5208 §5: PrivateKeyInfo ::= SEQUENCE { version 0, privateKeyAlgorithm, privateKey OCTET STRING }
    private static byte[] wrapPkcs8(byte[] algorithmIdentifier, byte[] innerKey) {
        return DerWriter.sequence(DerWriter.integer(0), algorithmIdentifier, DerWriter.octetString(innerKey));
    }

    // RFC 5915 §3: ECPrivateKey ::= SEQUENCE { version 1, privateKey OCTET STRING,
    //                                          parameters [0] ECParameters OPTIONAL, publicKey [1] OPTIONAL }
    private static byte[] sec1Curve(byte[] der) throws PemException {
        try {
            DerReader key = new DerReader(der).read(DerReader.TAG_SEQUENCE);
            int version = key.readSmallInteger();
            if (version != 1) {
                throw new PemException(PemException.Reason.MALFORMED_DER, "EC private key version " + version
                        + ", expected 1");
            }
            key.read(DerReader.TAG_OCTET_STRING);
            if (!key.hasRemaining() || key.peekTag() != DerReader.TAG_CONTEXT_0) {
                throw new PemException(PemException.Reason.UNSUPPORTED,
                        "EC private key without its named curve ([0] parameters)");
            }
            DerReader params = key.read(DerReader.TAG_CONTEXT_0);
            if (params.peekTag() != DerReader.TAG_OID) {
                throw new PemException(PemException.Reason.UNSUPPORTED,
                        "EC private key with explicit curve parameters; only named curves are supported");
            }
            return params.readRawElement();
        } catch (DerException e) {
            throw new PemException(PemException.Reason.MALFORMED_DER, "EC PRIVATE KEY: " + e.getMessage());
        }
    }

    private static PrivateKey pkcs8(byte[] der) throws PemException {
        String oid;
        try {
            DerReader info = new DerReader(der).read(DerReader.TAG_SEQUENCE);
            info.readSmallInteger();
            oid = info.read(DerReader.TAG_SEQUENCE).readOid();
        } catch (DerException e) {
            throw new PemException(PemException.Reason.MALFORMED_DER, "PRIVATE KEY: " + e.getMessage());
        }
        String algorithm = keyAlgorithm(oid);
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (NoSuchAlgorithmException e) {
            throw new PemException(PemException.Reason.UNSUPPORTED, "the JDK has no " + algorithm + " key factory");
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new PemException(PemException.Reason.MALFORMED_DER, "the " + algorithm
                    + " key factory refused the key");
        }
    }

    private static String keyAlgorithm(String oid) throws PemException {
        switch (oid) {
            case OID_RSA:
                return "RSA";
            case OID_RSA_PSS:
                return "RSASSA-PSS";
            case OID_EC:
                return "EC";
            case OID_DSA:
                return "DSA";
            case OID_ED25519:
            case OID_ED448:
                return "EdDSA";
            case OID_X25519:
            case OID_X448:
                return "XDH";
            default:
                throw new PemException(PemException.Reason.UNSUPPORTED, "private key algorithm OID " + oid);
        }
    }

    private static PrivateKey encryptedPkcs8(byte[] der, char[] password) throws PemException {
        if (password == null) {
            throw new PemException(PemException.Reason.PASSWORD_REQUIRED, "the ENCRYPTED PRIVATE KEY needs a password");
        }
        EncryptedPrivateKeyInfo info;
        try {
            info = new EncryptedPrivateKeyInfo(der);
        } catch (IOException | RuntimeException e) {
            throw new PemException(PemException.Reason.MALFORMED_DER, "ENCRYPTED PRIVATE KEY is not an "
                    + "EncryptedPrivateKeyInfo");
        }
        // For PBES2 the JDK names the scheme only through its parameters ("PBEWithHmacSHA256AndAES_256");
        // getAlgName() returns "PBES2" or the OID, which no Cipher accepts.
        String scheme = info.getAlgParameters() != null ? info.getAlgParameters().toString() : info.getAlgName();
        Cipher cipher;
        try {
            SecretKeyFactory keys = SecretKeyFactory.getInstance(scheme);
            cipher = Cipher.getInstance(scheme);
            cipher.init(Cipher.DECRYPT_MODE, keys.generateSecret(new PBEKeySpec(password)), info.getAlgParameters());
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new PemException(PemException.Reason.UNSUPPORTED, "encryption scheme " + info.getAlgName()
                    + " (" + scheme + ")");
        }
        PKCS8EncodedKeySpec spec;
        try {
            spec = info.getKeySpec(cipher);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new PemException(PemException.Reason.WRONG_PASSWORD, "the password does not decrypt the key");
        }
        return pkcs8(spec.getEncoded());
    }

    private static byte[] readBounded(InputStream in, int maxBytes) throws IOException {
        byte[] bytes = in.readNBytes(maxBytes + 1);
        if (bytes.length > maxBytes) {
            throw new PemException(PemException.Reason.TOO_LARGE, "more than " + maxBytes + " bytes of PEM");
        }
        return bytes;
    }

    private record Block(String label, byte[] der) {
    }

    private static List<Block> blocks(byte[] bytes) throws PemException {
        String text = new String(bytes, StandardCharsets.US_ASCII);
        List<Block> blocks = new ArrayList<>();
        int from = 0;
        for (;;) {
            int begin = text.indexOf(BEGIN, from);
            if (begin < 0) {
                break;
            }
            int labelEnd = text.indexOf(DASHES, begin + BEGIN.length());
            int lineEnd = text.indexOf('\n', begin);
            if (labelEnd < 0 || (lineEnd >= 0 && labelEnd > lineEnd)) {
                throw new PemException(PemException.Reason.NO_PEM_BLOCK, "a BEGIN line at offset " + begin
                        + " without its closing dashes");
            }
            String label = text.substring(begin + BEGIN.length(), labelEnd);
            String endLine = END + label + DASHES;
            int bodyStart = labelEnd + DASHES.length();
            int end = text.indexOf(endLine, bodyStart);
            if (end < 0) {
                throw new PemException(PemException.Reason.NO_PEM_BLOCK, "no END line for the '" + label
                        + "' block at offset " + begin);
            }
            String body = text.substring(bodyStart, end);
            if (body.contains("Proc-Type:")) {
                throw new PemException(PemException.Reason.UNSUPPORTED, "legacy OpenSSL encryption of the '" + label
                        + "' block (Proc-Type); convert it with 'openssl pkcs8 -topk8'");
            }
            try {
                blocks.add(new Block(label, Base64.getDecoder().decode(WHITESPACE.matcher(body).replaceAll(""))));
            } catch (IllegalArgumentException e) {
                throw new PemException(PemException.Reason.BAD_BASE64, "the '" + label + "' block at offset " + begin
                        + " is not Base64");
            }
            from = end + endLine.length();
        }
        return blocks;
    }

    /** Encodes {@code der} as one PEM block with {@code label}, 64 characters a line (RFC 7468 §2). */
    static String encode(String label, byte[] der) {
        return BEGIN + label + DASHES + '\n'
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + '\n'
                + END + label + DASHES + '\n';
    }
}
