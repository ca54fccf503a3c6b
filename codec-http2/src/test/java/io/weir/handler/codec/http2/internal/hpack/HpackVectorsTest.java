package io.weir.handler.codec.http2.internal.hpack;

import static io.weir.handler.codec.http2.internal.hpack.HpackTestSupport.decode;
import static io.weir.handler.codec.http2.internal.hpack.HpackTestSupport.encode;
import static io.weir.handler.codec.http2.internal.hpack.HpackTestSupport.entries;
import static io.weir.handler.codec.http2.internal.hpack.HpackTestSupport.fields;
import static io.weir.handler.codec.http2.internal.hpack.HpackTestSupport.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBufUtil;
import io.weir.handler.codec.http2.Http2HeaderSensitivity;
import io.weir.handler.codec.http2.Http2Headers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Replays the RFC 7541 Appendix C vectors kept under {@code src/test/resources/.../hpack/rfc7541/} (format in the
 * README there) through the decoder (from heap and from direct buffers) and the encoder: the decoder must produce
 * the RFC's fields and dynamic table, the encoder the RFC's bytes where it makes the RFC's choices, and otherwise
 * bytes that decode back to the same fields.
 */
class HpackVectorsTest {

    @ParameterizedTest
    @ValueSource(strings = {"c2_1", "c2_2", "c2_3", "c2_4", "c3", "c4", "c5", "c6"})
    void decoderMatchesRfc(String file) throws Exception {
        for (boolean direct : new boolean[] {false, true}) {
            Connection c = Connection.load(file);
            HpackDecoder decoder = c.decoder();
            for (Block b : c.blocks) {
                Http2Headers headers = decode(decoder, b.input(), false, direct);
                assertThat(fields(headers)).as(b.id).containsExactlyElementsOf(b.headers);
                assertThat(entries(decoder.table())).as(b.id + " table").containsExactlyElementsOf(b.entries);
                assertThat(decoder.table().size()).as(b.id + " table size").isEqualTo(b.size);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"c2_1", "c2_2", "c2_3", "c2_4", "c3", "c4", "c5", "c6"})
    void encoderMatchesRfc(String file) throws Exception {
        Connection c = Connection.load(file);
        HpackEncoder encoder = new HpackEncoder().huffman(c.huffman);
        Set<String> sensitive = c.sensitive;
        encoder.sensitivity((name, value) -> sensitive.contains(name.toString())
                || Http2HeaderSensitivity.DEFAULT.isSensitive(name, value));
        if (c.tableSize != HpackDynamicTable.DEFAULT_CAPACITY_BYTES) {
            encoder.remoteMaxHeaderTableSize(c.tableSize);
        }
        HpackDecoder peer = c.decoder();
        for (Block b : c.blocks) {
            Http2Headers headers = new Http2Headers();
            for (String field : b.headers) {
                int colon = field.indexOf(": ", 1);
                headers.add(field.substring(0, colon), field.substring(colon + 2));
            }
            byte[] encoded = encode(encoder, headers);
            if (b.exact) {
                assertThat(ByteBufUtil.hexDump(encoded)).as(b.id).isEqualTo(ByteBufUtil.hexDump(b.input()));
                assertThat(entries(encoder.table())).as(b.id + " table").containsExactlyElementsOf(b.entries);
                assertThat(encoder.table().size()).as(b.id + " table size").isEqualTo(b.size);
            }
            assertThat(fields(decode(peer, encoded, false, false))).as(b.id + " round trip")
                    .containsExactlyElementsOf(b.headers);
        }
    }

    private static final class Block {
        final String id;
        byte[] prefix = new byte[0];
        final StringBuilder hex = new StringBuilder();
        final List<String> headers = new ArrayList<>();
        final List<String> entries = new ArrayList<>();
        long size = -1;
        boolean exact;

        Block(String id) {
            this.id = id;
        }

        byte[] input() {
            byte[] body = hex(hex.toString());
            byte[] all = new byte[prefix.length + body.length];
            System.arraycopy(prefix, 0, all, 0, prefix.length);
            System.arraycopy(body, 0, all, prefix.length, body.length);
            return all;
        }
    }

    private static final class Connection {
        long tableSize = HpackDynamicTable.DEFAULT_CAPACITY_BYTES;
        boolean huffman = true;
        boolean validate = true;
        boolean server = true;
        final Set<String> sensitive = new HashSet<>();
        final List<Block> blocks = new ArrayList<>();

        HpackDecoder decoder() {
            HpackDecoder decoder = new HpackDecoder(server, validate);
            decoder.maxHeaderTableSize(tableSize);
            return decoder;
        }

        static Connection load(String name) {
            String path = "rfc7541/" + name + ".txt";
            Connection c = new Connection();
            Block block = null;
            try (InputStream in = HpackVectorsTest.class.getResourceAsStream(path)) {
                if (in == null) {
                    throw new IllegalStateException("missing test resource " + path);
                }
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    if (line.isBlank() || line.startsWith("#")) {
                        continue;
                    }
                    int sp = line.indexOf(' ');
                    String key = sp < 0 ? line : line.substring(0, sp);
                    String arg = sp < 0 ? "" : line.substring(sp + 1);
                    switch (key) {
                        case "table-size" -> c.tableSize = Long.parseLong(arg);
                        case "huffman" -> c.huffman = arg.equals("on");
                        case "validate" -> c.validate = arg.equals("on");
                        case "side" -> c.server = arg.equals("server");
                        case "sensitive" -> c.sensitive.add(arg);
                        case "block" -> {
                            block = new Block(arg);
                            c.blocks.add(block);
                        }
                        case "prefix" -> block.prefix = hex(arg);
                        case "hex" -> block.hex.append(arg);
                        case "header", "entry" -> {
                            int nameEnd = arg.indexOf(' ');
                            String field = nameEnd < 0 ? arg + ": "
                                    : arg.substring(0, nameEnd) + ": " + arg.substring(nameEnd + 1);
                            (key.equals("header") ? block.headers : block.entries).add(field);
                        }
                        case "size" -> block.size = Long.parseLong(arg);
                        case "encoder" -> block.exact = arg.equals("exact");
                        default -> throw new IllegalStateException(path + ": unknown directive " + line);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return c;
        }
    }
}
