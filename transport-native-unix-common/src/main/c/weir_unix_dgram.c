/*
 * The natives of io.weir.channel.unix.internal.DatagramSocketNative: one datagram per system call (recvmsg and
 * sendmsg, which every Unix has; no recvmmsg/sendmmsg, which macOS lacks), disconnect, multicast membership and
 * the datagram-only socket options, for any transport whose library compiles these sources. epoll uses all but the
 * receive and send, for which it keeps its batched path (weir_epoll_dgram.c). Registered by weir_unix_jni_load().
 *
 * Return convention: >= 0 success, -errno failure. No JNI exception is raised and no Java object touched: Java
 * passes the address of a small slot array in native memory (struct weir_dgram_slot).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "weir_unix.h"
#include "weir_unix_dgram.h"

#define DGRAM_SOCKET_NATIVE_CLASS "io/weir/channel/unix/internal/DatagramSocketNative"

/* Datagram option ids; kept in sync with DatagramSocketNative.OPTION_*. */
enum {
    DGRAM_OPTION_BROADCAST = 0,
    DGRAM_OPTION_MULTICAST_TTL = 1,
    DGRAM_OPTION_MULTICAST_LOOP = 2,
    DGRAM_OPTION_MULTICAST_IF = 3
};

/*
 * Linux returns a truncated datagram's real length when MSG_TRUNC is passed to recvmsg; the BSDs and macOS do
 * not know the input flag (they only set MSG_TRUNC in msg_flags), so there the length is what was copied.
 */
#if defined(__linux__)
#define WEIR_RECV_TRUNC_FLAG MSG_TRUNC
#else
#define WEIR_RECV_TRUNC_FLAG 0
#endif

/*
 * Receives one datagram of at most capacity bytes with recvmsg, retrying EINTR: 0 with the sender in addr/addrlen,
 * the length in *length and *truncated set if the datagram did not fit, or -errno.
 */
static int recv_one(int fd, void* buffer, size_t capacity, struct sockaddr_storage* addr, socklen_t* addrlen,
                    size_t* length, int* truncated) {
    struct iovec iov;
    iov.iov_base = buffer;
    iov.iov_len = capacity;
    struct msghdr msg;
    ssize_t res;
    do {
        memset(&msg, 0, sizeof(msg));
        msg.msg_name = addr;
        msg.msg_namelen = sizeof(*addr);
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        res = recvmsg(fd, &msg, WEIR_RECV_TRUNC_FLAG);
    } while (res == -1 && errno == EINTR);
    if (res == -1) {
        return weir_neg_errno();
    }
    *addrlen = msg.msg_namelen;
    *length = (size_t) res;
    *truncated = (msg.msg_flags & MSG_TRUNC) != 0 || (size_t) res > capacity;
    return 0;
}

/*
 * Receives one datagram into slot 0's buffer: 1, or -errno (-EAGAIN: none waiting). A datagram longer than the
 * buffer is flagged truncated (msg_flags' MSG_TRUNC, which Linux and the BSDs both set), never passed off as a
 * short one.
 */
static jint weir_recvFrom(JNIEnv* env, jclass clazz, jint fd, jlong slotAddress) {
    struct weir_dgram_slot* slot = weir_dgram_slot_at(slotAddress);
    struct sockaddr_storage addr;
    socklen_t addrlen = 0;
    size_t length = 0;
    int truncated = 0;
    int res = recv_one(fd, (void*) (intptr_t) slot->address, (size_t) slot->length, &addr, &addrlen,
                       &length, &truncated);
    if (res < 0) {
        return res;
    }
    slot->flags = truncated ? 1 : 0;
    slot->length = length > INT32_MAX ? INT32_MAX : (int32_t) length;
    weir_dgram_slot_set_peer(slot, &addr, addrlen);
    return 1;
}

