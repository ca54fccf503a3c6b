package io.weir.handler.codec.http2.internal.hpack;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;
import static io.weir.handler.codec.http2.Http2Exception.streamError;

import io.weir.buffer.ByteBuf;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2HeaderListSizeException;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.util.AsciiString;

/**
 * Decodes HPACK header blocks (RFC 7541) into {@link Http2Headers}, validating the fields as RFC 9113 §8.2 and §8.3
 * require. One instance per connection, used only from the connection's event loop; it holds the decoding side's
 * dynamic table, so every header block the connection receives must pass through it in order, including those of
 * streams that are being reset.
 *
 * <h2>Reactions</h2>
 * <ul>
 *   <li>An HPACK coding error (bad index, truncated integer or string, integer overflow, Huffman EOS or bad padding,
 *   a table size update in the wrong place or above our setting) is a connection error COMPRESSION_ERROR: the two
 *   tables can no longer be kept in sync (RFC 9113 §4.3).</li>
 *   <li>A malformed field (upper-case or non-token name, CR/LF/NUL or surrounding white space in a value, unknown,
 *   misplaced, duplicated or missing pseudo-header, connection-specific field) is a stream error PROTOCOL_ERROR
 *   (RFC 9113 §8.1.1). The rest of the block is still decoded, without adding fields, so that the dynamic table
 *   stays in sync and the connection keeps going; the error is thrown when the block ends.</li>
 *   <li>A header list larger than the limit ({@link #DEFAULT_MAX_HEADER_LIST_SIZE_BYTES}, counted as name + value +
 *   32 per field, RFC 9113 §6.5.2) or with more fields than {@link #DEFAULT_MAX_HEADER_COUNT} is a stream error
 *   ({@link Http2HeaderListSizeException}, so a server can answer 431), again after decoding the rest of the block
 *   without keeping it.</li>
 *   <li>A header list that passes the connection-error limit (by default twice the above) is a connection error
 *   ENHANCE_YOUR_CALM, raised at once: decoding stops mid-block, so the tables are out of sync and the connection
 *   must end anyway; ENHANCE_YOUR_CALM rather than COMPRESSION_ERROR because the compression context is intact and
 *   what the peer did is abuse ("excessive load", RFC 9113 §7), which is what this code tells its operator. Strings
 *   are checked against this limit before they are allocated, so an HPACK bomb never materialises.</li>
 * </ul>
 *
 * <h2>Representations (RFC 7541 §6), told apart by the first byte</h2>
 * <pre>
 *     0   1   2   3   4   5   6   7
 *   +---+---+---+---+---+---+---+---+
 *   | 1 |        Index (7+)         |   indexed field (§6.1)
 *   | 0 | 1 |      Index (6+)       |   literal, incremental indexing (§6.2.1); index 0: literal name follows
 *   | 0 | 0 | 1 |   Max size (5+)   |   dynamic table size update (§6.3), only at the start of a block
 *   | 0 | 0 | 0 | 1 |  Index (4+)   |   literal, never indexed (§6.2.3)
 *   | 0 | 0 | 0 | 0 |  Index (4+)   |   literal, without indexing (§6.2.2)
 *   +---+---+---+---+---+---+---+---+
 *   string literal (§5.2):  | H |  Length (7+)  |  then Length octets, Huffman-coded when H is set
 *   integer (§5.1): N-bit prefix; if all ones, continue with 7 bits per byte, low groups first, while bit 8 is set
 * </pre>
 */
public final class HpackDecoder {
    /** SETTINGS_MAX_HEADER_LIST_SIZE we enforce unless told otherwise, in bytes (name + value + 32 per field). */
    public static final long DEFAULT_MAX_HEADER_LIST_SIZE_BYTES = 8192;
    /** Most fields in one header section unless told otherwise. */
    public static final int DEFAULT_MAX_HEADER_COUNT = 128;
    /** The connection-error limits are this many times the stream-error ones unless set explicitly. */
    public static final int DEFAULT_CONNECTION_ERROR_FACTOR = 2;
    /** SETTINGS_HEADER_TABLE_SIZE we advertise unless told otherwise, in bytes (RFC 7541 §4.2 initial value). */
    public static final long DEFAULT_HEADER_TABLE_SIZE_BYTES = HpackDynamicTable.DEFAULT_CAPACITY_BYTES;

