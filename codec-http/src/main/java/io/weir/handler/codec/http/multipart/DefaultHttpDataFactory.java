package io.weir.handler.codec.http.multipart;

import io.weir.handler.codec.http.HttpRequest;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The default {@link HttpDataFactory}: items in memory, on disk, or (the default) in memory up to
 * {@value #DEFAULT_MIXED_THRESHOLD_BYTES} bytes and in a temporary file beyond. Thread-safe; the per-request
 * bookkeeping is guarded by one lock, taken once per created item and once per clean.
 */
public final class DefaultHttpDataFactory implements HttpDataFactory {
    /** Size above which a {@link Mode#MIXED} item moves to a temporary file: 16 KiB. */
    public static final long DEFAULT_MIXED_THRESHOLD_BYTES = 16 * 1024;

    /** Where items live. */
    public enum Mode {
        /** Always in memory: bound the size with {@link #setMaxLimit(long)} or the decoder's limits. */
        MEMORY,
        /** Always in a temporary file. */
        DISK,
        /** In memory up to the threshold, in a temporary file beyond. */
        MIXED
    }

    private final Mode mode;
    private final long thresholdBytes;
    private final Charset charset;
    private volatile Path baseDirectory;
    private volatile boolean deleteOnExit = true;
    private volatile long maxSize = HttpData.UNLIMITED_SIZE;
    private final Map<HttpRequest, List<HttpData>> tracked = new IdentityHashMap<>();

    /** A {@link Mode#MIXED} factory with the default threshold and UTF-8. */
    public DefaultHttpDataFactory() {
        this(Mode.MIXED, DEFAULT_MIXED_THRESHOLD_BYTES, StandardCharsets.UTF_8);
    }

    /** A {@link Mode#MIXED} factory moving items above {@code thresholdBytes} to disk. */
    public DefaultHttpDataFactory(long thresholdBytes) {
        this(Mode.MIXED, thresholdBytes, StandardCharsets.UTF_8);
    }

    /** A factory of the given mode with the default threshold and UTF-8. */
    public DefaultHttpDataFactory(Mode mode) {
        this(mode, DEFAULT_MIXED_THRESHOLD_BYTES, StandardCharsets.UTF_8);
    }

    /**
     * A factory.
     *
     * @param thresholdBytes used by {@link Mode#MIXED} only
     * @param charset the default charset of attributes
     * @throws IllegalArgumentException if {@code thresholdBytes} is negative
     */
    public DefaultHttpDataFactory(Mode mode, long thresholdBytes, Charset charset) {
        this.mode = Objects.requireNonNull(mode, "mode");
        if (thresholdBytes < 0) {
            throw new IllegalArgumentException("thresholdBytes: " + thresholdBytes + " (expected >= 0)");
        }
        this.thresholdBytes = thresholdBytes;
        this.charset = Objects.requireNonNull(charset, "charset");
    }

    /** Sets the directory of temporary files ({@code null}: the system temp directory). Returns this. */
    public DefaultHttpDataFactory setBaseDirectory(Path baseDirectory) {
        this.baseDirectory = baseDirectory;
        return this;
    }

    /** Sets whether temporary files still present at JVM exit are deleted then (default yes). Returns this. */
    public DefaultHttpDataFactory setDeleteOnExit(boolean deleteOnExit) {
        this.deleteOnExit = deleteOnExit;
        return this;
    }

    /** The mode items are created in. */
    public Mode mode() {
        return mode;
    }

    /** The largest size of one item, in bytes, or {@link HttpData#UNLIMITED_SIZE}. */
    public long maxLimit() {
        return maxSize;
    }

    @Override
    public void setMaxLimit(long maxSize) {
        if (maxSize < HttpData.UNLIMITED_SIZE) {
            throw new IllegalArgumentException("maxSize: " + maxSize + " (expected >= -1)");
        }
        this.maxSize = maxSize;
    }

    @Override
    public Attribute createAttribute(HttpRequest request, String name) {
        return createAttribute(request, name, 0L);
    }

    @Override
    public Attribute createAttribute(HttpRequest request, String name, long definedSize) {
        Attribute attribute = switch (mode) {
            case MEMORY -> new MemoryAttribute(name, charset, definedSize);
            case DISK -> new DiskAttribute(name, charset, definedSize, baseDirectory, deleteOnExit);
            case MIXED -> new MixedAttribute(name, charset, definedSize, thresholdBytes, baseDirectory,
                    deleteOnExit);
        };
        attribute.setMaxSize(maxSize);
        track(request, attribute);
        return attribute;
    }

    @Override
    public Attribute createAttribute(HttpRequest request, String name, String value) {
        Attribute attribute = createAttribute(request, name, 0L);
        try {
            attribute.setValue(value);
        } catch (IOException e) {
            untrackAndRelease(request, attribute);
            throw new IllegalArgumentException("value of '" + name + "': " + e.getMessage(), e);
        }
        return attribute;
    }

    @Override
    public FileUpload createFileUpload(HttpRequest request, String name, String filename, String contentType,
                                       String contentTransferEncoding, Charset charset, long size) {
        FileUpload upload = switch (mode) {
            case MEMORY -> new MemoryFileUpload(name, filename, contentType, contentTransferEncoding, charset, size);
            case DISK -> new DiskFileUpload(name, filename, contentType, contentTransferEncoding, charset, size,
                    baseDirectory, deleteOnExit);
            case MIXED -> new MixedFileUpload(name, filename, contentType, contentTransferEncoding, charset, size,
                    thresholdBytes, baseDirectory, deleteOnExit);
        };
        upload.setMaxSize(maxSize);
        track(request, upload);
        return upload;
    }

    private void track(HttpRequest request, HttpData data) {
        synchronized (tracked) {
            tracked.computeIfAbsent(request, r -> new ArrayList<>()).add(data);
        }
    }

    private void untrackAndRelease(HttpRequest request, HttpData data) {
        removeHttpDataFromClean(request, data);
        data.release();
    }

    @Override
    public void removeHttpDataFromClean(HttpRequest request, InterfaceHttpData data) {
        synchronized (tracked) {
            List<HttpData> list = tracked.get(request);
            if (list != null) {
                for (int i = 0; i < list.size(); i++) {
                    if (list.get(i) == data) {
                        list.remove(i);
                        break;
                    }
                }
                if (list.isEmpty()) {
                    tracked.remove(request);
                }
            }
        }
    }

    @Override
    public void cleanRequestHttpData(HttpRequest request) {
        List<HttpData> list;
        synchronized (tracked) {
            list = tracked.remove(request);
        }
        if (list != null) {
            for (int i = 0; i < list.size(); i++) {
                list.get(i).delete();
            }
        }
    }

    @Override
    public void cleanAllHttpData() {
        List<List<HttpData>> all;
        synchronized (tracked) {
            all = new ArrayList<>(tracked.values());
            tracked.clear();
        }
        for (List<HttpData> list : all) {
            for (int i = 0; i < list.size(); i++) {
                list.get(i).delete();
            }
        }
    }
}
