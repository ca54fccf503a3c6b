package io.weir.handler.codec.http.multipart;

import static io.weir.handler.codec.http.multipart.PostBodies.countFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpDataTest {
    @TempDir
    Path tempDir;

    @Test
    void mixedAttributeMovesToDiskPastItsLimitAndReleaseDeletesTheFile() throws IOException {
        MixedAttribute attribute = new MixedAttribute("a", null, 0, 10, tempDir, false);
        attribute.addContent(Unpooled.copiedBuffer("0123456789", StandardCharsets.US_ASCII), false);
        assertThat(attribute.isInMemory()).isTrue();
        attribute.addContent(Unpooled.copiedBuffer("abc", StandardCharsets.US_ASCII), true);
        assertThat(attribute.isInMemory()).isFalse();
        assertThat(attribute.isCompleted()).isTrue();
        assertThat(attribute.getValue()).isEqualTo("0123456789abc");
        File file = attribute.getFile();
        assertThat(file).exists();
        assertThat(attribute.release()).isTrue();
        assertThat(file).doesNotExist();
        assertThat(countFiles(tempDir)).isZero();
    }

    @Test
    void memoryUploadRefusesContentBeyondItsMaxSizeAndReleasesTheBuffer() {
        MemoryFileUpload upload = new MemoryFileUpload("f", "x.bin", "application/octet-stream", null, null, 0);
        upload.setMaxSize(4);
        ByteBuf tooBig = Unpooled.copiedBuffer(new byte[5]);
        assertThatThrownBy(() -> upload.addContent(tooBig, true)).isInstanceOf(IOException.class)
                .hasMessageContaining("4");
        assertThat(tooBig.refCnt()).isZero();
        assertThatThrownBy(upload::getFile).isInstanceOf(IOException.class);
        upload.release();
    }

    @Test
    void diskUploadStreamsChunksAndRenamesOutOfCleanup() throws IOException {
        DiskFileUpload upload = new DiskFileUpload("f", "x.txt", "text/plain", null, null, 0, tempDir, true);
        upload.setContent(new ByteArrayInputStream("hello world".getBytes(StandardCharsets.US_ASCII)));
        assertThat(upload.isInMemory()).isFalse();
        ByteBuf first = upload.getChunk(5);
        ByteBuf rest = upload.getChunk(100);
        ByteBuf end = upload.getChunk(100);
        assertThat(first.toString(StandardCharsets.US_ASCII)).isEqualTo("hello");
        assertThat(rest.toString(StandardCharsets.US_ASCII)).isEqualTo(" world");
        assertThat(end.isReadable()).isFalse();
        first.release();
        rest.release();
        Path target = tempDir.resolve("kept.txt");
        assertThat(upload.renameTo(target.toFile())).isTrue();
        upload.release();
        assertThat(Files.readString(target)).isEqualTo("hello world");
    }

    @Test
    void userFileGivenToADiskItemIsNeverDeleted() throws IOException {
        Path mine = Files.writeString(tempDir.resolve("mine.txt"), "precious");
        DiskAttribute attribute = new DiskAttribute("a", null, 0, null, false);
        attribute.setContent(mine.toFile());
        assertThat(attribute.getValue()).isEqualTo("precious");
        attribute.release();
        assertThat(mine).exists();
    }

    @Test
    void factoryCleansEveryItemOfARequest() throws IOException {
        DefaultHttpDataFactory factory = new DefaultHttpDataFactory(DefaultHttpDataFactory.Mode.DISK)
                .setBaseDirectory(tempDir);
        var request = PostBodies.post("text/plain");
        Attribute a = factory.createAttribute(request, "a", "value");
        FileUpload f = factory.createFileUpload(request, "f", "f.bin", "application/octet-stream", null, null, 0);
        f.addContent(Unpooled.copiedBuffer(new byte[100]), true);
        assertThat(countFiles(tempDir)).isEqualTo(2);
        factory.cleanRequestHttpData(request);
        assertThat(countFiles(tempDir)).isZero();
        assertThat(a.length()).isZero();
        a.release();
        f.release();
    }

    /** 300 KB: past the first array's doublings and across several 64 KiB arrays. */
    private static final int MANY_PIECES_BYTES = 300_000;

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /**
     * Adds {@code content} in pieces of uneven sizes (1 byte to 100 KB, so some cross an array edge and one is
     * larger than an array), every third piece from a direct buffer, none marked last.
     */
    private static void addInPieces(HttpData data, byte[] content, int from, int to) throws IOException {
        int[] sizes = {1, 63, 64, 65, 777, 4096, 100_000, 9, 65_536, 12_345};
        int i = from;
        for (int k = 0; i < to; k++) {
            int n = Math.min(sizes[k % sizes.length], to - i);
            ByteBuf piece = k % 3 == 2 ? Unpooled.directBuffer(n).writeBytes(content, i, n)
                    : Unpooled.copiedBuffer(content, i, n);
            data.addContent(piece, false);
            i += n;
        }
    }

    private static byte[] readByChunks(HttpData data, int chunkBytes) throws IOException {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        for (ByteBuf c; (c = data.getChunk(chunkBytes)).isReadable(); ) {
            byte[] b = new byte[c.readableBytes()];
            c.readBytes(b);
            c.release();
            all.write(b, 0, b.length);
        }
        return all.toByteArray();
    }

    @Test
    void memoryItemAssembledFromManyPiecesReadsBackIdenticallyEveryWay() throws IOException {
        byte[] content = randomBytes(MANY_PIECES_BYTES, 1);
        MemoryFileUpload upload = new MemoryFileUpload("f", "x.bin", "application/octet-stream", null, null, 0);
        try {
            addInPieces(upload, content, 0, content.length);
            upload.addContent(Unpooled.EMPTY_BUFFER, true);
            assertThat(upload.length()).isEqualTo(content.length);
            assertThat(upload.isInMemory()).isTrue();
            assertThat(upload.get()).isEqualTo(content);
            ByteBuf whole = upload.getByteBuf();
            try {
                assertThat(io.weir.buffer.ByteBufUtil.getBytes(whole)).isEqualTo(content);
            } finally {
                whole.release();
            }
            // 7777 does not divide 64 KiB, so chunks straddle the edges between arrays.
            assertThat(readByChunks(upload, 7777)).isEqualTo(content);
            assertThat(readByChunks(upload, 1 << 20)).as("reading starts over after the end").isEqualTo(content);
            assertThat(upload.getString(StandardCharsets.ISO_8859_1))
                    .isEqualTo(new String(content, StandardCharsets.ISO_8859_1));
            assertThat(readByChunks(upload, 65_536)).as("after being joined for the String").isEqualTo(content);
            File dest = tempDir.resolve("moved.bin").toFile();
            assertThat(upload.renameTo(dest)).isTrue();
            assertThat(Files.readAllBytes(dest.toPath())).isEqualTo(content);
        } finally {
            upload.release();
        }
    }

    @Test
    void memoryItemKeepsGrowingCorrectlyAfterBeingJoinedForAString() throws IOException {
        byte[] content = randomBytes(MANY_PIECES_BYTES, 2);
        MemoryAttribute attribute = new MemoryAttribute("a", StandardCharsets.ISO_8859_1, 0);
        try {
            addInPieces(attribute, content, 0, 150_000);
            assertThat(attribute.getValue()).isEqualTo(new String(content, 0, 150_000, StandardCharsets.ISO_8859_1));
            addInPieces(attribute, content, 150_000, content.length);
            attribute.addContent(Unpooled.EMPTY_BUFFER, true);
            assertThat(attribute.get()).isEqualTo(content);
            assertThat(readByChunks(attribute, 50_000)).isEqualTo(content);
        } finally {
            attribute.release();
        }
    }

    @Test
    void mixedUploadMovingToDiskAtItsThresholdKeepsEveryByteInOrder() throws IOException {
        byte[] content = randomBytes(MANY_PIECES_BYTES, 3);
        // The threshold falls inside the fourth 64 KiB array and inside a piece.
        MixedFileUpload upload = new MixedFileUpload("f", "x.bin", "application/octet-stream", null, null, 0,
                200_000, tempDir, false);
        File file;
        try {
            addInPieces(upload, content, 0, 200_000);
            assertThat(upload.isInMemory()).isTrue();
            addInPieces(upload, content, 200_000, content.length);
            upload.addContent(Unpooled.EMPTY_BUFFER, true);
            assertThat(upload.isInMemory()).isFalse();
            file = upload.getFile();
            assertThat(Files.readAllBytes(file.toPath())).isEqualTo(content);
            assertThat(upload.get()).isEqualTo(content);
            assertThat(readByChunks(upload, 7777)).isEqualTo(content);
        } finally {
            upload.release();
        }
        assertThat(file).doesNotExist();
        assertThat(countFiles(tempDir)).isZero();
    }

    @Test
    void releaseAfterPartialReadsFreesTheItemAndLeavesHandedOutChunksIntact() throws IOException {
        byte[] content = randomBytes(MANY_PIECES_BYTES, 4);
        MemoryFileUpload upload = new MemoryFileUpload("f", "x.bin", "application/octet-stream", null, null, 0);
        addInPieces(upload, content, 0, content.length);
        ByteBuf first = upload.getChunk(70_000);
        ByteBuf second = upload.getChunk(70_000);
        try {
            assertThat(upload.release()).isTrue();
            assertThat(upload.refCnt()).isZero();
            assertThat(upload.length()).isZero();
            // The chunks are copies the caller owns: freeing the item must not change them.
            assertThat(io.weir.buffer.ByteBufUtil.getBytes(first))
                    .isEqualTo(java.util.Arrays.copyOfRange(content, 0, 70_000));
            assertThat(io.weir.buffer.ByteBufUtil.getBytes(second))
                    .isEqualTo(java.util.Arrays.copyOfRange(content, 70_000, 140_000));
        } finally {
            first.release();
            second.release();
        }
    }

    @Test
    void memoryItemBeyondItsMaxSizeIsRefusedAndKeepsWhatItHad() throws IOException {
        byte[] content = randomBytes(MANY_PIECES_BYTES, 5);
        MemoryFileUpload upload = new MemoryFileUpload("f", "x.bin", "application/octet-stream", null, null, 0);
        upload.setMaxSize(200_000);
        try {
            upload.addContent(Unpooled.copiedBuffer(content, 0, 150_000), false);
            ByteBuf tooMuch = Unpooled.copiedBuffer(content, 150_000, 100_000);
            assertThatThrownBy(() -> upload.addContent(tooMuch, false))
                    .isInstanceOf(HttpDataSizeExceededException.class).hasMessageContaining("200000");
            assertThat(tooMuch.refCnt()).isZero();
            assertThat(upload.get()).isEqualTo(java.util.Arrays.copyOf(content, 150_000));
        } finally {
            upload.release();
        }
    }

    @Test
    void badArgumentsAreRefusedWithTheValue() {
        assertThatThrownBy(() -> new MixedAttribute("a", null, 0, -1, null, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> new HttpPostDecoderConfig().setMaxFields(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
        assertThatThrownBy(() -> new DefaultHttpDataFactory(-5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-5");
    }
}