    private static final int INDEXED = 0x80;                 // 1xxxxxxx
    private static final int INDEXED_PREFIX_BITS = 7;
    private static final int LITERAL_INCREMENTAL = 0x40;     // 01xxxxxx
    private static final int LITERAL_INCREMENTAL_PREFIX_BITS = 6;
    private static final int SIZE_UPDATE = 0x20;             // 001xxxxx
    private static final int SIZE_UPDATE_MASK = 0xE0;
    private static final int SIZE_UPDATE_PREFIX_BITS = 5;
    private static final int LITERAL_PREFIX_BITS = 4;        // 0001xxxx never indexed, 0000xxxx without indexing
    private static final int HUFFMAN = 0x80;                 // H bit of a string length
    private static final int STRING_LENGTH_PREFIX_BITS = 7;
    private static final int CONTINUATION = 0x80;
    private static final int CONTINUATION_VALUE_MASK = 0x7F;
    private static final int CONTINUATION_BITS = 7;
    /** An int needs at most five continuation bytes (shifts 0, 7, 14, 21, 28); more is an overflow. */
    private static final int MAX_CONTINUATION_SHIFT = 28;
    private static final int MIN_HUFFMAN_CODE_BITS = 5;
    private static final int INITIAL_SCRATCH_BYTES = 256;

    private final HpackDynamicTable table = new HpackDynamicTable(DEFAULT_HEADER_TABLE_SIZE_BYTES, false);
    private final HpackFieldValidator validator;
    private long maxTableSize = DEFAULT_HEADER_TABLE_SIZE_BYTES;
    private boolean sizeUpdateRequired;
    private long smallestSettingSinceLastBlock = Long.MAX_VALUE;
    private long maxListSize = DEFAULT_MAX_HEADER_LIST_SIZE_BYTES;
    private long connectionErrorListSize = DEFAULT_MAX_HEADER_LIST_SIZE_BYTES * DEFAULT_CONNECTION_ERROR_FACTOR;
    private int maxCount = DEFAULT_MAX_HEADER_COUNT;
    private int connectionErrorCount = DEFAULT_MAX_HEADER_COUNT * DEFAULT_CONNECTION_ERROR_FACTOR;
    private int capacityHint = Http2Headers.DEFAULT_INITIAL_CAPACITY;

    // Per block; fields rather than locals so that the small read methods share them.
    private byte[] src;
    private int pos;
    private int end;
    private byte[] copy = new byte[INITIAL_SCRATCH_BYTES];
    private byte[] huffman = new byte[INITIAL_SCRATCH_BYTES];
    private long listSize;
    private int count;
    private int streamId;
    private Http2Exception streamFailure;
    private Http2Headers out;

    /**
     * A decoder with the default limits.
     *
     * @param server true on a server (requests are received: request pseudo-headers), false on a client
     */
    public HpackDecoder(boolean server) {
        this(server, true);
    }

    /** A decoder that checks only HPACK and the limits when {@code validate} is false (tests of raw vectors). */
    HpackDecoder(boolean server, boolean validate) {
        validator = validate ? new HpackFieldValidator(server) : null;
    }

