/**
 * The stream code the native transports share, exported to them only ({@code io.weir.transport.epoll},
 * {@code io.weir.transport.kqueue}), not to applications: {@link io.weir.channel.unix.internal.UnixStreamReader}
 * (the edge-triggered read loop and half-closure), {@link io.weir.channel.unix.internal.UnixStreamWriter}
 * (single sends, gathering writes through {@link io.weir.channel.unix.IovArray}, {@code sendfile(2)} for file
 * regions), {@link io.weir.channel.unix.internal.EdgeTriggeredInput} (read readiness on an edge-triggered API
 * without lost edges), {@link io.weir.channel.unix.internal.SocketWritableChannel} and
 * {@link io.weir.channel.unix.internal.NativeBuffers}. A transport composes them into its channels and supplies
 * what differs: the readiness interest (epoll's {@code EPOLLIN}/{@code EPOLLOUT}, kqueue's filters).
 */
package io.weir.channel.unix.internal;
