package io.weir.grpc.interop;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.BenchmarkServiceGrpc;
import io.grpc.testing.integration.Messages.Payload;
import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.Messages.SimpleResponse;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.grpc.WeirGrpcChannel;
import io.weir.server.Transports;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A load client for {@code grpc.testing.BenchmarkService} (microbench/grpc-client-compare): one connection with
 * {@code --concurrency} calls kept in flight through the async stub, on Weir's {@link WeirGrpcChannel} (one event
 * loop, listeners run on it) or on grpc-java's Netty channel (one event loop, direct executor), so the two clients
 * differ only in their gRPC and HTTP/2 layers. After {@code --warmup} seconds it measures for {@code --duration}
 * seconds and prints one line:
 *
 * <pre>
 * RESULT impl=weir case=unary-1KiB calls_per_s=41234.5 cpu_us_per_call=21.37 errors=0 skipped=0
 * </pre>
 *
 * <p>{@code cpu_us_per_call} is this process's CPU time (every thread: the loop, GC, the JIT) over the measured
 * window divided by the calls (ping-pong: the round trips) completed in it. Cases: {@code unary-0B},
 * {@code unary-1KiB} (UnaryCall), {@code pingpong-1KiB} (StreamingCall, one request and one response at a time on
 * each stream). Exits 1 if a call failed.
 *
 * <p>With {@code --rate}, calls start at that rate instead: an open loop, at most {@code --concurrency} in flight (a
 * call due while that many are is skipped; {@code skipped=} counts those of the measured window). A timer on the
 * connection's own event loop starts, every millisecond, the calls due by then, so the two clients do the same work
 * and their CPU per call compares like with like.
 *
 * <pre>
 * java -cp grpc-interop/target/weir-grpc-interop.jar io.weir.grpc.interop.BenchmarkClient --impl=weir \
 *     --server_port=50051 --case=unary-1KiB --concurrency=100 --duration=10 --warmup=5
 * </pre>
 */
public final class BenchmarkClient {
    /** The cases this client runs. */
    static final String[] CASES = {"unary-0B", "unary-1KiB", "pingpong-1KiB"};
    /** How long the calls in flight at the end may take to finish, in seconds. */
    private static final int DRAIN_TIMEOUT_SECONDS = 10;

    private final BenchmarkServiceGrpc.BenchmarkServiceStub stub;
    private final SimpleRequest request;
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicReference<Throwable> firstError = new AtomicReference<>();
    private volatile boolean stopping;
    private CountDownLatch finished;
    /** Open loop only: calls skipped because {@code --concurrency} were in flight. */
    private final AtomicLong skipped = new AtomicLong();

    private BenchmarkClient(ManagedChannel channel, int size) {
        this.stub = BenchmarkServiceGrpc.newStub(channel);
        this.request = SimpleRequest.newBuilder().setResponseSize(size)
                .setPayload(Payload.newBuilder().setBody(ByteString.copyFrom(new byte[size]))).build();
    }