/* Sends slot 0's datagram (addrlen 0: to the connected peer): the bytes sent, or -errno. */
static jint weir_sendTo(JNIEnv* env, jclass clazz, jint fd, jboolean ipv6, jlong slotAddress) {
    struct weir_dgram_slot* slot = weir_dgram_slot_at(slotAddress);
    struct sockaddr_storage addr;
    socklen_t len = 0;
    if (slot->addrlen != 0) {
        int err = weir_dgram_slot_get_peer(slot, ipv6, &addr, &len);
        if (err != 0) {
            return err;
        }
    }
    struct iovec iov;
    iov.iov_base = (void*) (intptr_t) slot->address;
    iov.iov_len = (size_t) slot->length;
    struct msghdr msg;
    memset(&msg, 0, sizeof(msg));
    msg.msg_name = len == 0 ? NULL : &addr;
    msg.msg_namelen = len;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    ssize_t res;
    do {
        res = sendmsg(fd, &msg, 0);
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : (jint) res;
}

/* Dissolves a connected socket's association (connect to AF_UNSPEC); 0 or -errno. */
static jint weir_disconnect(JNIEnv* env, jclass clazz, jint fd, jboolean ipv6) {
    struct sockaddr_storage addr;
    memset(&addr, 0, sizeof(addr));
    addr.ss_family = AF_UNSPEC;
    socklen_t len = ipv6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    int res;
    do {
        res = connect(fd, (struct sockaddr*) &addr, len);
    } while (res == -1 && errno == EINTR);
    /* Some kernels answer AF_UNSPEC with EAFNOSUPPORT after having disconnected all the same. */
    return res == -1 && errno != EAFNOSUPPORT ? weir_neg_errno() : 0;
}

/* An IPv6 (dual-stack) socket's multicast option, and best effort its IPv4 twin, which its IPv4 traffic follows. */
static jint set_multicast_option(int fd, jboolean ipv6, int ipv6Name, int ipv4Name, int value) {
    if (!ipv6) {
        if (weir_set_int_option(fd, IPPROTO_IP, ipv4Name, value) == 0) {
            return 0;
        }
        /* The BSDs take IP_MULTICAST_TTL/LOOP as one byte. */
        unsigned char byte = (unsigned char) value;
        return setsockopt(fd, IPPROTO_IP, ipv4Name, &byte, sizeof(byte)) == -1 ? weir_neg_errno() : 0;
    }
    jint res = weir_set_int_option(fd, IPPROTO_IPV6, ipv6Name, value);
    if (res == 0 && setsockopt(fd, IPPROTO_IP, ipv4Name, &value, sizeof(value)) == -1) {
        unsigned char byte = (unsigned char) value;
        setsockopt(fd, IPPROTO_IP, ipv4Name, &byte, sizeof(byte));
    }
    return res;
}

static jint weir_setDatagramOption(JNIEnv* env, jclass clazz, jint fd, jboolean ipv6, jint option, jint value) {
    switch (option) {
        case DGRAM_OPTION_BROADCAST:
            return weir_set_int_option(fd, SOL_SOCKET, SO_BROADCAST, value);
        case DGRAM_OPTION_MULTICAST_TTL:
            return set_multicast_option(fd, ipv6, IPV6_MULTICAST_HOPS, IP_MULTICAST_TTL, value);
        case DGRAM_OPTION_MULTICAST_LOOP:
            return set_multicast_option(fd, ipv6, IPV6_MULTICAST_LOOP, IP_MULTICAST_LOOP, value);
        default:
            return -ENOPROTOOPT;
    }
}

/*
 * A datagram option's value (>= 0) or -errno. DGRAM_OPTION_MULTICAST_IF: an IPv6 socket's interface index, an IPv4
 * socket's interface address as an unsigned 32-bit number (0: none), since that is what IP_MULTICAST_IF gives back.
 */
static jlong weir_getDatagramOption(JNIEnv* env, jclass clazz, jint fd, jboolean ipv6, jint option) {
    int v = 0;
    socklen_t len = sizeof(v);
    int res;
    switch (option) {
        case DGRAM_OPTION_BROADCAST:
            res = getsockopt(fd, SOL_SOCKET, SO_BROADCAST, &v, &len);
            break;
        case DGRAM_OPTION_MULTICAST_TTL:
            res = ipv6 ? getsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &v, &len)
                       : getsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &v, &len);
            break;
        case DGRAM_OPTION_MULTICAST_LOOP:
            res = ipv6 ? getsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &v, &len)
                       : getsockopt(fd, IPPROTO_IP, IP_MULTICAST_LOOP, &v, &len);
            break;
        case DGRAM_OPTION_MULTICAST_IF:
            if (ipv6) {
                res = getsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &v, &len);
                break;
            } else {
                struct in_addr addr;
                socklen_t addrLen = sizeof(addr);
                memset(&addr, 0, sizeof(addr));
                if (getsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &addr, &addrLen) == -1) {
                    return weir_neg_errno();
                }
                return (jlong) ntohl(addr.s_addr);
            }
        default:
            return -ENOPROTOOPT;
    }
    if (res == -1) {
        return weir_neg_errno();
    }
    /* A one-byte answer (the BSDs' IP_MULTICAST_TTL/LOOP) sits in the int's first byte. */
    return len == 1 ? (jlong) *(unsigned char*) &v : (jlong) v;
}

