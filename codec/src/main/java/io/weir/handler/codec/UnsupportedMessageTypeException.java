package io.weir.handler.codec;

/** A codec was given a message of a type it cannot handle. The message names the type and the expected ones. */
public class UnsupportedMessageTypeException extends CodecException {
    private static final long serialVersionUID = 1L;

    /** For {@code message} (may be {@code null}), which is none of {@code expectedTypes}. */
    public UnsupportedMessageTypeException(Object message, Class<?>... expectedTypes) {
        super(describe(message == null ? "null" : message.getClass().getName(), expectedTypes));
    }

    /** With a message. */
    public UnsupportedMessageTypeException(String message) {
        super(message);
    }

    /** With a message and a cause. */
    public UnsupportedMessageTypeException(String message, Throwable cause) {
        super(message, cause);
    }

    private static String describe(String actualType, Class<?>[] expectedTypes) {
        StringBuilder buf = new StringBuilder(actualType);
        if (expectedTypes != null && expectedTypes.length > 0) {
            buf.append(" (expected: ");
            for (int i = 0; i < expectedTypes.length; i++) {
                if (i > 0) {
                    buf.append(", ");
                }
                Class<?> t = expectedTypes[i];
                buf.append(t == null ? "null" : t.getName());
            }
            buf.append(')');
        }
        return buf.toString();
    }
}
