package io.weir.channel.unix.internal;

import io.weir.channel.ChannelException;
import io.weir.channel.EventLoop;
import io.weir.channel.IoHandle;
import io.weir.channel.IoOps;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.net.ProtocolFamily;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * What a native transport tells the shared channels about itself: its handle type and how to make a channel's
 * handle, its {@link IoOps} for each interest combination, and how to make sure its library is loaded. One shared
 * instance per transport; immutable and thread-safe. Not for applications.
 */
public final class UnixTransport {
    /** Interest in read readiness ({@code EPOLLIN}, {@code EVFILT_READ}). */
    public static final int INTEREST_READ = 1;
    /** Interest in write readiness ({@code EPOLLOUT}, {@code EVFILT_WRITE}). */
    public static final int INTEREST_WRITE = 1 << 1;
    /** Interest in the peer's FIN where the API needs asking for it ({@code EPOLLRDHUP}; kqueue's comes with read). */
    public static final int INTEREST_PEER_FIN = 1 << 2;
    /** How many interest combinations a transport's table maps: every subset of the three. */
    public static final int INTEREST_COMBINATIONS = 8;

    private final String factoryHint;
    private final Class<? extends IoHandle> handleType;
    private final IoOps[] opsByInterest;
    private final Function<Readiness, ? extends IoHandle> handleFactory;
    private final Runnable ensureAvailability;

    /**
     * @param factoryHint the I/O handler factory a compatible loop runs, for messages
     *        ({@code "EpollIoHandler.newFactory()"})
     * @param handleType the handles the transport's I/O handler takes; {@code handleFactory} makes them
     * @param opsForInterest the {@link IoOps} for each combination of the {@code INTEREST_*} bits; asked once per
     *        combination, here
     * @param handleFactory a channel's handle, which decodes the transport's events for the channel's
     *        {@link Readiness}
     * @param ensureAvailability throws {@link UnsatisfiedLinkError} if the transport's library is not loaded
     */
    public UnixTransport(String factoryHint, Class<? extends IoHandle> handleType, IntFunction<IoOps> opsForInterest,
                         Function<Readiness, ? extends IoHandle> handleFactory, Runnable ensureAvailability) {
        this.factoryHint = Objects.requireNonNull(factoryHint, "factoryHint");
        this.handleType = Objects.requireNonNull(handleType, "handleType");
        this.opsByInterest = new IoOps[INTEREST_COMBINATIONS];
        for (int interest = 0; interest < INTEREST_COMBINATIONS; interest++) {
            opsByInterest[interest] = Objects.requireNonNull(opsForInterest.apply(interest), "ops");
        }
        this.handleFactory = Objects.requireNonNull(handleFactory, "handleFactory");
        this.ensureAvailability = Objects.requireNonNull(ensureAvailability, "ensureAvailability");
    }

    /**
     * Opens a TCP socket (IPv6 dual-stack where the kernel supports it).
     *
     * @throws UnsatisfiedLinkError if the transport is not available
     * @throws ChannelException if the socket cannot be opened
     */
    public Socket openStreamSocket() {
        ensureAvailability.run();
        try {
            return Socket.newSocketStream();
        } catch (IOException e) {
            throw new ChannelException("failed to open a socket", e);
        }
    }

    /** Opens a Unix domain stream socket; throws as {@link #openStreamSocket()}. */
    public Socket openDomainSocket() {
        ensureAvailability.run();
        try {
            return Socket.newSocketDomain();
        } catch (IOException e) {
            throw new ChannelException("failed to open a domain socket", e);
        }
    }

    /** Opens a UDP socket of {@code family} as {@link DatagramChannels#open}; throws as {@link #openStreamSocket()}. */
    public Socket openDatagramSocket(ProtocolFamily family) {
        ensureAvailability.run();
        return DatagramChannels.open(family);
    }

    /**
     * Returns {@code eventLoop} if it runs this transport's I/O handler; otherwise closes {@code socket} (so a
     * refused constructor leaks no descriptor) and throws.
     *
     * @throws NullPointerException if {@code eventLoop} is null
     * @throws IllegalArgumentException if {@code eventLoop} runs another I/O handler
     */
    EventLoop checkCompatible(EventLoop eventLoop, Socket socket) {
        RuntimeException failure;
        if (eventLoop == null) {
            failure = new NullPointerException("eventLoop");
        } else if (!eventLoop.isCompatible(handleType)) {
            failure = new IllegalArgumentException("incompatible event loop: " + eventLoop + " (this channel needs a"
                    + " loop of new MultiThreadIoEventLoopGroup(n, " + factoryHint + "))");
        } else {
            return eventLoop;
        }
        AbstractUnixChannel.closeAfterFailure(socket, failure);
        throw failure;
    }

    IoOps[] opsByInterest() {
        return opsByInterest;
    }

    IoHandle newHandle(Readiness readiness) {
        return Objects.requireNonNull(handleFactory.apply(readiness), "handle");
    }
}
