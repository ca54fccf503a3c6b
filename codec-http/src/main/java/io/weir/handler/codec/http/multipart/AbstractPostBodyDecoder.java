package io.weir.handler.codec.http.multipart;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http.HttpContent;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.ErrorDataDecoderException;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.NotEnoughDataDecoderException;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.TooLongBodyException;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.TooLongFormFieldException;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.TooManyFormFieldsException;
import java.io.IOException;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What both POST decoders share: one undecoded buffer they parse with index arithmetic, the decoded items, the
 * limits, and failure and destroy handling. Single-threaded.
 *
 * <p>The undecoded buffer is a plain array owned here, wrapped as a {@code ByteBuf} for the parsers. It is not taken
 * from an allocator: it holds no pooled or native memory, so it needs no leak tracking, and a tracked buffer would
 * leave an access record per search and per copy at the ADVANCED and PARANOID levels. Its array is always
 * reachable through {@code array()}, so the hot scans read it directly. Offered bytes are copied in at most
 * {@code maxBufferedBytes} at a time and parsed at once, so even a huge chunk never makes the decoder hold more
 * than that limit; consumed bytes are discarded when that is cheap (they are at least as many as the bytes kept)
 * or needed for room, which keeps the copying linear overall.
 */
abstract class AbstractPostBodyDecoder implements InterfaceHttpPostRequestDecoder {
    private static final int INITIAL_BUFFER_BYTES = 1024;

    final HttpDataFactory factory;
    final HttpRequest request;
    final HttpPostDecoderConfig config;
    /** Charset of fields that name none; a {@code _charset_} field changes it (RFC 7578 §4.6). */
    Charset charset;
    ByteBuf undecoded;
    boolean lastChunkSeen;
    private boolean destroyed;
    private int fieldCount;
    private final List<InterfaceHttpData> bodyList = new ArrayList<>();
    private final Set<InterfaceHttpData> kept = Collections.newSetFromMap(new IdentityHashMap<>());
    private int nextIndex;

    AbstractPostBodyDecoder(HttpDataFactory factory, HttpRequest request, Charset charset,
                            HttpPostDecoderConfig config) {
        this.factory = Objects.requireNonNull(factory, "factory");
        this.request = Objects.requireNonNull(request, "request");
        this.charset = Objects.requireNonNull(charset, "charset");
        this.config = Objects.requireNonNull(config, "config");
    }

    /** Offers the content a {@code FullHttpRequest} carries; called by subclass constructors once they are ready. */
    final void offerOwnContent() {
        if (request instanceof HttpContent content) {
            offer(content);
        }
    }

    /** Decodes as much of {@link #undecoded} as possible. */
    abstract void parse() throws IOException;

    /** Checks the body is complete once the last content was parsed. */
    abstract void checkEnd();

    /** Frees the item being decoded, if any. */
    abstract void releasePartial();

