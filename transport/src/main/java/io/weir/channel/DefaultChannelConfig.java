package io.weir.channel;

import io.weir.buffer.ByteBufAllocator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The options every channel has. Transport configs extend it: override {@link #getOption}, {@link #setOption}
 * and {@link #getOptions()} for their own options and delegate the rest to {@code super}. Values are kept in
 * volatile fields, so any thread may read and change them.
 */
public class DefaultChannelConfig implements ChannelConfig {
    /** Default {@link ChannelOption#CONNECT_TIMEOUT_MILLIS}. */
    public static final int DEFAULT_CONNECT_TIMEOUT_MILLIS = 30_000;
    /** Default {@link ChannelOption#WRITE_SPIN_COUNT}. */
    public static final int DEFAULT_WRITE_SPIN_COUNT = 16;
    /** Default {@link ChannelOption#MAX_MESSAGES_PER_READ} for byte streams. */
    public static final int DEFAULT_MAX_MESSAGES_PER_READ = 16;

    /** The channel this config belongs to. */
    protected final Channel channel;

    // Volatile, so that any thread may change an option; the constructor sets their first values with plain stores
    // instead (see there).
    private volatile ByteBufAllocator allocator;
    private volatile RecvByteBufAllocator rcvBufAllocator;
    private volatile MessageSizeEstimator msgSizeEstimator;
    private volatile WriteBufferWaterMark writeBufferWaterMark;
    private volatile int connectTimeoutMillis;
    private volatile int writeSpinCount;
    private volatile int maxMessagesPerRead;
    private volatile int autoRead;
    private volatile boolean autoClose;
    private volatile boolean allowHalfClosure;

    private static final VarHandle ALLOCATOR = field("allocator", ByteBufAllocator.class);
    private static final VarHandle RCVBUF_ALLOCATOR = field("rcvBufAllocator", RecvByteBufAllocator.class);
    private static final VarHandle MSG_SIZE_ESTIMATOR = field("msgSizeEstimator", MessageSizeEstimator.class);
    private static final VarHandle WRITE_BUFFER_WATER_MARK = field("writeBufferWaterMark", WriteBufferWaterMark.class);
    private static final VarHandle CONNECT_TIMEOUT_MILLIS = field("connectTimeoutMillis", int.class);
    private static final VarHandle WRITE_SPIN_COUNT = field("writeSpinCount", int.class);
    private static final VarHandle MAX_MESSAGES_PER_READ = field("maxMessagesPerRead", int.class);
    private static final VarHandle AUTO_READ = field("autoRead", int.class);
    private static final VarHandle AUTO_CLOSE = field("autoClose", boolean.class);

    /**
     * A config for {@code channel} with {@value #DEFAULT_MAX_MESSAGES_PER_READ} messages per read.
     *
     * @throws NullPointerException if {@code channel} is null
     */
    public DefaultChannelConfig(Channel channel) {
        this(channel, DEFAULT_MAX_MESSAGES_PER_READ);
    }

    /**
     * A config for {@code channel} whose read loops deliver at most {@code maxMessagesPerRead} messages by
     * default (server channels accept more connections per event than streams read chunks).
     *
     * @throws IllegalArgumentException if {@code maxMessagesPerRead} is not positive
     */
    public DefaultChannelConfig(Channel channel, int maxMessagesPerRead) {
        this(channel, maxMessagesPerRead, DefaultMessageSizeEstimator.DEFAULT);
    }

    /**
     * As {@link #DefaultChannelConfig(Channel, int)}, with {@code estimator} as the initial
     * {@link ChannelOption#MESSAGE_SIZE_ESTIMATOR}: for channels whose messages have a size of their own kind
     * (an HTTP/2 stream's frames count their flow-controlled bytes), without a volatile store to change it.
     *
     * @throws IllegalArgumentException if {@code maxMessagesPerRead} is not positive
     * @throws NullPointerException if {@code channel} or {@code estimator} is null
     */
    public DefaultChannelConfig(Channel channel, int maxMessagesPerRead, MessageSizeEstimator estimator) {
        this.channel = Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(estimator, "estimator");
        if (maxMessagesPerRead <= 0) {
            // MAX_MESSAGES_PER_READ.validate's words, without boxing and an interface call per config.
            ChannelOption.MAX_MESSAGES_PER_READ.validate(maxMessagesPerRead);
        }
        // Plain stores: a volatile store costs a fence, nine of them per config, and an HTTP/2 stream's channel
        // makes a config per request. Other threads still see these values: a config reaches them through its
        // channel, and the final field written above makes this constructor end with a release, which orders
        // these stores before the config's publication.
        ALLOCATOR.set(this, ByteBufAllocator.DEFAULT);
        RCVBUF_ALLOCATOR.set(this, AdaptiveRecvByteBufAllocator.DEFAULT);
        MSG_SIZE_ESTIMATOR.set(this, estimator);
        WRITE_BUFFER_WATER_MARK.set(this, WriteBufferWaterMark.DEFAULT);
        CONNECT_TIMEOUT_MILLIS.set(this, DEFAULT_CONNECT_TIMEOUT_MILLIS);
        WRITE_SPIN_COUNT.set(this, DEFAULT_WRITE_SPIN_COUNT);
        MAX_MESSAGES_PER_READ.set(this, maxMessagesPerRead);
        AUTO_READ.set(this, 1);
        AUTO_CLOSE.set(this, true);
    }

    private static VarHandle field(String name, Class<?> type) {
        try {
            return MethodHandles.lookup().findVarHandle(DefaultChannelConfig.class, name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        return getOptions(new IdentityHashMap<>(), ChannelOption.CONNECT_TIMEOUT_MILLIS,
                ChannelOption.MAX_MESSAGES_PER_READ, ChannelOption.WRITE_SPIN_COUNT, ChannelOption.ALLOCATOR,
                ChannelOption.AUTO_READ, ChannelOption.AUTO_CLOSE, ChannelOption.RCVBUF_ALLOCATOR,
                ChannelOption.WRITE_BUFFER_WATER_MARK, ChannelOption.MESSAGE_SIZE_ESTIMATOR,
                ChannelOption.ALLOW_HALF_CLOSURE);
    }

    /** Adds each of {@code options} with its current value to {@code result}; for subclasses' {@link #getOptions()}. */
    protected Map<ChannelOption<?>, Object> getOptions(Map<ChannelOption<?>, Object> result,
                                                      ChannelOption<?>... options) {
        for (ChannelOption<?> option : options) {
            result.put(option, getOption(option));
        }
        return result;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    @Override
    public boolean setOptions(Map<ChannelOption<?>, ?> options) {
        Objects.requireNonNull(options, "options");
        boolean all = true;
        for (Map.Entry<ChannelOption<?>, ?> e : options.entrySet()) {
            if (!setOption((ChannelOption) e.getKey(), e.getValue())) {
                all = false;
            }
        }
        return all;
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T getOption(ChannelOption<T> option) {
        Objects.requireNonNull(option, "option");
        Object value;
        if (option == ChannelOption.CONNECT_TIMEOUT_MILLIS) {
            value = getConnectTimeoutMillis();
        } else if (option == ChannelOption.MAX_MESSAGES_PER_READ) {
            value = getMaxMessagesPerRead();
        } else if (option == ChannelOption.WRITE_SPIN_COUNT) {
            value = getWriteSpinCount();
        } else if (option == ChannelOption.ALLOCATOR) {
            value = getAllocator();
        } else if (option == ChannelOption.RCVBUF_ALLOCATOR) {
            value = getRecvByteBufAllocator();
        } else if (option == ChannelOption.AUTO_READ) {
            value = isAutoRead();
        } else if (option == ChannelOption.AUTO_CLOSE) {
            value = isAutoClose();
        } else if (option == ChannelOption.ALLOW_HALF_CLOSURE) {
            value = isAllowHalfClosure();
        } else if (option == ChannelOption.WRITE_BUFFER_WATER_MARK) {
            value = getWriteBufferWaterMark();
        } else if (option == ChannelOption.MESSAGE_SIZE_ESTIMATOR) {
            value = getMessageSizeEstimator();
        } else {
            value = null;
        }
        return (T) value;
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        Objects.requireNonNull(option, "option");
        option.validate(value);
        if (option == ChannelOption.CONNECT_TIMEOUT_MILLIS) {
            setConnectTimeoutMillis((Integer) value);
        } else if (option == ChannelOption.MAX_MESSAGES_PER_READ) {
            setMaxMessagesPerRead((Integer) value);
        } else if (option == ChannelOption.WRITE_SPIN_COUNT) {
            setWriteSpinCount((Integer) value);
        } else if (option == ChannelOption.ALLOCATOR) {
            setAllocator((ByteBufAllocator) value);
        } else if (option == ChannelOption.RCVBUF_ALLOCATOR) {
            setRecvByteBufAllocator((RecvByteBufAllocator) value);
        } else if (option == ChannelOption.AUTO_READ) {
            setAutoRead((Boolean) value);
        } else if (option == ChannelOption.AUTO_CLOSE) {
            setAutoClose((Boolean) value);
        } else if (option == ChannelOption.ALLOW_HALF_CLOSURE) {
            setAllowHalfClosure((Boolean) value);
        } else if (option == ChannelOption.WRITE_BUFFER_WATER_MARK) {
            setWriteBufferWaterMark((WriteBufferWaterMark) value);
        } else if (option == ChannelOption.MESSAGE_SIZE_ESTIMATOR) {
            setMessageSizeEstimator((MessageSizeEstimator) value);
        } else {
            return false;
        }
        return true;
    }

    @Override
    public int getConnectTimeoutMillis() {
        return connectTimeoutMillis;
    }

    @Override
    public ChannelConfig setConnectTimeoutMillis(int connectTimeoutMillis) {
        ChannelOption.CONNECT_TIMEOUT_MILLIS.validate(connectTimeoutMillis);
        this.connectTimeoutMillis = connectTimeoutMillis;
        return this;
    }

    @Override
    public int getMaxMessagesPerRead() {
        return maxMessagesPerRead;
    }

    @Override
    public ChannelConfig setMaxMessagesPerRead(int maxMessagesPerRead) {
        ChannelOption.MAX_MESSAGES_PER_READ.validate(maxMessagesPerRead);
        this.maxMessagesPerRead = maxMessagesPerRead;
        return this;
    }

    @Override
    public int getWriteSpinCount() {
        return writeSpinCount;
    }

    @Override
    public ChannelConfig setWriteSpinCount(int writeSpinCount) {
        ChannelOption.WRITE_SPIN_COUNT.validate(writeSpinCount);
        this.writeSpinCount = writeSpinCount;
        return this;
    }

    @Override
    public ByteBufAllocator getAllocator() {
        return allocator;
    }

    @Override
    public ChannelConfig setAllocator(ByteBufAllocator allocator) {
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        return this;
    }

    @Override
    public RecvByteBufAllocator getRecvByteBufAllocator() {
        return rcvBufAllocator;
    }

    @Override
    public ChannelConfig setRecvByteBufAllocator(RecvByteBufAllocator allocator) {
        this.rcvBufAllocator = Objects.requireNonNull(allocator, "allocator");
        return this;
    }

    @Override
    public boolean isAutoRead() {
        return autoRead == 1;
    }

    @Override
    public ChannelConfig setAutoRead(boolean autoRead) {
        boolean wasAutoRead = (int) AUTO_READ.getAndSet(this, autoRead ? 1 : 0) == 1;
        if (autoRead && !wasAutoRead) {
            channel.read();
        } else if (!autoRead && wasAutoRead) {
            autoReadCleared();
        }
        return this;
    }

    /**
     * Called when auto-read was just turned off, on the thread that turned it off; transports stop watching
     * for read readiness here (on their event loop).
     */
    protected void autoReadCleared() {
    }

    @Override
    public boolean isAutoClose() {
        return autoClose;
    }

    @Override
    public ChannelConfig setAutoClose(boolean autoClose) {
        this.autoClose = autoClose;
        return this;
    }

    @Override
    public boolean isAllowHalfClosure() {
        return allowHalfClosure;
    }

    @Override
    public ChannelConfig setAllowHalfClosure(boolean allowHalfClosure) {
        this.allowHalfClosure = allowHalfClosure;
        return this;
    }

    @Override
    public WriteBufferWaterMark getWriteBufferWaterMark() {
        return writeBufferWaterMark;
    }

    @Override
    public ChannelConfig setWriteBufferWaterMark(WriteBufferWaterMark writeBufferWaterMark) {
        this.writeBufferWaterMark = Objects.requireNonNull(writeBufferWaterMark, "writeBufferWaterMark");
        return this;
    }

    @Override
    public MessageSizeEstimator getMessageSizeEstimator() {
        return msgSizeEstimator;
    }

    @Override
    public ChannelConfig setMessageSizeEstimator(MessageSizeEstimator estimator) {
        this.msgSizeEstimator = Objects.requireNonNull(estimator, "estimator");
        return this;
    }
}
