/**
 * The readiness core the native transports share, exported to them only ({@code io.weir.transport.epoll},
 * {@code io.weir.transport.kqueue}), not to applications. A third readiness transport adds its kernel calls and
 * event decoding here, not a third copy of the channels.
 *
 * <h2>Channels</h2>
 * {@link io.weir.channel.unix.internal.AbstractUnixChannel} (connect state, interest bookkeeping, what each
 * readiness does), {@link io.weir.channel.unix.internal.AbstractUnixStreamChannel} (the read loop, writes and
 * half-closure of {@link io.weir.channel.unix.internal.UnixStreamReader} and
 * {@link io.weir.channel.unix.internal.UnixStreamWriter}), {@link io.weir.channel.unix.internal.AbstractUnixServerChannel}
 * (the accept loop and its back-off) and {@link io.weir.channel.unix.internal.AbstractUnixDatagramChannel}, with
 * one config for the options every Unix has ({@link io.weir.channel.unix.internal.UnixChannelConfig}). Reading is
 * edge-triggered without lost readiness ({@link io.weir.channel.unix.internal.EdgeTriggeredInput}).
 *
 * <h2>I/O handlers</h2>
 * {@link io.weir.channel.unix.internal.UnixIoHandler}: the registration table by descriptor
 * ({@link io.weir.channel.unix.internal.UnixRegistration}), the event array
 * ({@link io.weir.channel.unix.internal.NativeEventArray}) and when to block.
 *
 * <h2>What a transport supplies</h2>
 * A {@link io.weir.channel.unix.internal.UnixTransport}: its handle, which decodes its events into
 * {@link io.weir.channel.unix.internal.Readiness} flags, and its {@link io.weir.channel.IoOps} for each interest
 * (epoll's {@code EPOLLIN}/{@code EPOLLOUT}/{@code EPOLLRDHUP}, kqueue's filters); and its handler's kernel calls.
 * Datagrams cross JNI through {@link io.weir.channel.unix.internal.DatagramSlots}.
 */
package io.weir.channel.unix.internal;