    public static void main(String[] args) throws Exception {
        String impl;
        String host;
        int port;
        String benchCase;
        int concurrency;
        int duration;
        int warmup;
        int rate;
        try {
            InteropFlags flags = InteropFlags.parse(args);
            impl = flags.value("impl", "weir");
            host = flags.value("server_host", "127.0.0.1");
            port = flags.intValue("server_port", 50051);
            benchCase = flags.value("case", "unary-1KiB");
            concurrency = flags.intValue("concurrency", 100);
            duration = flags.intValue("duration", 10);
            warmup = flags.intValue("warmup", 5);
            rate = flags.intValue("rate", 0);
            flags.rejectUnknown();
            if (!impl.equals("weir") && !impl.equals("grpc-java")) {
                throw new IllegalArgumentException("--impl takes weir or grpc-java, not " + impl);
            }
            if (!java.util.List.of(CASES).contains(benchCase)) {
                throw new IllegalArgumentException("unknown --case " + benchCase + "; known: "
                        + String.join(", ", CASES));
            }
            if (concurrency < 1 || duration < 1 || warmup < 0 || rate < 0) {
                throw new IllegalArgumentException(
                        "--concurrency and --duration take at least 1, --warmup and --rate (0: closed loop) 0");
            }
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        AutoCloseable loop;
        ScheduledExecutorService timer;
        ManagedChannel channel;
        if (impl.equals("weir")) {
            EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, Transports.ioHandlerFactory());
            loop = () -> group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            timer = group;
            channel = WeirGrpcChannel.forAddress(host, port).eventLoopGroup(group)
                    .channelType(Transports.socketChannel(group)).build();
        } else {
            NettyChannelBuilder builder = NettyChannelBuilder.forAddress(host, port).usePlaintext().directExecutor();
            if (Epoll.isAvailable()) {
                EpollEventLoopGroup group = new EpollEventLoopGroup(1);
                builder.eventLoopGroup(group).channelType(EpollSocketChannel.class);
                loop = () -> group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
                timer = group;
            } else {
                NioEventLoopGroup group = new NioEventLoopGroup(1);
                builder.eventLoopGroup(group).channelType(NioSocketChannel.class);
                loop = () -> group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
                timer = group;
            }
            channel = builder.build();
        }
        int exit;
        try {
            BenchmarkClient client = new BenchmarkClient(channel, benchCase.endsWith("0B") ? 0 : 1024);
            exit = rate == 0 ? client.run(impl, benchCase, concurrency, warmup, duration)
                    : client.runAtRate(impl, benchCase, concurrency, warmup, duration, rate, timer);
        } finally {
            channel.shutdownNow().awaitTermination(DRAIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            loop.close();
        }
        System.exit(exit);
    }

    private int run(String impl, String benchCase, int concurrency, int warmup, int duration)
            throws InterruptedException {
        finished = new CountDownLatch(concurrency);
        boolean pingPong = benchCase.startsWith("pingpong");
        for (int i = 0; i < concurrency; i++) {
            if (pingPong) {
                new PingPong(null).start();
            } else {
                new Unary().next();
            }
        }
        return measure(impl, benchCase, warmup, duration);
    }

    /**
     * Open loop: {@code concurrency} ping-pong streams, or none for unary calls, then a timer on the loop that
     * starts each millisecond the calls due by then at {@code rate} per second.
     */
    private int runAtRate(String impl, String benchCase, int concurrency, int warmup, int duration, int rate,
                          ScheduledExecutorService timer) throws InterruptedException {
        boolean pingPong = benchCase.startsWith("pingpong");
        finished = new CountDownLatch(pingPong ? concurrency : 1);
        Paced paced = new Paced(pingPong, concurrency, rate);
        timer.execute(paced::openStreams);
        paced.tick = timer.scheduleAtFixedRate(paced::startDue, 1, 1, TimeUnit.MILLISECONDS);
        return measure(impl, benchCase, warmup, duration);
    }

    /** Sleeps through the warm-up and the measured window, stops the calls, prints the RESULT line. */
    private int measure(String impl, String benchCase, int warmup, int duration) throws InterruptedException {
        // The windows are measured in time, not in events: sleeping through them is the measurement.
        TimeUnit.SECONDS.sleep(warmup);
        long calls0 = completed.get();
        long skipped0 = skipped.get();
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        TimeUnit.SECONDS.sleep(duration);
        long calls1 = completed.get();
        long skipped1 = skipped.get();
        long cpu1 = processCpuNanos();
        long t1 = System.nanoTime();
        stopping = true;
        boolean drained = finished.await(DRAIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        long calls = calls1 - calls0;
        double perSecond = calls * 1e9 / (t1 - t0);
        double cpuPerCall = calls == 0 ? Double.NaN : (cpu1 - cpu0) / 1e3 / calls;
        System.out.println(String.format(Locale.ROOT,
                "RESULT impl=%s case=%s calls_per_s=%.1f cpu_us_per_call=%.2f errors=%d skipped=%d", impl,
                benchCase, perSecond, cpuPerCall, errors.get(), skipped1 - skipped0));
        Throwable error = firstError.get();
        if (error != null) {
            System.out.println("first error: " + error);
        }
        if (!drained) {
            System.out.println("calls still in flight " + DRAIN_TIMEOUT_SECONDS + " s after the end");
        }
        return error != null || !drained || calls == 0 ? 1 : 0;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private void failed(Throwable t) {
        errors.incrementAndGet();
        firstError.compareAndSet(null, t);
        finished.countDown();
    }

    /** One slot of unary calls: the next starts when the last one ends. */
    private final class Unary implements StreamObserver<SimpleResponse> {
        private boolean answered;

        void next() {
            answered = false;
            stub.unaryCall(request, this);
        }

        @Override
        public void onNext(SimpleResponse value) {
            answered = true;
        }

        @Override
        public void onError(Throwable t) {
            failed(t);
        }

        @Override
        public void onCompleted() {
            if (!answered) {
                failed(new IllegalStateException("UnaryCall completed without a response"));
                return;
            }
            completed.incrementAndGet();
            if (stopping) {
                finished.countDown();
            } else {
                next();
            }
        }
    }

    /**
     * One ping-pong stream: a request, its response, then the next request at once (closed loop) or when the timer
     * sends it ({@code paced}), until the end, then a half-close.
     */
    private final class PingPong implements ClientResponseObserver<SimpleRequest, SimpleResponse> {
        private final Paced paced;
        private ClientCallStreamObserver<SimpleRequest> requests;

        PingPong(Paced paced) {
            this.paced = paced;
        }

        void start() {
            stub.streamingCall(this);
            if (paced == null) {
                send();
            }
        }

        void send() {
            requests.onNext(request);
        }

        @Override
        public void beforeStart(ClientCallStreamObserver<SimpleRequest> requestStream) {
            requests = requestStream;
        }

        @Override
        public void onNext(SimpleResponse value) {
            completed.incrementAndGet();
            if (paced != null) {
                paced.ended(this);
            } else if (stopping) {
                requests.onCompleted();
            } else {
                send();
            }
        }

        @Override
        public void onError(Throwable t) {
            failed(t);
        }

        @Override
        public void onCompleted() {
            finished.countDown();
        }
    }

    /**
     * The open-loop calls, confined to the connection's event loop (the timer runs there, and both channels call
     * their listeners there): unary calls started as they fall due, or requests sent on idle ping-pong streams.
     */
    private final class Paced {
        private final boolean pingPong;
        private final int concurrency;
        private final int rate;
        private final ArrayDeque<PingPong> idle = new ArrayDeque<>();
        private long startNanos;
        private long started;
        private int inFlight;
        private boolean closed;
        ScheduledFuture<?> tick;

        Paced(boolean pingPong, int concurrency, int rate) {
            this.pingPong = pingPong;
            this.concurrency = concurrency;
            this.rate = rate;
        }

        void openStreams() {
            startNanos = System.nanoTime();
            if (pingPong) {
                for (int i = 0; i < concurrency; i++) {
                    PingPong stream = new PingPong(this);
                    stream.start();
                    idle.add(stream);
                }
            }
        }

        void startDue() {
            if (stopping) {
                stop();
                return;
            }
            long due = (System.nanoTime() - startNanos) * rate / 1_000_000_000L;
            for (; started < due; started++) {
                if (inFlight == concurrency) {
                    skipped.incrementAndGet();
                    continue;
                }
                inFlight++;
                if (pingPong) {
                    idle.poll().send();
                } else {
                    stub.unaryCall(request, new PacedUnary());
                }
            }
        }

        /** A call ended (answered or failed): once stopping and none is left, the run is over. */
        void ended(PingPong stream) {
            inFlight--;
            if (stream != null) {
                idle.add(stream);
            }
            if (stopping) {
                stop();
            }
        }

        private void stop() {
            tick.cancel(false);
            if (closed || inFlight > 0) {
                return;
            }
            closed = true;
            if (pingPong) {
                // Each stream's onCompleted counts finished down.
                for (PingPong stream : idle) {
                    stream.requests.onCompleted();
                }
            } else {
                finished.countDown();
            }
        }

        /** One paced unary call. */
        private final class PacedUnary implements StreamObserver<SimpleResponse> {
            private boolean answered;

            @Override
            public void onNext(SimpleResponse value) {
                answered = true;
            }

            @Override
            public void onError(Throwable t) {
                errors.incrementAndGet();
                firstError.compareAndSet(null, t);
                ended(null);
            }

            @Override
            public void onCompleted() {
                if (answered) {
                    completed.incrementAndGet();
                } else {
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, new IllegalStateException("UnaryCall completed without a response"));
                }
                ended(null);
            }
        }
    }
}
