package io.weir.testsuite.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelProgressivePromise;
import io.weir.channel.DefaultFileRegion;
import io.weir.testsuite.transport.AbstractTransportScenarioTest.Collector;
import io.weir.testsuite.transport.AbstractTransportScenarioTest.EchoHandler;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The file-region scenario of the io_uring stream channels (TCP and Unix domain), which splice regions: two regions
 * (a slice from the middle of one file, the whole of another) flushed at once between buffers come back from an echo
 * server in write order and byte for byte, with the progress of the first region reported up to its count.
 */
final class IoUringFileRegionScenario {
    private static final int FILE_BYTES = 3 * 1024 * 1024 + 77;
    private static final int SLICE_OFFSET = 512 * 1024 + 3;
    private static final int SLICE_BYTES = 2 * 1024 * 1024 + 5;

    private IoUringFileRegionScenario() {
    }

    static void regionsBetweenBuffersArriveInOrder(AbstractTransportScenarioTest test, Path dir) throws Exception {
        byte[] first = AbstractTransportScenarioTest.randomBytes(FILE_BYTES, 11);
        byte[] second = AbstractTransportScenarioTest.randomBytes(FILE_BYTES / 3, 12);
        Path firstFile = Files.write(dir.resolve("first.bin"), first);
        Path secondFile = Files.write(dir.resolve("second.bin"), second);
        byte[] head = {1, 2, 3};
        byte[] middle = {4, 5};
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write(head);
        expected.write(first, SLICE_OFFSET, SLICE_BYTES);
        expected.write(middle);
        expected.write(second);

        Channel server = test.bind(test.server(new EchoHandler()));
        Collector collector = new Collector(expected.size());
        Channel client = test.connect(test.client(collector), server.localAddress());
        DefaultFileRegion slice = new DefaultFileRegion(firstFile.toFile(), SLICE_OFFSET, SLICE_BYTES);
        DefaultFileRegion whole = new DefaultFileRegion(secondFile.toFile(), 0, second.length);
        AtomicLong progress = new AtomicLong();
        ChannelProgressivePromise slicePromise = client.newProgressivePromise();
        slicePromise.addListener(new io.weir.channel.ChannelProgressiveFutureListener() {
            @Override
            public void operationProgressed(io.weir.channel.ChannelProgressiveFuture future, long now, long total) {
                progress.set(now);
            }

            @Override
            public void operationComplete(ChannelFuture future) {
            }
        });

        client.write(Unpooled.wrappedBuffer(head));
        client.write(slice, slicePromise);
        client.write(Unpooled.wrappedBuffer(middle));
        ChannelFuture last = client.writeAndFlush(whole);

        assertThat(collector.done.get(AbstractTransportScenarioTest.TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isEqualTo(expected.toByteArray());
        last.get(AbstractTransportScenarioTest.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(slicePromise.isSuccess()).isTrue();
        assertThat(progress.get()).isEqualTo(SLICE_BYTES);
        assertThat(slice.refCnt()).as("released once sent").isZero();
        assertThat(whole.refCnt()).isZero();
    }
}
