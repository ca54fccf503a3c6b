package io.weir.handler.codec.http.websocketx;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Builds raw frames byte by byte for tests, including ones no correct encoder would write. */
final class WireFrames {
    static final int MASK_KEY = 0x37FA213D;

    private WireFrames() {
    }

    /** A frame with first byte {@code b0}, the payload masked with {@link #MASK_KEY} when {@code mask}. */
    static byte[] frame(int b0, boolean mask, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(b0);
        int m = mask ? 0x80 : 0;
        int n = payload.length;
        if (n <= 125) {
            out.write(m | n);
        } else if (n <= 0xFFFF) {
            out.write(m | 126);
            out.write(n >>> 8);
            out.write(n);
        } else {
            out.write(m | 127);
            for (int i = 7; i >= 0; i--) {
                out.write((int) ((long) n >>> (8 * i)));
            }
        }
        if (mask) {
            for (int i = 0; i < 4; i++) {
                out.write(MASK_KEY >>> (24 - 8 * i));
            }
        }
        for (int i = 0; i < n; i++) {
            out.write(mask ? payload[i] ^ (MASK_KEY >>> (24 - 8 * (i & 3))) : payload[i]);
        }
        return out.toByteArray();
    }

    static byte[] client(int b0, byte[] payload) {
        return frame(b0, true, payload);
    }

    static byte[] client(int b0, String text) {
        return frame(b0, true, text.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] close(int status, String reason) {
        byte[] r = reason.getBytes(StandardCharsets.UTF_8);
        byte[] p = new byte[2 + r.length];
        p[0] = (byte) (status >>> 8);
        p[1] = (byte) status;
        System.arraycopy(r, 0, p, 2, r.length);
        return p;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static byte[] hex(String hex) {
        String h = hex.replace(" ", "");
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }
}