    /**
     * Decodes one complete header block (all CONTINUATION fragments joined) and validates it.
     *
     * @param streamId the stream the block belongs to (for stream errors), > 0
     * @param block the block; its readable bytes are consumed. The caller keeps ownership and releases it.
     * @param trailers true for a trailer section (no pseudo-header allowed, none required)
     * @return the fields, pseudo-headers first
     * @throws Http2Exception a connection error (COMPRESSION_ERROR, ENHANCE_YOUR_CALM) or a stream error
     *         (PROTOCOL_ERROR, possibly an {@link Http2HeaderListSizeException}); see the class notes. After a stream
     *         error the decoder is in sync and keeps serving the connection.
     */
    public Http2Headers decode(int streamId, ByteBuf block, boolean trailers) throws Http2Exception {
        if (streamId <= 0) {
            throw new IllegalArgumentException("streamId: " + streamId + " (expected > 0)");
        }
        int length = block.readableBytes();
        if (block.hasArray()) {
            src = block.array();
            pos = block.arrayOffset() + block.readerIndex();
        } else {
            if (copy.length < length) {
                copy = new byte[Math.max(length, copy.length * 2)];
            }
            block.getBytes(block.readerIndex(), copy, 0, length);
            src = copy;
            pos = 0;
        }
        end = pos + length;
        block.skipBytes(length);
        this.streamId = streamId;
        listSize = 0;
        count = 0;
        streamFailure = null;
        Http2Headers headers = new Http2Headers(capacityHint, false);
        out = headers;
        if (validator != null) {
            validator.reset(trailers);
        }
        try {
            decodeFields();
        } finally {
            src = null;
            out = null;
        }
        if (streamFailure == null && validator != null) {
            streamFailure = validator.finish(streamId, headers);
        }
        if (streamFailure != null) {
            Http2Exception failure = streamFailure;
            streamFailure = null;
            throw failure;
        }
        if (headers.size() > capacityHint) {
            capacityHint = Math.min(headers.size(), maxCount);
        }
        return headers;
    }

    /**
     * Sets the SETTINGS_HEADER_TABLE_SIZE we advertise, in bytes: call it once the peer has acknowledged the
     * SETTINGS frame carrying it. A size update above it is a connection error; if it is below the table's current
     * size, the peer's next header block must begin with a size update no larger than the smallest value set since
     * the previous block (RFC 7541 §4.2).
     *
     * @throws IllegalArgumentException unless {@code 0 <= bytes <= Integer.MAX_VALUE}
     */
    public void maxHeaderTableSize(long bytes) {
        if (bytes < 0 || bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("maxHeaderTableSize: " + bytes + " (expected 0.." + Integer.MAX_VALUE
                    + ")");
        }
        maxTableSize = bytes;
        smallestSettingSinceLastBlock = Math.min(smallestSettingSinceLastBlock, bytes);
        if (bytes < table.capacity()) {
            sizeUpdateRequired = true;
        }
    }

    /** The SETTINGS_HEADER_TABLE_SIZE in force, in bytes. */
    public long maxHeaderTableSize() {
        return maxTableSize;
    }

    /**
     * Sets the header list size limit, in bytes, as advertised in SETTINGS_MAX_HEADER_LIST_SIZE; the
     * connection-error limit becomes {@link #DEFAULT_CONNECTION_ERROR_FACTOR} times it.
     *
     * @throws IllegalArgumentException if {@code bytes <= 0}
     */
    public void maxHeaderListSize(long bytes) {
        maxHeaderListSize(bytes, saturatedMultiply(bytes, DEFAULT_CONNECTION_ERROR_FACTOR));
    }

    /**
     * Sets the header list size limits, in bytes: above {@code streamErrorBytes} the stream is refused with an
     * {@link Http2HeaderListSizeException}, above {@code connectionErrorBytes} the connection ends
     * (ENHANCE_YOUR_CALM).
     *
     * @throws IllegalArgumentException unless {@code 0 < streamErrorBytes <= connectionErrorBytes}
     */
    public void maxHeaderListSize(long streamErrorBytes, long connectionErrorBytes) {
        if (streamErrorBytes <= 0 || connectionErrorBytes < streamErrorBytes) {
            throw new IllegalArgumentException("maxHeaderListSize: " + streamErrorBytes + ", " + connectionErrorBytes
                    + " (expected 0 < stream-error limit <= connection-error limit)");
        }
        maxListSize = streamErrorBytes;
        connectionErrorListSize = connectionErrorBytes;
    }