    @Override
    public InterfaceHttpPostRequestDecoder offer(HttpContent content) {
        if (destroyed) {
            throw new IllegalStateException("decoder destroyed");
        }
        if (lastChunkSeen) {
            throw new IllegalStateException("content offered after the last content");
        }
        ByteBuf in = content.content();
        int index = in.readerIndex();
        int end = in.writerIndex();
        try {
            if (undecoded == null) {
                undecoded = newUndecoded(Math.min(Math.max(INITIAL_BUFFER_BYTES, end - index),
                        config.maxBufferedBytes()));
            }
            while (index < end) {
                int room = config.maxBufferedBytes() - undecoded.readableBytes();
                if (room <= 0) {
                    throw new TooLongBodyException("more than " + config.maxBufferedBytes()
                            + " undecoded bytes would be buffered");
                }
                int take = Math.min(room, end - index);
                makeRoom(take);
                undecoded.writeBytes(in, index, take);
                index += take;
                parse();
            }
            if (content instanceof LastHttpContent) {
                lastChunkSeen = true;
                parse();
                checkEnd();
            }
            makeRoom(0);
        } catch (ErrorDataDecoderException e) {
            fail();
            throw e;
        } catch (IOException e) {
            fail();
            throw new ErrorDataDecoderException("cannot store form data: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            fail();
            throw e;
        }
        return this;
    }

    private static ByteBuf newUndecoded(int capacity) {
        return Unpooled.wrappedBuffer(new byte[capacity]).clear();
    }

    private void makeRoom(int needed) {
        int reader = undecoded.readerIndex();
        int readable = undecoded.readableBytes();
        // Discarding moves the kept bytes to the front: do it when they are no more than those dropped, or when
        // otherwise the buffer would have to grow; either way each byte is moved a bounded number of times.
        if (reader > 0 && (reader >= readable || undecoded.writableBytes() < needed)) {
            undecoded.discardReadBytes();
        }
        if (undecoded.writableBytes() < needed) {
            // The wrapped array has a fixed capacity: grow by doubling, never past the buffered-bytes limit (the
            // caller never asks for more than that limit leaves).
            int capacity = (int) Math.min(config.maxBufferedBytes(),
                    Math.max(2L * undecoded.capacity(), (long) readable + needed));
            ByteBuf grown = newUndecoded(capacity);
            grown.writeBytes(undecoded, undecoded.readerIndex(), readable);
            undecoded.release();
            undecoded = grown;
        }
    }

    /** Counts one more field. @throws TooManyFormFieldsException beyond the limit */
    final void countField() {
        if (++fieldCount > config.maxFields()) {
            throw new TooManyFormFieldsException("more than " + config.maxFields() + " form fields");
        }
    }

    /** Throws if {@code data} would grow to {@code newLength} bytes beyond what a field may hold in memory. */
    final void checkFieldSize(HttpData data, long newLength) {
        if (newLength > config.maxFieldSizeBytes()
                && (data.getHttpDataType() == InterfaceHttpData.HttpDataType.ATTRIBUTE || data.isInMemory())) {
            throw new TooLongFormFieldException("field '" + data.getName() + "' exceeds "
                    + config.maxFieldSizeBytes() + " bytes");
        }
    }

    /** Appends undecoded bytes {@code [index, index + length)} to {@code data}, respecting the field size limit. */
    final void appendTo(HttpData data, int index, int length) throws IOException {
        if (length == 0) {
            return;
        }
        if (data.getHttpDataType() == InterfaceHttpData.HttpDataType.ATTRIBUTE) {
            checkFieldSize(data, data.length() + length);
        }
        if (data instanceof AbstractHttpData own) {
            own.append(undecoded, index, length);
        } else {
            data.addContent(undecoded.copy(index, length), false);
        }
        checkFieldSize(data, data.length());
    }

    /** Marks {@code data} complete and makes it available to {@link #next()}. */
    final void addCompleted(HttpData data) throws IOException {
        if (data instanceof AbstractHttpData own) {
            own.complete();
        } else {
            data.addContent(Unpooled.EMPTY_BUFFER, true);
        }
        bodyList.add(data);
        if (data instanceof Attribute attribute && "_charset_".equals(attribute.getName())) {
            String name = attribute.getValue().trim();
            try {
                charset = Charset.forName(name);
            } catch (IllegalArgumentException e) {
                throw new ErrorDataDecoderException("unsupported _charset_ '" + name + "'", e);
            }
        }
    }

    private void fail() {
        destroy();
    }

    @Override
    public boolean hasNext() {
        return nextIndex < bodyList.size();
    }

    @Override
    public InterfaceHttpData next() {
        return nextIndex < bodyList.size() ? bodyList.get(nextIndex++) : null;
    }

    private void checkComplete() {
        if (!lastChunkSeen) {
            throw new NotEnoughDataDecoderException("the body is not complete yet");
        }
    }

    @Override
    public List<InterfaceHttpData> getBodyHttpDatas() {
        checkComplete();
        return Collections.unmodifiableList(bodyList);
    }

    @Override
    public List<InterfaceHttpData> getBodyHttpDatas(String name) {
        checkComplete();
        List<InterfaceHttpData> found = new ArrayList<>();
        for (int i = 0; i < bodyList.size(); i++) {
            if (bodyList.get(i).getName().equalsIgnoreCase(name)) {
                found.add(bodyList.get(i));
            }
        }
        return found;
    }

    @Override
    public InterfaceHttpData getBodyHttpData(String name) {
        checkComplete();
        for (int i = 0; i < bodyList.size(); i++) {
            if (bodyList.get(i).getName().equalsIgnoreCase(name)) {
                return bodyList.get(i);
            }
        }
        return null;
    }

    @Override
    public void removeHttpDataFromClean(InterfaceHttpData data) {
        kept.add(data);
        factory.removeHttpDataFromClean(request, data);
    }

    @Override
    public void cleanFiles() {
        factory.cleanRequestHttpData(request);
    }

    @Override
    public void destroy() {
        if (destroyed) {
            return;
        }
        destroyed = true;
        releasePartial();
        for (int i = 0; i < bodyList.size(); i++) {
            InterfaceHttpData data = bodyList.get(i);
            if (!kept.contains(data) && data.refCnt() > 0) {
                data.release();
            }
        }
        cleanFiles();
        if (undecoded != null) {
            undecoded.release();
            undecoded = null;
        }
    }

    /** Releases a partial item that was never added to the body list. */
    static void releaseQuietly(HttpData data) {
        if (data != null && data.refCnt() > 0) {
            data.release();
        }
    }
}
