package io.weir.handler.codec.haproxy;

import io.weir.handler.codec.haproxy.HAProxyProtocolException.Reason;
import java.util.ArrayList;
import java.util.List;

/** Reading, checking and writing lists of TLVs; shared by the decoder, the encoder and the message's checks. */
final class HAProxyTlvs {
    private HAProxyTlvs() {
    }

    /**
     * The TLVs of {@code b[from, to)}, which they must fill exactly.
     *
     * @param where names the enclosing block in error messages
     * @throws HAProxyProtocolException if a TLV's header is cut short or its value overruns {@code to}
     */
    static List<HAProxyTlv> read(byte[] b, int from, int to, String where) {
        List<HAProxyTlv> tlvs = new ArrayList<>();
        int i = from;
        while (i < to) {
            if (to - i < HAProxyTlv.HEADER_BYTES) {
                throw new HAProxyProtocolException(Reason.MALFORMED_TLV, (to - i) + " byte(s) left at the end of "
                        + where + ", too few for a TLV (" + HAProxyTlv.HEADER_BYTES + ")");
            }
            int type = b[i] & 0xFF;
            int length = (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF);
            int valueStart = i + HAProxyTlv.HEADER_BYTES;
            if (length > to - valueStart) {
                throw new HAProxyProtocolException(Reason.MALFORMED_TLV, "TLV 0x" + Integer.toHexString(type)
                        + " declares " + length + " value bytes but " + (to - valueStart) + " are left in " + where);
            }
            tlvs.add(new HAProxyTlv(type, b, valueStart, valueStart + length));
            i = valueStart + length;
        }
        return tlvs;
    }

    /**
     * Checks the rules of the registered types: each appears at most once ({@link HAProxyTlv#TYPE_NOOP} and
     * unregistered types may repeat), a CRC32C value has 4 bytes, a unique ID at most 128, an SSL value is well
     * formed. Two values for one field would let two readers of the same header disagree.
     *
     * @return the SSL TLV's value, or {@code null} if there is none
     * @throws HAProxyProtocolException if a rule is broken
     */
    static HAProxySslTlv check(List<HAProxyTlv> tlvs) {
        HAProxySslTlv ssl = null;
        long seen = 0;
        for (int i = 0; i < tlvs.size(); i++) {
            HAProxyTlv t = tlvs.get(i);
            int type = t.type();
            if (isSingleton(type)) {
                if ((seen & (1L << type)) != 0) {
                    throw malformed("TLV 0x" + Integer.toHexString(type) + " appears more than once");
                }
                seen |= 1L << type;
            }
            switch (type) {
                case HAProxyTlv.TYPE_CRC32C -> {
                    if (t.length() != HAProxyTlv.CRC32C_VALUE_BYTES) {
                        throw malformed("CRC32C TLV of " + t.length() + " bytes (expected "
                                + HAProxyTlv.CRC32C_VALUE_BYTES + ")");
                    }
                }
                case HAProxyTlv.TYPE_UNIQUE_ID -> {
                    if (t.length() > HAProxyTlv.MAX_UNIQUE_ID_BYTES) {
                        throw malformed("unique ID TLV of " + t.length() + " bytes (expected <= "
                                + HAProxyTlv.MAX_UNIQUE_ID_BYTES + ")");
                    }
                }
                case HAProxyTlv.TYPE_SSL -> ssl = HAProxySslTlv.read(t.rawValue());
                default -> {
                }
            }
        }
        return ssl;
    }

    /** The types the specification registers, other than NOOP; all below 64, so a long holds the set. */
    private static boolean isSingleton(int type) {
        return type == HAProxyTlv.TYPE_ALPN || type == HAProxyTlv.TYPE_AUTHORITY || type == HAProxyTlv.TYPE_CRC32C
                || type == HAProxyTlv.TYPE_UNIQUE_ID || type == HAProxyTlv.TYPE_SSL || type == HAProxyTlv.TYPE_NETNS;
    }

    /** A message naming the first registered SSL sub-type that appears twice in {@code subTlvs}, or {@code null}. */
    static String duplicateSubtype(List<HAProxyTlv> subTlvs) {
        int seen = 0;
        for (int i = 0; i < subTlvs.size(); i++) {
            int type = subTlvs.get(i).type();
            if (type >= HAProxyTlv.SUBTYPE_SSL_VERSION && type <= HAProxyTlv.SUBTYPE_SSL_KEY_ALG) {
                int bit = 1 << (type - HAProxyTlv.SUBTYPE_SSL_VERSION);
                if ((seen & bit) != 0) {
                    return "SSL sub-TLV 0x" + Integer.toHexString(type) + " appears more than once";
                }
                seen |= bit;
            }
        }
        return null;
    }

    /** The first TLV of {@code type}, or {@code null}. */
    static HAProxyTlv first(List<HAProxyTlv> tlvs, int type) {
        for (int i = 0; i < tlvs.size(); i++) {
            if (tlvs.get(i).type() == type) {
                return tlvs.get(i);
            }
        }
        return null;
    }

    /** The encoded size of {@code tlvs}: each one's 3-byte header and value. A long: a caller's list may be huge. */
    static long encodedBytes(List<HAProxyTlv> tlvs) {
        long bytes = 0;
        for (int i = 0; i < tlvs.size(); i++) {
            bytes += HAProxyTlv.HEADER_BYTES + tlvs.get(i).length();
        }
        return bytes;
    }

    /** Writes {@code tlvs} into {@code out} from {@code at}; returns the index after the last byte. */
    static int write(List<HAProxyTlv> tlvs, byte[] out, int at) {
        int i = at;
        for (int k = 0; k < tlvs.size(); k++) {
            HAProxyTlv t = tlvs.get(k);
            byte[] value = t.rawValue();
            out[i] = (byte) t.type();
            out[i + 1] = (byte) (value.length >>> 8);
            out[i + 2] = (byte) value.length;
            System.arraycopy(value, 0, out, i + HAProxyTlv.HEADER_BYTES, value.length);
            i += HAProxyTlv.HEADER_BYTES + value.length;
        }
        return i;
    }

    /**
     * The index of the value of the first TLV of {@code type} in the well-formed TLV block {@code b[from, to)}, or
     * -1.
     */
    static int valueIndex(byte[] b, int from, int to, int type) {
        int i = from;
        while (i + HAProxyTlv.HEADER_BYTES <= to) {
            if ((b[i] & 0xFF) == type) {
                return i + HAProxyTlv.HEADER_BYTES;
            }
            i += HAProxyTlv.HEADER_BYTES + ((b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF));
        }
        return -1;
    }

    private static HAProxyProtocolException malformed(String message) {
        return new HAProxyProtocolException(Reason.MALFORMED_TLV, message);
    }
}
