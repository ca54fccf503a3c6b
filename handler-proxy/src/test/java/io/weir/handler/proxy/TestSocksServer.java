package io.weir.handler.proxy;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.handler.codec.ByteToMessageDecoder;
import io.weir.handler.codec.socksx.SocksProtocolException;
import io.weir.handler.codec.socksx.v4.Socks4CommandRequest;
import io.weir.handler.codec.socksx.v4.Socks4CommandResponse;
import io.weir.handler.codec.socksx.v4.Socks4CommandStatus;
import io.weir.handler.codec.socksx.v4.Socks4CommandType;
import io.weir.handler.codec.socksx.v4.Socks4ServerDecoder;
import io.weir.handler.codec.socksx.v4.Socks4ServerEncoder;
import io.weir.handler.codec.socksx.v5.Socks5AddressType;
import io.weir.handler.codec.socksx.v5.Socks5AuthMethod;
import io.weir.handler.codec.socksx.v5.Socks5CommandRequest;
import io.weir.handler.codec.socksx.v5.Socks5CommandResponse;
import io.weir.handler.codec.socksx.v5.Socks5CommandStatus;
import io.weir.handler.codec.socksx.v5.Socks5CommandType;
import io.weir.handler.codec.socksx.v5.Socks5InitialRequest;
import io.weir.handler.codec.socksx.v5.Socks5InitialResponse;
import io.weir.handler.codec.socksx.v5.Socks5PasswordAuthRequest;
import io.weir.handler.codec.socksx.v5.Socks5PasswordAuthResponse;
import io.weir.handler.codec.socksx.v5.Socks5ServerDecoder;
import io.weir.handler.codec.socksx.v5.Socks5ServerEncoder;
import io.weir.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A tiny SOCKS4a and SOCKS5 server built on codec-socks's server side, for tests: the first byte picks the version,
 * a CONNECT is connected upstream (names resolved here), answered, and then bytes are relayed both ways. With a
 * username, SOCKS5 clients must authenticate with it. Every request it decodes is kept in {@link #requests}.
 */
final class TestSocksServer implements AutoCloseable {
    final BlockingQueue<Object> requests = new LinkedBlockingQueue<>();
    private final String username;
    private final String password;
    private final Channel server;

    TestSocksServer(EventLoopGroup group, String username, String password) throws InterruptedException {
        this.username = username;
        this.password = password;
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new VersionDetector());
                    }
                }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
    }

    /** Installs the codecs and handler of the version the first byte names, then steps aside. */
    private final class VersionDetector extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            ChannelPipeline p = ctx.pipeline();
            if (in.getByte(in.readerIndex()) == 4) {
                Socks4ServerEncoder encoder = new Socks4ServerEncoder();
                p.addAfter(ctx.name(), null, new Socks4Server(encoder));
                p.addAfter(ctx.name(), null, new Socks4ServerDecoder());
                p.addAfter(ctx.name(), null, encoder);
            } else {
                Socks5ServerEncoder encoder = new Socks5ServerEncoder();
                p.addAfter(ctx.name(), null, new Socks5Server(encoder));
                p.addAfter(ctx.name(), null, new Socks5ServerDecoder());
                p.addAfter(ctx.name(), null, encoder);
            }
            p.remove(this);
        }
    }

    private final class Socks4Server implements ChannelHandler {
        private final ChannelHandler encoder;

        Socks4Server(ChannelHandler encoder) {
            this.encoder = encoder;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Socks4CommandRequest r && r.type() == Socks4CommandType.CONNECT) {
                requests.add(r);
                tunnel(ctx, r.host(), r.port(), Socks4CommandResponse.of(Socks4CommandStatus.GRANTED),
                        Socks4CommandResponse.of(Socks4CommandStatus.REJECTED), encoder, this);
            } else {
                ReferenceCountUtil.release(msg);
                answerAndClose(ctx.channel(), Socks4CommandResponse.of(Socks4CommandStatus.REJECTED));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            answerAndClose(ctx.channel(), Socks4CommandResponse.of(Socks4CommandStatus.REJECTED));
        }
    }

    private final class Socks5Server implements ChannelHandler {
        private final ChannelHandler encoder;

        Socks5Server(ChannelHandler encoder) {
            this.encoder = encoder;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            requests.add(msg);
            if (msg instanceof Socks5InitialRequest r) {
                Socks5AuthMethod wanted = username == null ? Socks5AuthMethod.NO_AUTH : Socks5AuthMethod.PASSWORD;
                if (r.methods().contains(wanted)) {
                    ctx.writeAndFlush(new Socks5InitialResponse(wanted));
                } else {
                    answerAndClose(ctx.channel(),
                            new Socks5InitialResponse(Socks5AuthMethod.NO_ACCEPTABLE_METHODS));
                }
            } else if (msg instanceof Socks5PasswordAuthRequest r) {
                if (r.username().equals(username) && r.password().equals(password)) {
                    ctx.writeAndFlush(Socks5PasswordAuthResponse.SUCCESS);
                } else {
                    answerAndClose(ctx.channel(), Socks5PasswordAuthResponse.FAILURE);
                }
            } else if (msg instanceof Socks5CommandRequest r && r.type() == Socks5CommandType.CONNECT) {
                tunnel(ctx, r.host(), r.port(), new Socks5CommandResponse(Socks5CommandStatus.SUCCESS,
                        Socks5AddressType.IPV4, "127.0.0.1", address().getPort()),
                        Socks5CommandResponse.of(Socks5CommandStatus.HOST_UNREACHABLE), encoder, this);
            } else {
                ReferenceCountUtil.release(msg);
                answerAndClose(ctx.channel(),
                        Socks5CommandResponse.of(Socks5CommandStatus.COMMAND_UNSUPPORTED));
            }
        }

        /** RFC 1928 §6 has replies for what the decoder refuses; anything else just closes. */
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            Socks5CommandStatus status = Socks5CommandStatus.FAILURE;
            if (cause instanceof SocksProtocolException e) {
                if (e.reason() == SocksProtocolException.Reason.UNSUPPORTED_COMMAND) {
                    status = Socks5CommandStatus.COMMAND_UNSUPPORTED;
                } else if (e.reason() == SocksProtocolException.Reason.UNSUPPORTED_ADDRESS_TYPE) {
                    status = Socks5CommandStatus.ADDRESS_UNSUPPORTED;
                }
            }
            answerAndClose(ctx.channel(), Socks5CommandResponse.of(status));
        }
    }

    /**
     * Connects to {@code host}:{@code port}; then answers {@code granted}, removes {@code handshake} and relays, or
     * answers {@code refused} and closes.
     */
    private static void tunnel(ChannelHandlerContext ctx, String host, int port, Object granted, Object refused,
                               ChannelHandler... handshake) {
        Channel client = ctx.channel();
        client.config().setAutoRead(false);
        new Bootstrap().group(client.eventLoop()).channel(NioSocketChannel.class).handler(new Relay(client))
                .connect(host, port).addListener((ChannelFutureListener) f -> {
                    if (!f.isSuccess()) {
                        answerAndClose(client, refused);
                        return;
                    }
                    Channel upstream = f.channel();
                    client.writeAndFlush(granted);
                    ChannelPipeline p = client.pipeline();
                    for (ChannelHandler h : handshake) {
                        p.remove(h);
                    }
                    p.addLast(new Relay(upstream));
                    client.config().setAutoRead(true);
                });
    }

    private static void answerAndClose(Channel ch, Object answer) {
        ch.writeAndFlush(answer).addListener(ChannelFutureListener.CLOSE);
    }

    /** Writes what it reads to the other channel, and closes it when this one closes. */
    private static final class Relay implements ChannelHandler {
        private final Channel peer;

        Relay(Channel peer) {
            this.peer = peer;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            peer.writeAndFlush(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            peer.close();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
