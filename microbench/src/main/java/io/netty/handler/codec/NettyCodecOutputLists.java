package io.netty.handler.codec;

import java.util.List;

/**
 * Opens Netty's package-private {@code CodecOutputList} to {@code CodecOutputListBenchmark}. It lives in Netty's
 * package on purpose: a direct call costs what Netty's own decoders pay, where reflection would not. The
 * benchmark jar runs on the class path and Netty's jars are not sealed, so the split package is harmless there.
 */
public final class NettyCodecOutputLists {

    private NettyCodecOutputLists() {
    }

    /** {@code CodecOutputList.newInstance()}. */
    public static List<Object> newInstance() {
        return CodecOutputList.newInstance();
    }

    /** {@code CodecOutputList.recycle()} of a list from {@link #newInstance()}. */
    public static void recycle(List<Object> list) {
        ((CodecOutputList) list).recycle();
    }
}