    /** The header list size above which a stream is refused, in bytes. */
    public long maxHeaderListSize() {
        return maxListSize;
    }

    /**
     * Sets the most fields in a header section: above {@code streamErrorCount} the stream is refused with an
     * {@link Http2HeaderListSizeException}, above {@code connectionErrorCount} the connection ends
     * (ENHANCE_YOUR_CALM).
     *
     * @throws IllegalArgumentException unless {@code 0 < streamErrorCount <= connectionErrorCount}
     */
    public void maxHeaderCount(int streamErrorCount, int connectionErrorCount) {
        if (streamErrorCount <= 0 || connectionErrorCount < streamErrorCount) {
            throw new IllegalArgumentException("maxHeaderCount: " + streamErrorCount + ", " + connectionErrorCount
                    + " (expected 0 < stream-error limit <= connection-error limit)");
        }
        maxCount = streamErrorCount;
        this.connectionErrorCount = connectionErrorCount;
    }

    /** The field count above which a stream is refused. */
    public int maxHeaderCount() {
        return maxCount;
    }

    // Package-private views for tests.
    HpackDynamicTable table() {
        return table;
    }

    // ---- decoding ----

    private void decodeFields() throws Http2Exception {
        if (sizeUpdateRequired) {
            // RFC 7541 §4.2: after our setting shrank the table, the block must open with a size update.
            if (pos == end || (src[pos] & SIZE_UPDATE_MASK) != SIZE_UPDATE) {
                throw connectionError(Http2Error.COMPRESSION_ERROR, "HPACK: expected a dynamic table size update at"
                        + " the start of the block after SETTINGS_HEADER_TABLE_SIZE fell to "
                        + smallestSettingSinceLastBlock + " (RFC 7541 §4.2)");
            }
            int size = decodeInt(SIZE_UPDATE_PREFIX_BITS);
            if (size > smallestSettingSinceLastBlock) {
                throw connectionError(Http2Error.COMPRESSION_ERROR, "HPACK: dynamic table size update to " + size
                        + " above the smallest SETTINGS_HEADER_TABLE_SIZE since the last block, "
                        + smallestSettingSinceLastBlock + " (RFC 7541 §4.2)");
            }
            table.setCapacity(size);
            sizeUpdateRequired = false;
        }
        smallestSettingSinceLastBlock = maxTableSize;
        boolean fieldSeen = false;
        while (pos < end) {
            int b = src[pos] & 0xFF;
            if (b >= INDEXED) {
                // RFC 7541 §6.1
                fieldSeen = true;
                int index = decodeInt(INDEXED_PREFIX_BITS);
                if (index == 0) {
                    throw connectionError(Http2Error.COMPRESSION_ERROR, "HPACK: indexed field with index 0 "
                            + "(RFC 7541 §6.1)");
                }
                if (index <= HpackStaticTable.LENGTH) {
                    emit(HpackStaticTable.name(index), HpackStaticTable.value(index), index, true, 0);
                } else {
                    int d = dynamicIndex(index);
                    emit((AsciiString) table.name(d), (AsciiString) table.value(d), 0, false, table.tag(d));
                }
            } else if (b >= LITERAL_INCREMENTAL) {
                // RFC 7541 §6.2.1
                fieldSeen = true;
                literal(LITERAL_INCREMENTAL_PREFIX_BITS, true);
            } else if (b >= SIZE_UPDATE) {
                // RFC 7541 §4.2, §6.3: only before the first field, never above our SETTINGS_HEADER_TABLE_SIZE.
                if (fieldSeen) {
                    throw connectionError(Http2Error.COMPRESSION_ERROR, "HPACK: dynamic table size update after a"
                            + " field, not at the start of the block (RFC 7541 §4.2)");
                }
                int size = decodeInt(SIZE_UPDATE_PREFIX_BITS);
                if (size > maxTableSize) {
                    throw connectionError(Http2Error.COMPRESSION_ERROR, "HPACK: dynamic table size update to " + size
                            + " above SETTINGS_HEADER_TABLE_SIZE " + maxTableSize + " (RFC 7541 §6.3)");
                }
                table.setCapacity(size);
            } else {
                // RFC 7541 §6.2.2 (0000xxxx) and §6.2.3 (0001xxxx): the same layout, neither is indexed here.
                fieldSeen = true;
                literal(LITERAL_PREFIX_BITS, false);
            }
        }
    }

