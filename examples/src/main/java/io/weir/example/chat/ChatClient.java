package io.weir.example.chat;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.example.Settings;
import io.weir.server.Transports;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A chat client: sends each line typed on standard input to a {@link ChatServer} and prints each line the
 * server sends. Typing {@code bye} (or ending the input) leaves the chat.
 *
 * <p>Run it with {@code examples/run io.weir.example.chat.ChatClient [host [port]]} (default
 * {@value #DEFAULT_HOST} and {@value ChatServer#DEFAULT_PORT}; also {@code -Dio.weir.example.host},
 * {@code .port}).
 */
public final class ChatClient {
    /** The host {@link #main} connects to when none is given. */
    public static final String DEFAULT_HOST = "127.0.0.1";

    private ChatClient() {
    }

    /**
     * Connects to {@code server} from {@code group}; each line received is printed to {@code out} (from the
     * channel's event loop). Blocks until connected.
     *
     * @return the connected channel; write {@code String} lines to it (without their end of line)
     * @throws java.net.ConnectException (thrown as is, undeclared) if the connection fails
     * @throws InterruptedException if interrupted while connecting
     */
    public static Channel connect(EventLoopGroup group, SocketAddress server, PrintStream out)
            throws InterruptedException {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(server, "server");
        return new Bootstrap()
                .group(group)
                .channel(Transports.socketChannel(group))
                .handler(new ChatPipeline(new ChatClientHandler(out)))
                .connect(server).sync().channel();
    }

    /**
     * Sends the lines read from {@code in} over {@code channel} until a line {@code bye}, the end of the input
     * or the connection's end; returns once the connection is closed. After {@code bye} the server closes the
     * connection; at the end of the input this side closes it once what was typed went out.
     *
     * @throws IOException if reading {@code in} fails
     * @throws InterruptedException if interrupted while waiting for the connection to close
     */
    public static void chat(Channel channel, BufferedReader in) throws IOException, InterruptedException {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(in, "in");
        ChannelFuture lastWrite = null;
        String line;
        while (channel.isActive() && (line = in.readLine()) != null) {
            lastWrite = channel.writeAndFlush(line);
            if ("bye".equalsIgnoreCase(line.strip())) {
                channel.closeFuture().sync();
                return;
            }
        }
        if (lastWrite != null) {
            lastWrite.await();
        }
        channel.close().sync();
    }

    /** Joins the chat at the address given by the arguments, reading lines from standard input. */
    public static void main(String[] args) throws Exception {
        String host = Settings.string(args, 0, "host", DEFAULT_HOST);
        int port = Settings.port(args, 1, ChatServer.DEFAULT_PORT);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, Transports.ioHandlerFactory());
        try {
            Channel channel = connect(group, new InetSocketAddress(host, port), System.out);
            chat(channel, new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
        } finally {
            group.shutdownGracefully();
        }
    }
}
