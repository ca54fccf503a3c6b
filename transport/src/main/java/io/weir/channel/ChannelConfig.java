package io.weir.channel;

import io.weir.buffer.ByteBufAllocator;
import java.util.Map;

/**
 * A channel's settings, typed through {@link ChannelOption}s. Transports extend the set (socket options
 * such as {@link ChannelOption#TCP_NODELAY} live in the socket channels' configs); an option a config does
 * not know is refused by {@link #setOption} with {@code false}. All methods are thread-safe; a change takes
 * effect on the channel's next operation that reads it.
 */
public interface ChannelConfig {

    /** Every option this config knows, with its current value. */
    Map<ChannelOption<?>, Object> getOptions();

    /**
     * Sets each option of {@code options} that this config knows.
     *
     * @return {@code true} if every option was known and set
     * @throws IllegalArgumentException if a value is invalid (options before it stay set)
     */
    boolean setOptions(Map<ChannelOption<?>, ?> options);

    /** The current value of {@code option}, or {@code null} if this config does not know it. */
    <T> T getOption(ChannelOption<T> option);

    /**
     * Sets {@code option} to {@code value} after {@linkplain ChannelOption#validate validating} it.
     *
     * @return {@code true} if set, {@code false} if this config does not know the option
     * @throws NullPointerException if {@code option} or {@code value} is null
     * @throws IllegalArgumentException if the value is out of the option's range
     */
    <T> boolean setOption(ChannelOption<T> option, T value);

    /** {@link ChannelOption#CONNECT_TIMEOUT_MILLIS}. */
    int getConnectTimeoutMillis();

    /** Sets {@link ChannelOption#CONNECT_TIMEOUT_MILLIS}; 0 disables the timeout. */
    ChannelConfig setConnectTimeoutMillis(int connectTimeoutMillis);

    /** {@link ChannelOption#MAX_MESSAGES_PER_READ}. */
    int getMaxMessagesPerRead();

    /** Sets {@link ChannelOption#MAX_MESSAGES_PER_READ}. */
    ChannelConfig setMaxMessagesPerRead(int maxMessagesPerRead);

    /** {@link ChannelOption#WRITE_SPIN_COUNT}. */
    int getWriteSpinCount();

    /** Sets {@link ChannelOption#WRITE_SPIN_COUNT}. */
    ChannelConfig setWriteSpinCount(int writeSpinCount);

    /** {@link ChannelOption#ALLOCATOR}. */
    ByteBufAllocator getAllocator();

    /** Sets {@link ChannelOption#ALLOCATOR}. */
    ChannelConfig setAllocator(ByteBufAllocator allocator);

    /** {@link ChannelOption#RCVBUF_ALLOCATOR}. */
    RecvByteBufAllocator getRecvByteBufAllocator();

    /** Sets {@link ChannelOption#RCVBUF_ALLOCATOR}; takes effect when the channel next creates its handle. */
    ChannelConfig setRecvByteBufAllocator(RecvByteBufAllocator allocator);

    /** {@link ChannelOption#AUTO_READ}. */
    boolean isAutoRead();

    /**
     * Sets {@link ChannelOption#AUTO_READ}. Turning it on calls {@link Channel#read()}; turning it off stops
     * reading after the current read loop.
     */
    ChannelConfig setAutoRead(boolean autoRead);

    /** {@link ChannelOption#AUTO_CLOSE}. */
    boolean isAutoClose();

    /** Sets {@link ChannelOption#AUTO_CLOSE}. */
    ChannelConfig setAutoClose(boolean autoClose);

    /** {@link ChannelOption#ALLOW_HALF_CLOSURE}; meaningful for {@link DuplexChannel}s only. */
    boolean isAllowHalfClosure();

    /** Sets {@link ChannelOption#ALLOW_HALF_CLOSURE}. */
    ChannelConfig setAllowHalfClosure(boolean allowHalfClosure);

    /** {@link ChannelOption#WRITE_BUFFER_WATER_MARK}. */
    WriteBufferWaterMark getWriteBufferWaterMark();

    /** Sets {@link ChannelOption#WRITE_BUFFER_WATER_MARK}. */
    ChannelConfig setWriteBufferWaterMark(WriteBufferWaterMark writeBufferWaterMark);

    /** {@link ChannelOption#MESSAGE_SIZE_ESTIMATOR}. */
    MessageSizeEstimator getMessageSizeEstimator();

    /** Sets {@link ChannelOption#MESSAGE_SIZE_ESTIMATOR}. */
    ChannelConfig setMessageSizeEstimator(MessageSizeEstimator estimator);
}