    private void literal(int prefixBits, boolean indexing) throws Http2Exception {
        int nameIndex = decodeInt(prefixBits);
        AsciiString name;
        int staticIndex = 0;
        if (nameIndex == 0) {
            name = readString(literalBudget(0));
        } else if (nameIndex <= HpackStaticTable.LENGTH) {
            name = HpackStaticTable.name(nameIndex);
            staticIndex = nameIndex;
        } else {
            name = (AsciiString) table.name(dynamicIndex(nameIndex));
        }
        AsciiString value = readString(literalBudget(name.length()));
        int tag = emit(name, value, staticIndex, false, 0);
        if (indexing) {
            table.add(name, 0, value, tag);
        }
    }

    private int dynamicIndex(int index) throws Http2Exception {
        int d = index - HpackStaticTable.LENGTH;
        if (d > table.length()) {
            throw connectionError(Http2Error.COMPRESSION_ERROR, "HPACK: index " + index + " beyond the tables ("
                    + HpackStaticTable.LENGTH + " static + " + table.length() + " dynamic entries, RFC 7541 §2.3.3)");
        }
        return d;
    }

    /**
     * Accounts for a decoded field, validates it and adds it, or records why the stream fails.
     *
     * @param tag how the field validated when it entered the dynamic table (then only its place is checked), or 0
     * @return how the field validated (see {@link HpackFieldValidator#lastTag()}), 0 if it was not validated
     */
    private int emit(AsciiString name, AsciiString value, int staticIndex, boolean staticValue, int tag)
            throws Http2Exception {
        listSize += name.length() + value.length() + HpackDynamicTable.ENTRY_OVERHEAD_BYTES;
        count++;
        if (malformedSection()) {
            // Already malformed (RFC 9113 §8.1.1): the section is refused as such, however many fields follow.
            // Nothing more is kept, and the block's size is bounded by the frame reader, so the fields left are
            // decoded only to keep the HPACK context in step.
            return 0;
        }
        if (listSize > connectionErrorListSize) {
            throw listTooLarge();
        }
        if (count > connectionErrorCount) {
            throw connectionError(Http2Error.ENHANCE_YOUR_CALM, "header section of stream " + streamId
                    + " holds more than " + connectionErrorCount + " fields (stream limit " + maxCount + ")");
        }
        if (streamFailure != null) {
            return 0;
        }
        if (listSize > maxListSize) {
            streamFailure = new Http2HeaderListSizeException(streamId, listSize, maxListSize,
                    "header list of stream " + streamId + " is larger than " + maxListSize
                    + " bytes (SETTINGS_MAX_HEADER_LIST_SIZE, name + value + 32 per field)");
            return 0;
        }
        if (count > maxCount) {
            streamFailure = new Http2HeaderListSizeException(streamId, count, maxCount,
                    "header section of stream " + streamId + " holds more than " + maxCount + " fields");
            return 0;
        }
        if (validator == null) {
            out.add(name, value);
            return 0;
        }
        String problem = tag != 0 ? validator.validateTagged(name, tag)
                : validator.validate(name, value, staticIndex, staticValue);
        if (problem != null) {
            streamFailure = streamError(streamId, Http2Error.PROTOCOL_ERROR, "malformed header section on stream "
                    + streamId + ": " + problem);
            return 0;
        }
        out.add(name, value);
        return tag != 0 ? tag : validator.lastTag();
    }

