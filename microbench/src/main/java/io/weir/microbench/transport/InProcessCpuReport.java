package io.weir.microbench.transport;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Not a timed benchmark: the in-process CPU figures the README quotes beside the epoll ping-pong and event-loop
 * burst rows, measured the same way for Weir and Netty 4.2, alternately for several rounds, each framework's loops
 * started fresh per round. Run it with {@code java --enable-native-access=ALL-UNNAMED -cp
 * microbench/target/microbenchmarks.jar io.weir.microbench.transport.InProcessCpuReport [rounds]}.
 *
 * <ul>
 *   <li><b>CPU per round trip</b>: {@value #ROUND_TRIPS} round trips of {@value #PING_PONG_BYTES} bytes between an
 *       epoll server loop and an epoll client loop (the shape of {@link EpollPingPongBenchmark}), after
 *       {@value #WARM_UP_ROUND_TRIPS} unmeasured ones; the process's CPU time (every thread, from the JVM's
 *       {@code OperatingSystemMXBean}, which Linux counts in 10 ms ticks: hence that many round trips, for a
 *       resolution of 0.2 us) over the measured ones, divided by their number. It counts what both loops
 *       spend, polling included, and what the waiting main thread spends (nothing: it blocks).</li>
 *   <li><b>execute() per 1,000 calls</b>: one producer hands bursts of {@value #BURST} tiny tasks to an idle epoll
 *       loop (the shape of {@link EpollEventLoopExecuteBenchmark}); the wall time of the producer's
 *       {@value #BURST} {@code execute} calls, median over {@value #BURSTS} bursts, and how many of the burst's
 *       tasks the loop had not run yet when the producer's last call returned (median).</li>
 * </ul>
 * Prints one line per framework and round, then the range over the rounds. Linux only (epoll).
 */
public final class InProcessCpuReport {
    static final int PING_PONG_BYTES = 64;
    static final int ROUND_TRIPS = 50_000;
    static final int WARM_UP_ROUND_TRIPS = 20_000;
    static final int BURST = 1_000;
    static final int BURSTS = 2_000;
    static final int DEFAULT_ROUNDS = 5;

    private InProcessCpuReport() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_ROUNDS;
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds: " + rounds + " (expected: >= 1)");
        }
        io.weir.channel.epoll.Epoll.ensureAvailability();
        io.netty.channel.epoll.Epoll.ensureAvailability();
        List<Double> weirCpu = new ArrayList<>();
        List<Double> nettyCpu = new ArrayList<>();
        List<Double> weirExecute = new ArrayList<>();
        List<Double> nettyExecute = new ArrayList<>();
        List<Double> weirBehind = new ArrayList<>();
        List<Double> nettyBehind = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            boolean weirFirst = r % 2 == 0;
            for (int i = 0; i < 2; i++) {
                boolean weir = weirFirst == (i == 0);
                double cpu = weir ? weirCpuPerRoundTrip() : nettyCpuPerRoundTrip();
                double[] burst = weir ? weirBursts() : nettyBursts();
                (weir ? weirCpu : nettyCpu).add(cpu);
                (weir ? weirExecute : nettyExecute).add(burst[0]);
                (weir ? weirBehind : nettyBehind).add(burst[1]);
                System.out.printf(Locale.ROOT, "round %d %s: CPU %.1f us per round trip; execute() %.1f us per "
                        + "1,000 calls, loop %.0f tasks behind%n", r + 1, weir ? "weir" : "netty", cpu, burst[0],
                        burst[1]);
            }
        }
        System.out.println();
        System.out.println(range("CPU per round trip (us)", weirCpu, nettyCpu));
        System.out.println(range("execute() per 1,000 calls (us)", weirExecute, nettyExecute));
        System.out.println(range("tasks behind the producer", weirBehind, nettyBehind));
    }

    private static String range(String what, List<Double> weir, List<Double> netty) {
        return String.format(Locale.ROOT, "%s: weir %.1f-%.1f (median %.1f), netty %.1f-%.1f (median %.1f)", what,
                Collections.min(weir), Collections.max(weir), median(weir), Collections.min(netty),
                Collections.max(netty), median(netty));
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** One framework's ping-pong pair, as the two sides of {@link NioPingPongBenchmark} offer it. */
    private interface RoundTrips {
        int run(int rounds) throws Exception;
    }

    private static double weirCpuPerRoundTrip() throws Exception {
        NioPingPongBenchmark.WeirSide side = new NioPingPongBenchmark.WeirSide(PING_PONG_BYTES,
                TransportLoops.Weir.epoll(), io.weir.channel.epoll.EpollServerSocketChannel.class,
                io.weir.channel.epoll.EpollSocketChannel.class);
        try {
            return cpuPerRoundTrip(side::run);
        } finally {
            side.close();
        }
    }

    private static double nettyCpuPerRoundTrip() throws Exception {
        NioPingPongBenchmark.NettySide side = new NioPingPongBenchmark.NettySide(PING_PONG_BYTES,
                TransportLoops.Netty.epoll(), io.netty.channel.epoll.EpollServerSocketChannel.class,
                io.netty.channel.epoll.EpollSocketChannel.class);
        try {
            return cpuPerRoundTrip(side::run);
        } finally {
            side.close();
        }
    }

    private static double cpuPerRoundTrip(RoundTrips side) throws Exception {
        side.run(WARM_UP_ROUND_TRIPS);
        long before = processCpuNanos();
        side.run(ROUND_TRIPS);
        return (processCpuNanos() - before) / 1000.0 / ROUND_TRIPS;
    }

    private static double[] weirBursts() throws Exception {
        io.weir.channel.MultiThreadIoEventLoopGroup group = new io.weir.channel.MultiThreadIoEventLoopGroup(1,
                io.weir.channel.epoll.EpollIoHandler.newFactory());
        try {
            group.submit(() -> { }).get(TransportLoops.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return bursts(group.next());
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TransportLoops.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private static double[] nettyBursts() throws Exception {
        io.netty.channel.MultiThreadIoEventLoopGroup group = new io.netty.channel.MultiThreadIoEventLoopGroup(1,
                io.netty.channel.epoll.EpollIoHandler.newFactory());
        try {
            group.submit(() -> { }).get(TransportLoops.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return bursts(group.next());
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TransportLoops.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** {median us of one burst's execute calls, median tasks not yet run when the burst's last call returned}. */
    private static double[] bursts(Executor loop) {
        EpollEventLoopExecuteBenchmark.Counter counter = new EpollEventLoopExecuteBenchmark.Counter();
        List<Double> micros = new ArrayList<>(BURSTS);
        List<Double> behind = new ArrayList<>(BURSTS);
        for (int b = 0; b < BURSTS; b++) {
            long target = counter.ran + BURST; // none of this producer's tasks is pending between bursts
            long start = System.nanoTime();
            for (int i = 0; i < BURST; i++) {
                loop.execute(counter);
            }
            long end = System.nanoTime();
            long seen = counter.seen;
            while (counter.seen != target) {
                Thread.onSpinWait();
            }
            micros.add((end - start) / 1000.0);
            behind.add((double) (target - seen));
        }
        return new double[] {median(micros), median(behind)};
    }
}
