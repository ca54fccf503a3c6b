package io.weir.microbench.codec;

import io.netty.handler.codec.NettyCodecOutputLists;
import io.weir.handler.codec.CodecOutputList;
import io.weir.microbench.util.AbstractMicrobenchmark;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;

/**
 * What a decoder does with its output list on every read: take one, add {@code size} messages, and give it back.
 * Weir's {@link CodecOutputList} (a per-thread pool in a FastThreadLocal) against Netty's package-private
 * {@code CodecOutputList} (reached through a bridge in Netty's package) and two JDK baselines: a new
 * {@link ArrayList} per call, and one reused ArrayList cleared after each call (the floor: no pool at all).
 *
 * <p>Each framework runs on its own FastThreadLocalThread, as its event loop would. 64 messages pass the
 * lists' initial capacity of 16, so that case includes growth (once per list for the pooled lists, which keep
 * their grown array; every call for a new ArrayList).
 */
public class CodecOutputListBenchmark extends AbstractMicrobenchmark {
    @Param({"1", "8", "64"})
    public int size;

    private final Object element = new Object();
    private final ArrayList<Object> reused = new ArrayList<>();

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public int weirAddRecycle() {
        CodecOutputList list = CodecOutputList.newInstance();
        Object e = element;
        for (int i = 0, n = size; i < n; i++) {
            list.add(e);
        }
        int s = list.size();
        list.recycle();
        return s;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public int nettyAddRecycle() {
        List<Object> list = NettyCodecOutputLists.newInstance();
        Object e = element;
        for (int i = 0, n = size; i < n; i++) {
            list.add(e);
        }
        int s = list.size();
        NettyCodecOutputLists.recycle(list);
        return s;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public int jdkNewArrayList() {
        ArrayList<Object> list = new ArrayList<>();
        Object e = element;
        for (int i = 0, n = size; i < n; i++) {
            list.add(e);
        }
        return list.size();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public int jdkReusedArrayList() {
        ArrayList<Object> list = reused;
        Object e = element;
        for (int i = 0, n = size; i < n; i++) {
            list.add(e);
        }
        int s = list.size();
        list.clear();
        return s;
    }
}
