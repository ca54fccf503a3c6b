package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReadOnlyByteBufTest {

    private static ByteBuf newBuffer(boolean direct) {
        ByteBuf buf = direct ? Unpooled.directBuffer(32) : Unpooled.buffer(32);
        buf.writeLong(0x0102030405060708L).writeLong(0x1112131415161718L);
        return buf;
    }

    private static Map<String, Consumer<ByteBuf>> mutators(FileChannel file) {
        Map<String, Consumer<ByteBuf>> m = new LinkedHashMap<>();
        m.put("capacity", b -> b.capacity(64));
        m.put("discardReadBytes", ByteBuf::discardReadBytes);
        m.put("discardSomeReadBytes", ByteBuf::discardSomeReadBytes);
        m.put("ensureWritable", b -> b.ensureWritable(1));
        m.put("setBoolean", b -> b.setBoolean(0, true));
        m.put("setByte", b -> b.setByte(0, 1));
        m.put("setShort", b -> b.setShort(0, 1));
        m.put("setShortLE", b -> b.setShortLE(0, 1));
        m.put("setMedium", b -> b.setMedium(0, 1));
        m.put("setMediumLE", b -> b.setMediumLE(0, 1));
        m.put("setInt", b -> b.setInt(0, 1));
        m.put("setIntLE", b -> b.setIntLE(0, 1));
        m.put("setLong", b -> b.setLong(0, 1));
        m.put("setLongLE", b -> b.setLongLE(0, 1));
        m.put("setChar", b -> b.setChar(0, 1));
        m.put("setFloat", b -> b.setFloat(0, 1));
        m.put("setFloatLE", b -> b.setFloatLE(0, 1));
        m.put("setDouble", b -> b.setDouble(0, 1));
        m.put("setDoubleLE", b -> b.setDoubleLE(0, 1));
        m.put("setBytes(byte[])", b -> b.setBytes(0, new byte[2]));
        m.put("setBytes(byte[],int,int)", b -> b.setBytes(0, new byte[2], 0, 2));
        m.put("setBytes(ByteBuffer)", b -> b.setBytes(0, ByteBuffer.allocate(2)));
        m.put("setBytes(ByteBuf,int,int)", b -> b.setBytes(0, Unpooled.EMPTY_BUFFER, 0, 0));
        m.put("setBytes(InputStream)", b -> io(() -> b.setBytes(0, new ByteArrayInputStream(new byte[2]), 2)));
        m.put("setBytes(FileChannel)", b -> io(() -> b.setBytes(0, file, 0, 2)));
        m.put("setBytes(ScatteringByteChannel)", b -> io(() -> b.setBytes(0, (java.nio.channels.ScatteringByteChannel) file, 2)));
        m.put("setZero", b -> b.setZero(0, 2));
        m.put("setCharSequence", b -> b.setCharSequence(0, "ab", StandardCharsets.US_ASCII));
        m.put("writeBoolean", b -> b.writeBoolean(true));
        m.put("writeByte", b -> b.writeByte(1));
        m.put("writeShort", b -> b.writeShort(1));
        m.put("writeShortLE", b -> b.writeShortLE(1));
        m.put("writeMedium", b -> b.writeMedium(1));
        m.put("writeMediumLE", b -> b.writeMediumLE(1));
        m.put("writeInt", b -> b.writeInt(1));
        m.put("writeIntLE", b -> b.writeIntLE(1));
        m.put("writeLong", b -> b.writeLong(1));
        m.put("writeLongLE", b -> b.writeLongLE(1));
        m.put("writeChar", b -> b.writeChar(1));
        m.put("writeFloat", b -> b.writeFloat(1));
        m.put("writeFloatLE", b -> b.writeFloatLE(1));
        m.put("writeDouble", b -> b.writeDouble(1));
        m.put("writeDoubleLE", b -> b.writeDoubleLE(1));
        m.put("writeBytes(byte[])", b -> b.writeBytes(new byte[2]));
        m.put("writeBytes(byte[],int,int)", b -> b.writeBytes(new byte[2], 0, 2));
        m.put("writeBytes(ByteBuffer)", b -> b.writeBytes(ByteBuffer.allocate(2)));
        m.put("writeBytes(ByteBuf)", b -> b.writeBytes(Unpooled.EMPTY_BUFFER));
        m.put("writeBytes(InputStream)", b -> io(() -> b.writeBytes(new ByteArrayInputStream(new byte[2]), 2)));
        m.put("writeBytes(FileChannel)", b -> io(() -> b.writeBytes(file, 0, 2)));
        m.put("writeZero", b -> b.writeZero(2));
        m.put("writeCharSequence", b -> b.writeCharSequence("ab", StandardCharsets.UTF_8));
        m.put("array", ByteBuf::array);
        return m;
    }

    interface IoAction {
        Object run() throws java.io.IOException;
    }

    private static void io(IoAction action) {
        try {
            action.run();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "direct: {0}")
    @ValueSource(booleans = {false, true})
    void everyMutatingMethodThrowsAndChangesNothing(boolean direct, @TempDir Path dir) throws Exception {
        ByteBuf buf = newBuffer(direct);
        try (FileChannel file = FileChannel.open(dir.resolve("f"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            file.write(ByteBuffer.wrap(new byte[] {9, 9, 9, 9}));
            ByteBuf view = buf.asReadOnly();
            view.readerIndex(2);
            for (Map.Entry<String, Consumer<ByteBuf>> e : mutators(file).entrySet()) {
                assertThatThrownBy(() -> e.getValue().accept(view)).as(e.getKey())
                        .isInstanceOf(ReadOnlyBufferException.class);
                assertThat(view.readerIndex()).as(e.getKey()).isEqualTo(2);
                assertThat(view.writerIndex()).as(e.getKey()).isEqualTo(16);
                assertThat(view.capacity()).as(e.getKey()).isEqualTo(32);
            }
            assertThat(buf.getLong(0)).isEqualTo(0x0102030405060708L);
            assertThat(buf.getLong(8)).isEqualTo(0x1112131415161718L);
        } finally {
            buf.release();
        }
    }

    @Test
    void readsIndexMovesAndDerivedViewsStayReadOnly() {
        ByteBuf buf = newBuffer(false);
        try {
            ByteBuf view = buf.asReadOnly();
            assertThat(view.readLong()).isEqualTo(0x0102030405060708L);
            assertThat(buf.readerIndex()).isZero();
            assertThat(view.hasArray()).isFalse();
            assertThat(view.hasMemoryAddress()).isFalse();
            assertThat(view.ensureWritable(100, true)).isEqualTo(1);
            assertThat(view.nioBuffer().isReadOnly()).isTrue();
            assertThat(view.slice().isReadOnly()).isTrue();
            assertThat(view.slice().readLong()).isEqualTo(0x1112131415161718L);
            assertThat(view.duplicate().isReadOnly()).isTrue();
            assertThat(view.duplicate().readerIndex()).isEqualTo(8);
            ByteBuf copy = view.copy();
            try {
                assertThat(copy.isReadOnly()).isFalse();
                copy.setByte(0, 0);
                assertThat(view.getByte(8)).isEqualTo((byte) 0x11);
            } finally {
                copy.release();
            }
            ByteBuf retained = view.retainedSlice();
            assertThat(buf.refCnt()).isEqualTo(2);
            assertThat(retained.release()).isFalse();
            view.clear();
            assertThat(view.readableBytes()).isZero();
        } finally {
            buf.release();
        }
    }

    @Test
    void copyingIntoAReadOnlyBufferThrows() {
        ByteBuf buf = newBuffer(true);
        ByteBuf src = Unpooled.buffer(8).writeLong(7);
        try {
            ByteBuf view = buf.asReadOnly();
            assertThatThrownBy(() -> src.getBytes(0, view, 0, 8)).isInstanceOf(ReadOnlyBufferException.class);
            assertThatThrownBy(() -> src.readBytes(view, 0, 8)).isInstanceOf(ReadOnlyBufferException.class);
            assertThat(buf.getLong(0)).isEqualTo(0x0102030405060708L);
        } finally {
            src.release();
            buf.release();
        }
    }

    @Test
    void aWrappedReadOnlyByteBufferIsReadOnly() {
        ByteBuffer nio = ByteBuffer.allocate(8).putLong(0, 42).asReadOnlyBuffer();
        ByteBuf wrapped = Unpooled.wrappedBuffer(nio);
        try {
            assertThat(wrapped.isReadOnly()).isTrue();
            assertThat(wrapped.readLong()).isEqualTo(42);
            assertThatThrownBy(() -> wrapped.setLong(0, 1)).isInstanceOf(ReadOnlyBufferException.class);
        } finally {
            wrapped.release();
        }
    }
}
