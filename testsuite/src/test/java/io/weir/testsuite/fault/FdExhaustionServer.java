package io.weir.testsuite.fault;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import io.weir.testing.FailingLoggerFinder;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server {@link FdExhaustionTest} runs in a child JVM with a low descriptor limit: an echo server on one
 * event loop (listener and connections share it, so a dead loop means a dead server). It talks to the test over
 * its standard streams, one line each:
 * <ul>
 *   <li>out {@code READY <port>} once listening;</li>
 *   <li>out {@code ACCEPT-FAILED <cause>} each time the server channel reports an accept failure (which then
 *       goes on to the pipeline's end, to be logged);</li>
 *   <li>in {@code STATUS}, out {@code STATUS <open connections> <open descriptors>};</li>
 *   <li>end of input: the server shuts down and the JVM exits.</li>
 * </ul>
 */
public final class FdExhaustionServer {
    private FdExhaustionServer() {
    }

    /** {@code args[0]}: the {@link FaultTransport} name. */
    public static void main(String[] args) throws Exception {
        FaultTransport transport = FaultTransport.valueOf(args[0]);
        EventLoopGroup group = transport.newGroup(1);
        AtomicInteger open = new AtomicInteger();
        Channel server = transport.serverChannel(new ServerBootstrap().group(group))
                .option(ChannelOption.SO_BACKLOG, 1024)
                .handler(new AcceptFailureReporter())
                .childHandler(new CountingEcho(open))
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        // Warm up what the failure path uses (scheduled tasks), while loading classes still has descriptors.
        group.next().schedule(() -> { }, 1, TimeUnit.MILLISECONDS).sync();
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        // From now on every log call throws, as the first log record did when it needed a descriptor.
        FailingLoggerFinder.setFailing(true);
        say("READY " + port);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals("STATUS")) {
                String[] fds = new File("/proc/self/fd").list();
                say("STATUS " + open.get() + ' ' + (fds == null ? -1 : fds.length));
            }
        }
        server.close().await(10, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    }

    private static void say(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }

    /** On the server channel: tells the test about each reported accept failure. */
    private static final class AcceptFailureReporter implements ChannelHandler {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            say("ACCEPT-FAILED " + cause);
            // On to the pipeline's end, which logs it: through logging that throws, in the test.
            ctx.fireExceptionCaught(cause);
        }
    }

    /** Echoes, counts open connections, and closes a connection on any failure. */
    @ChannelHandler.Sharable
    private static final class CountingEcho implements ChannelHandler {
        private final AtomicInteger open;

        CountingEcho(AtomicInteger open) {
            this.open = open;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            open.incrementAndGet();
            ctx.fireChannelActive();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            open.decrementAndGet();
            ctx.fireChannelInactive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
