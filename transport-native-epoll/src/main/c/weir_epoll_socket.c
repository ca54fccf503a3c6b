/*
 * The natives of io.weir.channel.epoll.EpollSocketNative: what only TCP stream channels need on Linux (pipes and
 * splice for zero-copy forwarding, TCP_INFO, and the options a
 * listening or connecting TCP socket takes: TCP_FASTOPEN, TCP_FASTOPEN_CONNECT, TCP_DEFER_ACCEPT,
 * IP_TRANSPARENT, IP_FREEBIND, SO_BUSY_POLL). Registered by weir_epoll_socket_jni_load() from the library's
 * JNI_OnLoad. Return convention: >= 0 success, -errno failure (see weir_unix.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "weir_epoll_socket.h"
#include "weir_unix.h"

#define EPOLL_SOCKET_NATIVE_CLASS "io/weir/channel/epoll/EpollSocketNative"

/* Not in every libc's headers; the values are the kernel's ABI (include/uapi/linux/tcp.h, in.h). */
#ifndef TCP_FASTOPEN_CONNECT
#define TCP_FASTOPEN_CONNECT 30
#endif
#ifndef IP_TRANSPARENT
#define IP_TRANSPARENT 19
#endif
#ifndef IPV6_TRANSPARENT
#define IPV6_TRANSPARENT 75
#endif
#ifndef SO_BUSY_POLL
#define SO_BUSY_POLL 46
#endif

/* Option ids; kept in sync with EpollSocketNative.OPTION_*. */
enum {
    OPTION_TCP_FASTOPEN = 0,
    OPTION_TCP_FASTOPEN_CONNECT = 1,
    OPTION_TCP_DEFER_ACCEPT = 2,
    OPTION_IP_TRANSPARENT = 3,
    OPTION_IP_FREEBIND = 4,
    OPTION_SO_BUSY_POLL = 5
};

/* Indexes of the values tcpInfo() stores; kept in sync with EpollTcpInfo's constructor. */
enum {
    TCP_INFO_STATE, TCP_INFO_CA_STATE, TCP_INFO_RETRANSMITS, TCP_INFO_PROBES, TCP_INFO_BACKOFF, TCP_INFO_OPTIONS,
    TCP_INFO_SND_WSCALE, TCP_INFO_RCV_WSCALE, TCP_INFO_RTO, TCP_INFO_ATO, TCP_INFO_SND_MSS, TCP_INFO_RCV_MSS,
    TCP_INFO_UNACKED, TCP_INFO_SACKED, TCP_INFO_LOST, TCP_INFO_RETRANS, TCP_INFO_LAST_DATA_SENT,
    TCP_INFO_LAST_DATA_RECV, TCP_INFO_LAST_ACK_RECV, TCP_INFO_PMTU, TCP_INFO_RCV_SSTHRESH, TCP_INFO_RTT,
    TCP_INFO_RTTVAR, TCP_INFO_SND_SSTHRESH, TCP_INFO_SND_CWND, TCP_INFO_ADVMSS, TCP_INFO_REORDERING,
    TCP_INFO_RCV_RTT, TCP_INFO_RCV_SPACE, TCP_INFO_TOTAL_RETRANS,
    TCP_INFO_COUNT
};

/* The (level, name) of an option id for a socket of the given family; 0, or -ENOPROTOOPT. */
static int option_of(int option, int family, int* level, int* name) {
    switch (option) {
        case OPTION_TCP_FASTOPEN: *level = IPPROTO_TCP; *name = TCP_FASTOPEN; return 0;
        case OPTION_TCP_FASTOPEN_CONNECT: *level = IPPROTO_TCP; *name = TCP_FASTOPEN_CONNECT; return 0;
        case OPTION_TCP_DEFER_ACCEPT: *level = IPPROTO_TCP; *name = TCP_DEFER_ACCEPT; return 0;
        case OPTION_IP_TRANSPARENT:
            /* A dual-stack socket's IPv4 traffic follows the IPv6 flag as well (both set inet_sk()->transparent). */
            *level = family == AF_INET6 ? IPPROTO_IPV6 : IPPROTO_IP;
            *name = family == AF_INET6 ? IPV6_TRANSPARENT : IP_TRANSPARENT;
            return 0;
        /* IP_FREEBIND at IPPROTO_IP is honoured by IPv6 sockets too, on every kernel that has the option. */
        case OPTION_IP_FREEBIND: *level = IPPROTO_IP; *name = IP_FREEBIND; return 0;
        case OPTION_SO_BUSY_POLL: *level = SOL_SOCKET; *name = SO_BUSY_POLL; return 0;
        default: return -ENOPROTOOPT;
    }
}

/* The (level, name) of an option id for the socket fd; 0, or -errno. */
static int socket_option_of(int fd, int option, int* level, int* name) {
    int family = weir_socket_family(fd);
    return family == -1 ? weir_neg_errno() : option_of(option, family, level, name);
}

static jint weir_setOption(JNIEnv* env, jclass clazz, jint fd, jint option, jint value) {
    int level;
    int name;
    int res = socket_option_of(fd, option, &level, &name);
    if (res != 0) {
        return res;
    }
    return weir_set_int_option(fd, level, name, (int) value);
}

/* The option's value (all of these are >= 0), or -errno. */
static jint weir_getOption(JNIEnv* env, jclass clazz, jint fd, jint option) {
    int level;
    int name;
    int res = socket_option_of(fd, option, &level, &name);
    if (res != 0) {
        return res;
    }
    return weir_get_nonnegative_int_option(fd, level, name);
}