/*
 * Sets the interface multicast datagrams leave from: IPv6 by index; IPv4 on Linux by index and address (struct
 * ip_mreqn, so an interface without an IPv4 address can be chosen and the address read back), elsewhere by the
 * interface's address (struct in_addr, the form the BSDs take). ipv4Address is big-endian, 0 if the interface has
 * none; ifindex 0 lets the routing table decide. 0 or -errno.
 */
static jint weir_setMulticastInterface(JNIEnv* env, jclass clazz, jint fd, jboolean ipv6, jint ifindex,
                                       jint ipv4Address) {
#if defined(__linux__)
    struct ip_mreqn v4;
    memset(&v4, 0, sizeof(v4));
    v4.imr_address.s_addr = htonl((uint32_t) ipv4Address);
    v4.imr_ifindex = ifindex;
#else
    struct in_addr v4;
    v4.s_addr = htonl((uint32_t) ipv4Address);
#endif
    if (ipv6) {
        int index = (int) ifindex;
        if (setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &index, sizeof(index)) == -1) {
            return weir_neg_errno();
        }
        setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &v4, sizeof(v4));
        return 0;
    }
    return setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &v4, sizeof(v4)) == -1 ? weir_neg_errno() : 0;
}

static int slot_own_sockaddr(const struct weir_dgram_slot* slot, struct sockaddr_storage* addr) {
    socklen_t ignored;
    return weir_dgram_slot_get_peer(slot, slot->addrlen == 16 ? JNI_TRUE : JNI_FALSE, addr, &ignored);
}

/*
 * Joins or leaves the group in slot 0 on interface ifindex (0: the kernel picks by route), from the source in
 * slot 1 only if its addrlen is not 0: the protocol-independent MCAST_* options of RFC 3678, which Linux, the BSDs
 * and macOS all have. The group's family chooses the level. 0 or -errno.
 */
static jint weir_multicastMembership(JNIEnv* env, jclass clazz, jint fd, jboolean join, jint ifindex,
                                     jlong slotsAddress) {
    struct weir_dgram_slot* slots = weir_dgram_slot_at(slotsAddress);
    int level = slots[0].addrlen == 16 ? IPPROTO_IPV6 : IPPROTO_IP;
    if (slots[1].addrlen == 0) {
        struct group_req req;
        memset(&req, 0, sizeof(req));
        req.gr_interface = (uint32_t) ifindex;
        int err = slot_own_sockaddr(&slots[0], &req.gr_group);
        if (err != 0) {
            return err;
        }
        int name = join ? MCAST_JOIN_GROUP : MCAST_LEAVE_GROUP;
        return setsockopt(fd, level, name, &req, sizeof(req)) == -1 ? weir_neg_errno() : 0;
    }
    if (slots[1].addrlen != slots[0].addrlen) {
        return -EINVAL;
    }
    struct group_source_req req;
    memset(&req, 0, sizeof(req));
    req.gsr_interface = (uint32_t) ifindex;
    int err = slot_own_sockaddr(&slots[0], &req.gsr_group);
    if (err == 0) {
        err = slot_own_sockaddr(&slots[1], &req.gsr_source);
    }
    if (err != 0) {
        return err;
    }
    int name = join ? MCAST_JOIN_SOURCE_GROUP : MCAST_LEAVE_SOURCE_GROUP;
    return setsockopt(fd, level, name, &req, sizeof(req)) == -1 ? weir_neg_errno() : 0;
}

static const JNINativeMethod dgram_socket_methods[] = {
    { "recvFrom", "(IJ)I", (void*) weir_recvFrom },
    { "sendTo", "(IZJ)I", (void*) weir_sendTo },
    { "disconnect", "(IZ)I", (void*) weir_disconnect },
    { "setDatagramOption", "(IZII)I", (void*) weir_setDatagramOption },
    { "getDatagramOption", "(IZI)J", (void*) weir_getDatagramOption },
    { "setMulticastInterface", "(IZII)I", (void*) weir_setMulticastInterface },
    { "multicastMembership", "(IZIJ)I", (void*) weir_multicastMembership },
};

int weir_unix_dgram_jni_load(JNIEnv* env) {
    return weir_register_natives(env, DGRAM_SOCKET_NATIVE_CLASS, dgram_socket_methods,
                                 (jint) (sizeof(dgram_socket_methods) / sizeof(dgram_socket_methods[0])));
}