    /** Whether the section being decoded is already malformed (not merely too large). */
    private boolean malformedSection() {
        return streamFailure != null && !(streamFailure instanceof Http2HeaderListSizeException);
    }

    /**
     * The decoded bytes the next string literal may have: what the header list can still take before the
     * connection-error limit, less {@code nameLength}; unbounded once the section is malformed, since nothing is
     * kept any more and the block itself is bounded by the frame reader.
     */
    private long literalBudget(int nameLength) {
        return malformedSection() ? Long.MAX_VALUE
                : connectionErrorListSize - listSize - HpackDynamicTable.ENTRY_OVERHEAD_BYTES - nameLength;
    }

    private Http2Exception listTooLarge() {
        return connectionError(Http2Error.ENHANCE_YOUR_CALM, "header list of stream " + streamId + " reached "
                + listSize + " bytes, above the connection-error limit " + connectionErrorListSize
                + " (stream limit " + maxListSize + ")");
    }

    /**
     * Reads a string literal (RFC 7541 §5.2) of at most {@code budget} decoded bytes, which the header list can
     * still take before the connection-error limit: a longer one is rejected before anything is allocated.
     */
    private AsciiString readString(long budget) throws Http2Exception {
        if (pos == end) {
            throw truncated("string literal");
        }
        boolean huffmanCoded = (src[pos] & HUFFMAN) != 0;
        int length = decodeInt(STRING_LENGTH_PREFIX_BITS);
        if (length > end - pos) {
            throw truncated("string literal of " + length + " bytes");
        }
        if (!huffmanCoded) {
            if (length > budget) {
                listSize += length;
                throw listTooLarge();
            }
            AsciiString s = length == 0 ? AsciiString.EMPTY_STRING : new AsciiString(src, pos, length, true);
            pos += length;
            return s;
        }
        // Every Huffman code is at least 5 bits long, which bounds the output before decoding.
        int bound = (int) ((long) length * Byte.SIZE / MIN_HUFFMAN_CODE_BITS);
        int maxOut = (int) Math.max(0, Math.min(bound, budget));
        if (huffman.length < maxOut) {
            huffman = new byte[Math.max(maxOut, huffman.length * 2)];
        }
        int n = HpackHuffmanDecoder.decode(src, pos, length, huffman, maxOut);
        if (n == HpackHuffmanDecoder.TOO_LONG) {
            listSize += maxOut + 1;
            throw listTooLarge();
        }
        pos += length;
        return n == 0 ? AsciiString.EMPTY_STRING : new AsciiString(huffman, 0, n, true);
    }

    /** Reads an integer with an N-bit prefix (RFC 7541 §5.1), bounded to {@link Integer#MAX_VALUE}. */
    private int decodeInt(int prefixBits) throws Http2Exception {
        int mask = (1 << prefixBits) - 1;
        int value = src[pos++] & mask;
        if (value < mask) {
            return value;
        }
        for (int shift = 0; shift <= MAX_CONTINUATION_SHIFT; shift += CONTINUATION_BITS) {
            if (pos == end) {
                throw truncated("integer");
            }
            int b = src[pos++];
            long v = value + ((long) (b & CONTINUATION_VALUE_MASK) << shift);
            if (v > Integer.MAX_VALUE) {
                throw overflow();
            }
            value = (int) v;
            if ((b & CONTINUATION) == 0) {
                return value;
            }
        }
        throw overflow();
    }

    private static Http2Exception overflow() {
        return connectionError(Http2Error.COMPRESSION_ERROR, "HPACK: integer above " + Integer.MAX_VALUE
                + " (RFC 7541 §5.1)");
    }

    private static Http2Exception truncated(String what) {
        return connectionError(Http2Error.COMPRESSION_ERROR, "HPACK: header block ends inside a " + what
                + " (RFC 7541 §5)");
    }

    private static long saturatedMultiply(long a, int b) {
        return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }
}
