package io.weir.channel;

import java.net.SocketAddress;
import java.util.List;

/** Records every event it sees as "name:event" into a shared list, and forwards it. */
class RecordingHandler implements ChannelHandler {
    private final String name;
    private final List<String> events;

    RecordingHandler(String name, List<String> events) {
        this.name = name;
        this.events = events;
    }

    private void record(String event) {
        events.add(name + ':' + event);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        record("added");
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        record("removed");
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) {
        record("registered");
        ctx.fireChannelRegistered();
    }

    @Override
    public void channelUnregistered(ChannelHandlerContext ctx) {
        record("unregistered");
        ctx.fireChannelUnregistered();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        record("active");
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        record("inactive");
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        record("read(" + msg + ')');
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        record("readComplete");
        ctx.fireChannelReadComplete();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        record("userEvent(" + evt + ')');
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        record("writability(" + ctx.channel().isWritable() + ')');
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) {
        record("shutdown(" + event + ')');
        ctx.fireChannelShutdown(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        record("exception(" + cause.getMessage() + ')');
        ctx.fireExceptionCaught(cause);
    }

    @Override
    public void bind(ChannelHandlerContext ctx, SocketAddress localAddress, ChannelPromise promise) {
        record("bind");
        ctx.bind(localAddress, promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        record("close");
        ctx.close(promise);
    }

    @Override
    public void deregister(ChannelHandlerContext ctx, ChannelPromise promise) {
        record("deregister");
        ctx.deregister(promise);
    }

    @Override
    public void register(ChannelHandlerContext ctx, ChannelPromise promise) {
        record("register");
        ctx.register(promise);
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        record("read");
        ctx.read();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        record("write(" + msg + ')');
        ctx.write(msg, promise);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        record("flush");
        ctx.flush();
    }
}
