package io.weir.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.AttributeKey;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.local.LocalAddress;
import io.weir.channel.local.LocalChannel;
import io.weir.channel.local.LocalServerChannel;
import io.weir.channel.nio.NioIoHandler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class BootstrapTest {
    private static final long TIMEOUT_SECONDS = 30;
    private static final ChannelHandler NOOP = new Noop();

    /** Does nothing; shared by every channel that needs no handler of its own. */
    @ChannelHandler.Sharable
    private static final class Noop implements ChannelHandler {
    }
    private static final AttributeKey<String> TAG = AttributeKey.valueOf("BootstrapTest.tag");

    private EventLoopGroup parent;
    private EventLoopGroup child;

    @BeforeEach
    void start() {
        parent = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        child = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    @AfterEach
    void stop() throws Exception {
        parent.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        child.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void validateNamesWhatIsMissing() {
        assertThatThrownBy(() -> new Bootstrap().validate()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("group not set");
        assertThatThrownBy(() -> new Bootstrap().group(parent).validate()).hasMessageContaining("channel type not set");
        assertThatThrownBy(() -> new Bootstrap().group(parent).channel(LocalChannel.class).validate())
                .hasMessageContaining("handler not set");
        assertThatThrownBy(() -> new ServerBootstrap().group(parent).channel(LocalServerChannel.class).validate())
                .hasMessageContaining("childHandler not set");
        assertThatThrownBy(() -> new Bootstrap().group(parent).channel(LocalChannel.class)
                .handler(NOOP).connect())
                .hasMessageContaining("remoteAddress not set");
        assertThatThrownBy(() -> new Bootstrap().group(parent).group(child)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("group set already");
    }

    /** A server channel type given to a client bootstrap has no (EventLoop) constructor: refused at once. */
    @Test
    void aChannelClassWithoutTheNeededConstructorIsRefused() {
        assertThatThrownBy(() -> new Bootstrap().channel(LocalServerChannel.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("LocalServerChannel(EventLoop)");
    }

    @Test
    void anInvalidOptionValueIsRefusedWhenSet() {
        assertThatThrownBy(() -> new Bootstrap().option(ChannelOption.CONNECT_TIMEOUT_MILLIS, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }

    @Test
    void childrenGetTheChildOptionsAttributesHandlerAndAChildLoop() throws Exception {
        CompletableFuture<Channel> accepted = new CompletableFuture<>();
        ServerBootstrap sb = new ServerBootstrap()
                .group(parent, child)
                .channel(LocalServerChannel.class)
                .attr(TAG, "server")
                .childAttr(TAG, "child")
                .childOption(ChannelOption.WRITE_SPIN_COUNT, 3)
                .childHandler(new ChannelHandler() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        accepted.complete(ctx.channel());
                    }
                });
        ChannelFuture bound = sb.bind(LocalAddress.ANY);
        assertThat(bound.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        Channel server = bound.channel();
        try {
            assertThat(server.attr(TAG).get()).isEqualTo("server");
            assertThat(parent.next()).isSameAs(server.eventLoop());

            ChannelFuture connected = new Bootstrap().group(parent).channel(LocalChannel.class)
                    .attr(TAG, "client").handler(NOOP).connect(server.localAddress());
            assertThat(connected.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(connected.channel().attr(TAG).get()).isEqualTo("client");

            Channel ch = accepted.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(ch.parent()).isSameAs(server);
            assertThat(ch.attr(TAG).get()).isEqualTo("child");
            assertThat(ch.config().getWriteSpinCount()).isEqualTo(3);
            boolean onChildLoop = false;
            for (var loop : child) {
                onChildLoop |= loop == ch.eventLoop();
            }
            assertThat(onChildLoop).isTrue();
            connected.channel().close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } finally {
            server.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void aCustomFactoryReceivesTheLoopTheBootstrapPicked() throws Exception {
        CompletableFuture<EventLoop> given = new CompletableFuture<>();
        ChannelFuture bound = new Bootstrap().group(parent)
                .channelFactory(loop -> {
                    given.complete(loop);
                    return new LocalChannel(loop);
                })
                .handler(NOOP)
                .bind(LocalAddress.ANY);
        assertThat(bound.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(bound.cause()).isNull();
        assertThat(bound.channel().eventLoop()).isSameAs(given.getNow(null));
        bound.channel().close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * Binding from inside the registration's listeners made the pipeline see an active channel while it was
     * still announcing the registration: channelActive fired twice, the first time before the acceptor was
     * added, so the first connections were closed as unhandled.
     */
    @Test
    void aBoundServerIsAnnouncedActiveOnceAndOnlyAfterItsHandlersAreInPlace() throws Exception {
        java.util.concurrent.atomic.AtomicInteger activations = new java.util.concurrent.atomic.AtomicInteger();
        java.util.List<String> pipelineAtActivation = new java.util.concurrent.CopyOnWriteArrayList<>();
        ChannelFuture bound = new ServerBootstrap().group(parent, child)
                .channel(io.weir.channel.nio.NioServerSocketChannel.class)
                .handler(new ChannelHandler() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        activations.incrementAndGet();
                        pipelineAtActivation.addAll(ctx.pipeline().names());
                        ctx.fireChannelActive();
                    }
                })
                .childHandler(NOOP)
                .bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
        assertThat(bound.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(bound.cause()).isNull();
        Channel server = bound.channel();
        try {
            // Tasks run in order: once this one ran, every event the bind queued has fired.
            server.eventLoop().submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(activations.get()).isEqualTo(1);
            assertThat(pipelineAtActivation).anyMatch(name -> name.startsWith("Acceptor"));
        } finally {
            server.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
