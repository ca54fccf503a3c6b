package io.weir.handler.codec.http.multipart;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.util.AbstractReferenceCounted;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Storage shared by every form item: content in plain byte arrays ({@link MemoryContent}) while it is smaller than
 * the item's memory limit, in a temporary file above it. Memory content is held in arrays rather than
 * {@code ByteBuf}s so that holding many small fields costs no leak tracking, and in a list of arrays rather than one
 * so that a big item is copied once, not once per doubling; file content is written as it arrives and never read
 * back whole unless asked. Not thread-safe.
 */
abstract class AbstractHttpData extends AbstractReferenceCounted implements HttpData {
    /** Copy size when streaming from an {@code InputStream} or reading a file into a chunk. */
    static final int COPY_CHUNK_SIZE_BYTES = 16 * 1024;

    private final String name;
    /** Content beyond this size goes to a file: {@code Long.MAX_VALUE} memory only, 0 disk only. */
    private final long memoryLimitBytes;
    private final Path baseDirectory;
    private final boolean deleteOnExit;
    private Charset charset;
    private long maxSize = UNLIMITED_SIZE;
    private long definedSize;
    private long size;
    private boolean completed;

    private final MemoryContent memory = new MemoryContent();
    private Path file;
    private FileChannel channel;
    /** Whether {@link #file} is ours to delete (a temporary file, not one given by or moved for the user). */
    private boolean ownsFile;
    private long chunkPosition;

    AbstractHttpData(String name, Charset charset, long definedSize, long memoryLimitBytes, Path baseDirectory,
                     boolean deleteOnExit) {
        this.name = Objects.requireNonNull(name, "name");
        this.charset = charset == null ? StandardCharsets.UTF_8 : charset;
        if (definedSize < 0) {
            throw new IllegalArgumentException("definedSize: " + definedSize + " (expected >= 0)");
        }
        this.definedSize = definedSize;
        this.memoryLimitBytes = memoryLimitBytes;
        this.baseDirectory = baseDirectory;
        this.deleteOnExit = deleteOnExit;
    }

    /** Prefix of temporary file names. */
    abstract String tempFilePrefix();

    @Override
    public String getName() {
        return name;
    }

    @Override
    public long getMaxSize() {
        return maxSize;
    }

    @Override
    public void setMaxSize(long maxSize) {
        if (maxSize < UNLIMITED_SIZE) {
            throw new IllegalArgumentException("maxSize: " + maxSize + " (expected >= -1)");
        }
        this.maxSize = maxSize;
    }

    @Override
    public void checkSize(long newSize) throws IOException {
        if (maxSize != UNLIMITED_SIZE && newSize > maxSize) {
            throw new HttpDataSizeExceededException(name, newSize, maxSize);
        }
    }

    /** Appends {@code length} bytes of {@code src} at {@code index} without touching its indexes or references. */
    final void append(ByteBuf src, int index, int length) throws IOException {
        long newSize = size + length;
        checkSize(newSize);
        if (file == null && newSize > memoryLimitBytes) {
            moveToDisk();
        }
        if (file != null) {
            openChannelForWrite();
            long pos = size;
            int done = 0;
            while (done < length) {
                done += src.getBytes(index + done, channel, pos + done, length - done);
            }
        } else {
            appendToMemory(src, index, length);
        }
        size = newSize;
    }

    /** Appends {@code length} bytes of {@code src} at {@code offset}. */
    final void append(byte[] src, int offset, int length) throws IOException {
        long newSize = size + length;
        checkSize(newSize);
        if (file == null && newSize > memoryLimitBytes) {
            moveToDisk();
        }
        if (file != null) {
            openChannelForWrite();
            writeFully(ByteBuffer.wrap(src, offset, length), size);
        } else {
            appendToMemory(src, offset, length);
        }
        size = newSize;
    }

    /**
     * Marks the content complete and closes the file channel, so a finished item holds no file descriptor. A
     * disk-only item gets its (empty) file even if no byte arrived, so {@link #getFile()} works for every size.
     */
    final void complete() throws IOException {
        if (file == null && memoryLimitBytes == 0) {
            moveToDisk();
        }
        completed = true;
        closeChannel();
    }

    private void appendToMemory(ByteBuf src, int index, int length) throws IOException {
        checkMemoryFits(length);
        memory.append(src, index, length);
    }

    private void appendToMemory(byte[] src, int offset, int length) throws IOException {
        checkMemoryFits(length);
        memory.append(src, offset, length);
    }

    private void checkMemoryFits(int length) throws IOException {
        long needed = size + length;
        if (needed > MemoryContent.MAX_ARRAY_BYTES) {
            throw new IOException("'" + name + "' too large to hold in memory: " + needed + " bytes");
        }
    }

    private void moveToDisk() throws IOException {
        file = TempFiles.create(baseDirectory, tempFilePrefix(), ".tmp", deleteOnExit);
        ownsFile = true;
        openChannelForWrite();
        if (size > 0) {
            memory.writeTo(channel, 0);
        }
        memory.clear();
    }

