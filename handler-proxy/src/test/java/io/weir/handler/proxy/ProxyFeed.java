package io.weir.handler.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A proxy handler on an {@link EmbeddedChannel} between a stand-in transport (which "connects" at once, never, or
 * refuses) and a recorder of what the application's handlers would see. The test plays the proxy: it reads what
 * the handler sent and feeds answers.
 */
final class ProxyFeed {
    static final InetSocketAddress PROXY = new InetSocketAddress("127.0.0.1", 1080);

    enum ConnectOutcome { CONNECT, HANG, REFUSE }

    final ProxyHandler handler;
    final Transport transport;
    final Recorder app = new Recorder();
    final EmbeddedChannel ch;
    private final List<ByteBuf> inputs = new ArrayList<>();
    ChannelFuture connectFuture;

    ProxyFeed(ProxyHandler handler) {
        this(handler, ConnectOutcome.CONNECT);
    }

    ProxyFeed(ProxyHandler handler, ConnectOutcome outcome) {
        this.handler = handler;
        this.transport = new Transport(outcome);
        ch = new EmbeddedChannel(transport, handler, app);
    }

    static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    ProxyFeed connect(SocketAddress destination) {
        connectFuture = ch.connect(destination);
        ch.runPendingTasks();
        return this;
    }

    /** The bytes the handler sent to the proxy since the last call. */
    byte[] sent() {
        ch.runPendingTasks();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            try {
                out.writeBytes(ByteBufUtil.getBytes(b));
            } finally {
                b.release();
            }
        }
        return out.toByteArray();
    }

    String sentText() {
        return new String(sent(), StandardCharsets.ISO_8859_1);
    }

    /** Feeds each array as one read from the proxy. */
    ProxyFeed reply(byte[]... reads) {
        for (byte[] read : reads) {
            if (!ch.isOpen()) {
                break;
            }
            ByteBuf in = Unpooled.copiedBuffer(read);
            inputs.add(in);
            ch.writeInbound(in);
        }
        return this;
    }

    ProxyFeed advanceMillis(long millis) {
        ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
        return this;
    }

    /** The connect's failure, which must be a {@link ProxyConnectException} with {@code reason}; the channel closed. */
    ProxyConnectException failedWith(ProxyConnectException.Reason reason) {
        ch.runPendingTasks();
        assertThat(connectFuture.isDone()).as("connect done").isTrue();
        assertThat(connectFuture.cause()).isInstanceOf(ProxyConnectException.class);
        ProxyConnectException e = (ProxyConnectException) connectFuture.cause();
        assertThat(e.reason()).as(e.getMessage()).isEqualTo(reason);
        assertThat(e.getStackTrace()).isEmpty();
        assertThat(ch.isOpen()).as("closed").isFalse();
        assertThat(app.timeline).as("the application saw nothing").isEmpty();
        finish();
        return e;
    }

    /** Checks that the tunnel is up the way every success goes, and that the handler and its codecs are gone. */
    void established() {
        ch.runPendingTasks();
        assertThat(connectFuture.isSuccess()).as("connect: %s", connectFuture.cause()).isTrue();
        assertThat(handler.isConnected()).isTrue();
        assertThat(app.timeline).startsWith("E", "A");
        assertThat(app.event.proxyAddress()).isEqualTo(PROXY);
        assertThat(app.event.protocol()).isEqualTo(handler.protocol());
        assertThat(ch.pipeline().toMap().values()).as("only the transport and the application are left")
                .containsExactly(transport, app);
    }

    void finish() {
        ch.finishAndReleaseAll();
        for (ByteBuf in : inputs) {
            assertThat(in.refCnt()).as("an input buffer's reference count after close").isZero();
        }
    }

    /** Stands in for the socket: swallows the registration's channelActive and completes connects as told. */
    static final class Transport implements ChannelHandler {
        private final ConnectOutcome outcome;
        SocketAddress connectedTo;

        Transport(ConnectOutcome outcome) {
            this.outcome = outcome;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            // The embedded channel is active from registration; the "socket" becomes active when it connects.
            if (connectedTo != null) {
                ctx.fireChannelActive();
            }
        }

        @Override
        public void connect(ChannelHandlerContext ctx, SocketAddress remote, SocketAddress local,
                            ChannelPromise promise) {
            connectedTo = remote;
            switch (outcome) {
                case CONNECT -> {
                    promise.setSuccess();
                    ctx.fireChannelActive();
                }
                case REFUSE -> promise.setFailure(new ConnectException("Connection refused: " + remote));
                default -> {
                    // Never answers, like a black-holed address.
                }
            }
        }
    }

    /** What the application's handlers see: 'E' event, 'A' active, 'B' bytes, 'X' exception, 'I' inactive. */
    static final class Recorder implements ChannelHandler {
        final List<String> timeline = new ArrayList<>();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProxyConnectionEvent event;

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ProxyConnectionEvent e) {
                event = e;
                timeline.add("E");
            }
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            timeline.add("A");
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            timeline.add("I");
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            timeline.add("X");
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            try {
                bytes.writeBytes(ByteBufUtil.getBytes(b));
            } finally {
                b.release();
            }
            timeline.add("B");
        }

        String text() {
            return bytes.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