/* Fills out[TCP_INFO_COUNT] from getsockopt(TCP_INFO); fields an older kernel does not report stay 0. */
static jint weir_tcpInfo(JNIEnv* env, jclass clazz, jint fd, jlongArray out) {
    struct tcp_info info;
    socklen_t len = sizeof(info);
    memset(&info, 0, sizeof(info));
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) == -1) {
        return weir_neg_errno();
    }
    if ((*env)->GetArrayLength(env, out) != TCP_INFO_COUNT) {
        return -EINVAL;
    }
    jlong values[TCP_INFO_COUNT];
    values[TCP_INFO_STATE] = info.tcpi_state;
    values[TCP_INFO_CA_STATE] = info.tcpi_ca_state;
    values[TCP_INFO_RETRANSMITS] = info.tcpi_retransmits;
    values[TCP_INFO_PROBES] = info.tcpi_probes;
    values[TCP_INFO_BACKOFF] = info.tcpi_backoff;
    values[TCP_INFO_OPTIONS] = info.tcpi_options;
    values[TCP_INFO_SND_WSCALE] = info.tcpi_snd_wscale;
    values[TCP_INFO_RCV_WSCALE] = info.tcpi_rcv_wscale;
    values[TCP_INFO_RTO] = info.tcpi_rto;
    values[TCP_INFO_ATO] = info.tcpi_ato;
    values[TCP_INFO_SND_MSS] = info.tcpi_snd_mss;
    values[TCP_INFO_RCV_MSS] = info.tcpi_rcv_mss;
    values[TCP_INFO_UNACKED] = info.tcpi_unacked;
    values[TCP_INFO_SACKED] = info.tcpi_sacked;
    values[TCP_INFO_LOST] = info.tcpi_lost;
    values[TCP_INFO_RETRANS] = info.tcpi_retrans;
    values[TCP_INFO_LAST_DATA_SENT] = info.tcpi_last_data_sent;
    values[TCP_INFO_LAST_DATA_RECV] = info.tcpi_last_data_recv;
    values[TCP_INFO_LAST_ACK_RECV] = info.tcpi_last_ack_recv;
    values[TCP_INFO_PMTU] = info.tcpi_pmtu;
    values[TCP_INFO_RCV_SSTHRESH] = info.tcpi_rcv_ssthresh;
    values[TCP_INFO_RTT] = info.tcpi_rtt;
    values[TCP_INFO_RTTVAR] = info.tcpi_rttvar;
    values[TCP_INFO_SND_SSTHRESH] = info.tcpi_snd_ssthresh;
    values[TCP_INFO_SND_CWND] = info.tcpi_snd_cwnd;
    values[TCP_INFO_ADVMSS] = info.tcpi_advmss;
    values[TCP_INFO_REORDERING] = info.tcpi_reordering;
    values[TCP_INFO_RCV_RTT] = info.tcpi_rcv_rtt;
    values[TCP_INFO_RCV_SPACE] = info.tcpi_rcv_space;
    values[TCP_INFO_TOTAL_RETRANS] = info.tcpi_total_retrans;
    (*env)->SetLongArrayRegion(env, out, 0, TCP_INFO_COUNT, values);
    return (*env)->ExceptionCheck(env) ? -1 : 0;
}

/* A non-blocking, close-on-exec pipe: (read end << 32) | write end, or -errno. */
static jlong weir_newPipe(JNIEnv* env, jclass clazz) {
    int fds[2];
    if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) == -1) {
        return weir_neg_errno();
    }
    return ((jlong) fds[0] << 32) | (jlong) (uint32_t) fds[1];
}

/*
 * splice(2) of at most len bytes from fdIn to fdOut, one of which must be a pipe; an offset < 0 means "the
 * descriptor's own position" (required for pipes and sockets). Never blocks on the pipe (SPLICE_F_NONBLOCK); a
 * blocking regular file may still block, as its writes do. Returns the bytes moved, 0 at the end of fdIn's
 * input, or -errno (-EAGAIN: nothing to move or no room now).
 */
static jint weir_splice(JNIEnv* env, jclass clazz, jint fdIn, jlong offIn, jint fdOut, jlong offOut, jint len) {
    loff_t in = (loff_t) offIn;
    loff_t out = (loff_t) offOut;
    ssize_t res;
    do {
        res = splice(fdIn, offIn < 0 ? NULL : &in, fdOut, offOut < 0 ? NULL : &out, (size_t) len,
                     SPLICE_F_NONBLOCK | SPLICE_F_MOVE);
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : (jint) res;
}

static const JNINativeMethod epoll_socket_methods[] = {
    { "setOption", "(III)I", (void*) weir_setOption },
    { "getOption", "(II)I", (void*) weir_getOption },
    { "tcpInfo", "(I[J)I", (void*) weir_tcpInfo },
    { "newPipe", "()J", (void*) weir_newPipe },
    { "splice", "(IJIJI)I", (void*) weir_splice },
};

int weir_epoll_socket_jni_load(JNIEnv* env) {
    if (weir_register_natives(env, EPOLL_SOCKET_NATIVE_CLASS, epoll_socket_methods,
                              (jint) (sizeof(epoll_socket_methods) / sizeof(epoll_socket_methods[0]))) != 0) {
        return -1;
    }
    return 0;
}