    private void openChannelForWrite() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ);
        }
    }

    private void writeFully(ByteBuffer src, long position) throws IOException {
        long pos = position;
        while (src.hasRemaining()) {
            pos += channel.write(src, pos);
        }
    }

    private void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Closing only releases the descriptor; the data is either written or already reported.
            }
            channel = null;
        }
    }

    @Override
    public void addContent(ByteBuf buffer, boolean last) throws IOException {
        Objects.requireNonNull(buffer, "buffer");
        try {
            append(buffer, buffer.readerIndex(), buffer.readableBytes());
        } finally {
            buffer.release();
        }
        if (last) {
            complete();
        }
    }

    @Override
    public void setContent(ByteBuf buffer) throws IOException {
        Objects.requireNonNull(buffer, "buffer");
        try {
            delete();
            checkSize(buffer.readableBytes());
            definedSize = buffer.readableBytes();
            append(buffer, buffer.readerIndex(), buffer.readableBytes());
        } finally {
            buffer.release();
        }
        complete();
    }

    @Override
    public void setContent(File source) throws IOException {
        Objects.requireNonNull(source, "file");
        long length = source.length();
        checkSize(length);
        delete();
        definedSize = length;
        if (memoryLimitBytes == Long.MAX_VALUE || (length <= memoryLimitBytes && memoryLimitBytes > 0)) {
            byte[] bytes = Files.readAllBytes(source.toPath());
            append(bytes, 0, bytes.length);
        } else {
            file = source.toPath();
            ownsFile = false;
            size = length;
        }
        complete();
    }

    @Override
    public void setContent(InputStream inputStream) throws IOException {
        Objects.requireNonNull(inputStream, "inputStream");
        delete();
        byte[] chunk = new byte[COPY_CHUNK_SIZE_BYTES];
        for (int n; (n = inputStream.read(chunk)) != -1; ) {
            append(chunk, 0, n);
        }
        complete();
    }

    @Override
    public boolean isCompleted() {
        return completed;
    }

    @Override
    public long length() {
        return size;
    }

    @Override
    public long definedLength() {
        return definedSize;
    }

    @Override
    public void delete() {
        closeChannel();
        if (file != null) {
            if (ownsFile) {
                TempFiles.delete(file);
            }
            file = null;
        }
        memory.clear();
        size = 0;
        chunkPosition = 0;
        completed = false;
    }

    @Override
    public byte[] get() throws IOException {
        if (file == null) {
            return memory.toArray();
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IOException("'" + name + "' too large for one array: " + size + " bytes");
        }
        byte[] all = new byte[(int) size];
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer dst = ByteBuffer.wrap(all);
            while (dst.hasRemaining()) {
                if (in.read(dst, dst.position()) < 0) {
                    throw new IOException("'" + file + "' is shorter than the " + size + " bytes written");
                }
            }
        }
        return all;
    }

    @Override
    public ByteBuf getByteBuf() throws IOException {
        return Unpooled.wrappedBuffer(get());
    }

    @Override
    public ByteBuf getChunk(int length) throws IOException {
        if (length < 0) {
            throw new IllegalArgumentException("length: " + length + " (expected >= 0)");
        }
        int n = (int) Math.min(length, size - chunkPosition);
        if (n <= 0) {
            chunkPosition = 0;
            return Unpooled.EMPTY_BUFFER;
        }
        ByteBuf out = Unpooled.buffer(n);
        try {
            if (file == null) {
                memory.copyTo((int) chunkPosition, out, n);
            } else {
                try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
                    while (out.isWritable()) {
                        if (out.writeBytes(in, chunkPosition + out.readableBytes(), out.writableBytes()) < 0) {
                            throw new IOException("'" + file + "' is shorter than the " + size + " bytes written");
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            out.release();
            throw e;
        }
        chunkPosition += n;
        return out;
    }

    @Override
    public String getString() throws IOException {
        return getString(charset);
    }

    @Override
    public String getString(Charset cs) throws IOException {
        if (file == null) {
            return memory.decode(cs == null ? charset : cs);
        }
        return new String(get(), cs == null ? charset : cs);
    }

    @Override
    public void setCharset(Charset charset) {
        this.charset = Objects.requireNonNull(charset, "charset");
    }

    @Override
    public Charset getCharset() {
        return charset;
    }

    @Override
    public boolean renameTo(File dest) throws IOException {
        Objects.requireNonNull(dest, "dest");
        Path target = dest.toPath();
        if (file == null) {
            try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                memory.writeTo(out, 0);
            }
            return true;
        }
        closeChannel();
        try {
            Files.move(file, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException atomicFailed) {
            // Across file systems an atomic move is impossible; a plain move copies then deletes.
            Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
        }
        if (ownsFile) {
            TempFiles.forget(file);
        }
        file = target;
        ownsFile = false;
        return true;
    }

    @Override
    public boolean isInMemory() {
        return file == null;
    }

    @Override
    public File getFile() throws IOException {
        if (file == null) {
            throw new IOException("'" + name + "' is held in memory, not in a file");
        }
        return file.toFile();
    }

    /** The file path, or {@code null} when in memory. */
    final Path path() {
        return file;
    }

    @Override
    protected void deallocate() {
        delete();
    }

    @Override
    public HttpData retain() {
        super.retain();
        return this;
    }

    @Override
    public HttpData retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public HttpData touch() {
        return this;
    }

    @Override
    public HttpData touch(Object hint) {
        return this;
    }
}
