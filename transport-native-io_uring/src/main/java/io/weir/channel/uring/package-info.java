/**
 * Weir's Linux io_uring transport: a completion-based {@link io.weir.channel.IoHandler} that talks to the kernel's
 * io_uring ABI directly ({@code io_uring_setup}, {@code io_uring_enter}, {@code io_uring_register} and the mmapped
 * rings; no liburing), through a JNI library the Maven build compiles and bundles in the jar.
 *
 * <h2>What exists</h2>
 * <ul>
 *   <li>{@link io.weir.channel.uring.IoUring}: whether the transport can run here and why not (not Linux, library
 *       not loadable, no io_uring in the kernel, io_uring disabled by {@code kernel.io_uring_disabled} or a seccomp
 *       filter, a kernel older than Linux 5.11), the one fallback line, the probed operations
 *       ({@code IORING_REGISTER_PROBE}) and the best setup flags.</li>
 *   <li>{@link io.weir.channel.uring.IoUringIoHandler} on the {@link io.weir.channel.IoHandler} contract: one
 *       {@code io_uring_enter} per loop turn that submits everything queued and waits with the loop's deadline as
 *       its timeout; {@code SINGLE_ISSUER | DEFER_TASKRUN} where the kernel has them (else
 *       {@code COOP_TASKRUN | TASKRUN_FLAG}, else none); a registered ring descriptor; wake-ups through an
 *       eventfd read kept armed on the ring; {@code user_data} that names the registration and the operation;
 *       cancellation of everything in flight ({@code IORING_OP_ASYNC_CANCEL}) when a registration is cancelled or
 *       the loop shuts down, waiting for the completions so that no completion can touch freed memory.</li>
 *   <li>{@link io.weir.channel.uring.IoUringIoHandle}, {@link io.weir.channel.uring.IoUringIoOps} (an SQE) and
 *       {@link io.weir.channel.uring.IoUringIoEvent} (a CQE): what a handle submits and hears, and when it may
 *       free the memory it lent the kernel ({@link io.weir.channel.uring.IoUringIoHandle#unregistered()}).</li>
 *   <li>Provided buffer rings: two per handler ({@code IORING_REGISTER_PBUF_RING}), by default 1,024 small
 *       buffers of 4 KiB and 64 large ones of 64 KiB from {@link io.weir.buffer.ByteBufAllocator#DEFAULT}, set by
 *       {@link io.weir.channel.uring.IoUringIoHandler#newFactory(int, int, int, int, int, int)} (0 buffers: none;
 *       the four-argument factory: the small ring only). A connection receives into small buffers and moves to the
 *       large ones while its reads keep filling small ones, back once they are small again. Each TCP
 *       connection keeps one multishot receive ({@code IORING_RECV_MULTISHOT}, {@code IOSQE_BUFFER_SELECT}) armed
 *       while reading is wanted, so an idle connection holds no receive buffer; a completion hands the ring's
 *       buffer itself to the pipeline and the ring gets a fresh one in its place, so the kernel never writes into
 *       a buffer the application sees. A ring that runs dry ({@code -ENOBUFS}) fires
 *       {@link io.weir.channel.uring.IoUringBufferRingExhaustedEvent}, logs one line per ring, and re-arms the
 *       waiting receives on later loop turns, no more per turn than the ring holds buffers. Turning auto-read off
 *       cancels the receive; what it completed before the cancellation is kept for the next reads. Used where the
 *       kernel has {@code IORING_FEAT_REG_REG_RING} (Linux 6.3); elsewhere connections receive as below.</li>
 *   <li>TCP: {@link io.weir.channel.uring.IoUringServerSocketChannel} (multishot accept, with the accept back-off
 *       of the other transports) and {@link io.weir.channel.uring.IoUringSocketChannel} (multishot receive into
 *       the loop's buffer ring, or, without one, one receive in flight
 *       into a direct buffer from the channel's allocator; one write in flight from the outbound buffer, a send or
 *       a writev of up to 256 buffers; {@link io.weir.channel.DefaultFileRegion}s with {@code IORING_OP_SPLICE},
 *       file to the channel's pipe to the socket (other regions, or a kernel without splice: {@code sendfile(2)}),
 *       and a poll for writability when the socket is full; connect
 *       through a non-blocking {@code connect(2)} and a poll; half-closure; the usual socket options). They pass
 *       the testsuite's shared and TCP scenarios, and the reference server runs on them with
 *       {@code --transport io_uring}. Every buffer lent to the kernel is released by its operation's completion,
 *       so closing with operations in flight never frees memory the kernel still uses, and a channel makes the
 *       handler submit what is queued before it closes its descriptor, so no SQE can reach a descriptor number
 *       that was reused meanwhile. Writes of one buffer from
 *       {@link io.weir.channel.uring.IoUringChannelOption#SEND_ZC_THRESHOLD} bytes on go out with
 *       {@code IORING_OP_SEND_ZC}, the buffer held until the notification (off by default).</li>
 *   <li>Unix domain stream: {@link io.weir.channel.uring.IoUringServerDomainSocketChannel} and
 *       {@link io.weir.channel.uring.IoUringDomainSocketChannel}, the TCP channels' code (their shared bases) over
 *       {@link io.weir.channel.unix.DomainSocketAddress}es, with the peer's credentials; the server deletes its
 *       socket file when it closes.</li>
 *   <li>UDP: {@link io.weir.channel.uring.IoUringDatagramChannel}, one {@code IORING_OP_RECVMSG} in flight and up
 *       to 16 linked {@code IORING_OP_SENDMSG}s per flush, each operation's msghdr, iovec and address in a native
 *       block the channel frees only once it is closed and nothing is in flight; truncated datagrams dropped and
 *       reported; connect, disconnect, multicast and the datagram options as on epoll.</li>
 * </ul>
 *
 * <h2>What does not exist yet</h2>
 * Incremental buffer consumption ({@code IOU_PBUF_RING_INC}); the throughput benchmarks against epoll and Netty's io_uring. The reference server's
 * HTTP/1.1 and h2c tests run over io_uring ({@code HttpServerTest}, {@code IoUringHttp2InteropTest}); the memory
 * of 10,000 idle connections is in {@code microbench/results/2026-12-06-uring-idle-rss.txt}. The SQE of each
 * operation is described by a new {@link io.weir.channel.uring.IoUringIoOps}, an allocation per operation that
 * the channels may pool later.
 *
 * <h2>Threads</h2>
 * Everything runs on the event loop that owns the ring (its single issuer), except
 * {@link io.weir.channel.IoHandler#wakeup()} and {@link io.weir.channel.IoRegistration#cancel()}, which any
 * thread may call, and {@link io.weir.channel.uring.IoUring}'s static methods.
 */
package io.weir.channel.uring;
