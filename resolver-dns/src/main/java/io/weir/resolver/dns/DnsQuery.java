package io.weir.resolver.dns;

import io.weir.bootstrap.Bootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOption;
import io.weir.channel.DatagramPacket;
import io.weir.channel.FixedRecvByteBufAllocator;
import io.weir.handler.codec.dns.DnsDecoderException;
import io.weir.handler.codec.dns.DnsMessage;
import io.weir.handler.codec.dns.DnsMessageEncoder;
import io.weir.handler.codec.dns.DnsQuestion;
import io.weir.handler.codec.dns.DnsResponseCode;
import io.weir.handler.codec.dns.TcpDnsDecoder;
import io.weir.handler.codec.dns.TcpDnsEncoder;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.Promise;
import io.weir.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One question asked until answered: over UDP from a fresh socket (a new random source port and query id per
 * try), again over TCP to the same server when the answer is truncated, and to the next server after a timeout or
 * a server failure, for at most {@code attempts * servers} tries. Completes its promise with the accepted answer
 * (NOERROR or NXDOMAIN), or fails it with an {@link UnknownHostException} naming what was tried.
 *
 * <p>An answer is accepted only from the queried server's address and port, with QR set, the query's id and the
 * query's question (RFC 5452 §4.1-9.1). Anything else (malformed, oversized, spoofed, late) is released at once and
 * counted in {@link DnsNameResolver#droppedDatagrams()}; the query keeps waiting. Event loop only.
 */
final class DnsQuery {
    private final DnsNameResolver resolver;
    private final DnsResolverConfig config;
    private final DnsQuestion question;
    private final Promise<DnsMessage> promise;
    private final int firstServer;
    private final int maxTries;
    private int tries;
    private InetSocketAddress server;
    private int id;
    // The channel of the try under way; answers and events of any other channel are stale.
    private Channel channel;
    private ScheduledFuture<?> timeout;
    private Throwable lastFailure;

    DnsQuery(DnsNameResolver resolver, DnsQuestion question, Promise<DnsMessage> promise, int firstServer) {
        this.resolver = resolver;
        this.config = resolver.config();
        this.question = question;
        this.promise = promise;
        this.firstServer = firstServer;
        this.maxTries = config.attempts() * config.nameServers().size();
    }

    DnsQuestion question() {
        return question;
    }

    void start() {
        nextTry();
    }

    /** Fails the query (the resolver closes). */
    void cancel(Throwable cause) {
        promise.tryFailure(cause);
        endTry();
    }

    private void nextTry() {
        endTry();
        if (promise.isDone()) {
            return;
        }
        if (tries >= maxTries) {
            UnknownHostException e = new UnknownHostException("no answer to " + question.name() + " "
                    + question.type() + " after " + tries + " tries of " + config.nameServers() + " ("
                    + config.queryTimeoutMillis() + " ms each)"
                    + (lastFailure == null ? "" : ": " + lastFailure.getMessage()));
            if (lastFailure != null) {
                e.initCause(lastFailure);
            }
            promise.tryFailure(e);
            return;
        }
        server = config.nameServers().get((firstServer + tries) % config.nameServers().size());
        tries++;
        sendUdp();
    }

    private void endTry() {
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
        Channel ch = channel;
        channel = null;
        if (ch != null) {
            ch.close();
        }
    }

    private void armTimeout(Channel ch) {
        timeout = resolver.eventLoop().schedule(() -> {
            if (channel == ch) {
                lastFailure = new UnknownHostException(server + " did not answer within "
                        + config.queryTimeoutMillis() + " ms");
                nextTry();
            }
        }, config.queryTimeoutMillis(), TimeUnit.MILLISECONDS);
    }

    private ByteBuf encodeQuery(Channel ch) {
        id = resolver.nextQueryId();
        DnsMessage query = DnsMessage.query(id, question, config.recursionDesired(), config.maxPayloadBytes());
        ByteBuf buf = ch.alloc().buffer();
        DnsMessageEncoder.encode(query, buf);
        return buf;
    }

    private void sendUdp() {
        InetSocketAddress to = server;
        open(() -> new Bootstrap().group(resolver.eventLoop()).channelFactory(config.datagramChannelFactory())
                // One byte more than accepted, so an oversized datagram shows (the JDK truncates silently).
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(config.maxPayloadBytes() + 1))
                .handler(new UdpAnswerHandler())
                .bind(new InetSocketAddress(0)),
            ch -> ch.writeAndFlush(new DatagramPacket(encodeQuery(ch), to)).addListener(w -> {
                if (!w.isSuccess() && channel == ch) {
                    lastFailure = w.cause();
                    nextTry();
                }
            }));
    }

    private void sendTcp() {
        open(() -> new Bootstrap().group(resolver.eventLoop()).channelFactory(config.socketChannelFactory())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE,
                        config.queryTimeoutMillis()))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel c) {
                        c.pipeline().addLast(new TcpDnsEncoder(),
                                new TcpDnsDecoder(resolver.messageDecoder(), TcpDnsDecoder.DEFAULT_MAX_MESSAGE_BYTES),
                                new TcpAnswerHandler());
                    }
                })
                .connect(server),
            ch -> {
                id = resolver.nextQueryId();
                ch.writeAndFlush(DnsMessage.query(id, question, config.recursionDesired(), 0));
            });
    }

    /**
     * Opens this try's channel with {@code opener} (bound or connected), arms the try's timeout and, once the
     * channel is open, sends the query with {@code send}; a channel that cannot be opened moves to the next try.
     */
    private void open(Supplier<ChannelFuture> opener, Consumer<Channel> send) {
        ChannelFuture opened;
        try {
            opened = opener.get();
        } catch (RuntimeException e) {
            lastFailure = e;
            nextTry();
            return;
        }
        Channel ch = opened.channel();
        channel = ch;
        armTimeout(ch);
        opened.addListener(f -> {
            if (channel != ch) {
                return;
            }
            if (f.isSuccess()) {
                send.accept(ch);
            } else {
                lastFailure = f.cause();
                nextTry();
            }
        });
    }

    /** Whether {@code m} answers this try's query (RFC 5452 §9.1: id, question, and QR). */
    private boolean answersQuery(DnsMessage m) {
        return m.isResponse() && m.id() == id && m.opcode() == 0 && m.questions().size() == 1
                && m.questions().get(0).matches(question);
    }

    private void accepted(DnsMessage m, boolean overTcp) {
        endTry();
        if (m.isTruncated() && !overTcp) {
            // RFC 7766 §5 / RFC 1035 §4.2.1: the whole answer comes over TCP from the same server.
            sendTcp();
            return;
        }
        int rcode = m.rcode();
        if (rcode == DnsResponseCode.NOERROR || rcode == DnsResponseCode.NXDOMAIN) {
            promise.trySuccess(m);
        } else {
            lastFailure = new UnknownHostException(server + " answered " + DnsResponseCode.name(rcode));
            nextTry();
        }
    }

    /** Reads the answers of one UDP try. */
    private final class UdpAnswerHandler implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof DatagramPacket packet)) {
                ReferenceCountUtil.release(msg);
                resolver.dropped();
                return;
            }
            DnsMessage m = null;
            try {
                if (ctx.channel() == channel && server.equals(packet.sender())
                        && packet.content().readableBytes() <= config.maxPayloadBytes()) {
                    m = resolver.messageDecoder().decode(packet.content());
                }
            } catch (DnsDecoderException malformed) {
                lastFailure = malformed;
            } finally {
                packet.release();
            }
            if (m != null && answersQuery(m)) {
                accepted(m, false);
            } else {
                resolver.dropped();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // An ICMP error or a failed read: the try's timeout moves on; a spoofer must not cut a query short.
            if (ctx.channel() == channel) {
                lastFailure = cause;
            }
        }
    }

    /** Reads the answer of the TCP try. */
    private final class TcpAnswerHandler implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (ctx.channel() != channel) {
                ReferenceCountUtil.release(msg);
                return;
            }
            if (msg instanceof DnsMessage m && answersQuery(m)) {
                accepted(m, true);
            } else {
                ReferenceCountUtil.release(msg);
                resolver.dropped();
                lastFailure = new UnknownHostException(server + " sent a TCP answer to another question");
                nextTry();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (ctx.channel() == channel) {
                lastFailure = cause;
                nextTry();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (ctx.channel() == channel) {
                lastFailure = new UnknownHostException(server + " closed the TCP connection without an answer");
                nextTry();
            }
        }
    }
}
