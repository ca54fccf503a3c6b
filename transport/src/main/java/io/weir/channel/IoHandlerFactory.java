package io.weir.channel;

/**
 * Creates one {@link IoHandler} per event loop. NIO, epoll and kqueue each provide one.
 */
@FunctionalInterface
public interface IoHandlerFactory {

    /**
     * A new handler for the loop {@code loop}. Called from the loop's constructor: the handler must not use
     * the loop before {@link IoHandler#initialize()}.
     */
    IoHandler newHandler(EventLoop loop);
}
