package io.weir.handler.codec.http.multipart;

import io.weir.buffer.Unpooled;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Path;

/** An attribute whose storage policy (memory, disk, mixed) is fixed by its subclass. Not thread-safe. */
abstract class AbstractAttribute extends AbstractHttpData implements Attribute {

    AbstractAttribute(String name, Charset charset, long definedSize, long memoryLimitBytes, Path baseDirectory,
                      boolean deleteOnExit) {
        super(name, charset, definedSize, memoryLimitBytes, baseDirectory, deleteOnExit);
    }

    @Override
    final String tempFilePrefix() {
        return "weir-attr-";
    }

    @Override
    public final HttpDataType getHttpDataType() {
        return HttpDataType.ATTRIBUTE;
    }

    @Override
    public final String getValue() throws IOException {
        return getString();
    }

    @Override
    public final void setValue(String value) throws IOException {
        byte[] bytes = value.getBytes(getCharset());
        setContent(Unpooled.wrappedBuffer(bytes));
    }

    @Override
    public String toString() {
        String value;
        try {
            value = length() <= 256 ? getValue() : "(" + length() + " bytes)";
        } catch (IOException e) {
            value = "(unreadable: " + e.getMessage() + ")";
        }
        return getClass().getSimpleName() + "[" + getName() + "=" + value + "]";
    }
}
