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
