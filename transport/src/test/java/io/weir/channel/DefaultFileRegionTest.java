package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DefaultFileRegionTest {

    @Test
    void transfersExactlyTheRegionAndClosesTheFileOnRelease(@TempDir Path dir) throws Exception {
        File file = Files.write(dir.resolve("f"), "0123456789".getBytes()).toFile();
        DefaultFileRegion region = new DefaultFileRegion(file, 2, 5);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (WritableByteChannel target = Channels.newChannel(out)) {
            while (region.transferred() < region.count()) {
                region.transferTo(target, region.transferred());
            }
            assertThat(region.transferTo(target, region.count())).as("nothing left").isZero();
        }
        assertThat(out.toString()).isEqualTo("23456");
        assertThat(region.isOpen()).isTrue();
        assertThat(region.release()).isTrue();
        assertThat(region.isOpen()).isFalse();
    }

    @Test
    void aFileShorterThanTheRegionFailsInsteadOfSpinning(@TempDir Path dir) throws Exception {
        File file = Files.write(dir.resolve("f"), new byte[10]).toFile();
        DefaultFileRegion region = new DefaultFileRegion(new RandomAccessFile(file, "r").getChannel(), 5, 20);
        try (WritableByteChannel target = Channels.newChannel(new ByteArrayOutputStream())) {
            assertThat(region.transferTo(target, 0)).isEqualTo(5);
            assertThatThrownBy(() -> region.transferTo(target, region.transferred()))
                    .isInstanceOf(IOException.class).hasMessageContaining("shorter");
        } finally {
            region.release();
        }
    }

    @Test
    void badArgumentsAreRefusedWithTheirValue(@TempDir Path dir) throws Exception {
        File file = Files.write(dir.resolve("f"), new byte[4]).toFile();
        assertThatThrownBy(() -> new DefaultFileRegion(file, -1, 4)).hasMessageContaining("-1");
        assertThatThrownBy(() -> new DefaultFileRegion(file, 0, -2)).hasMessageContaining("-2");
        DefaultFileRegion region = new DefaultFileRegion(file, 0, 4);
        try (WritableByteChannel target = Channels.newChannel(new ByteArrayOutputStream())) {
            assertThatThrownBy(() -> region.transferTo(target, 5)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("5");
        } finally {
            region.release();
        }
        assertThatThrownBy(region::open).hasMessageContaining("released");
    }
}
