/*
 * The natives of io.weir.channel.epoll.NativeDatagram: batched UDP receive and send (recvmmsg/sendmmsg, with
 * recvfrom/sendto for a single datagram), disconnect, multicast membership and the datagram-only socket
 * options. Registered by weir_epoll_dgram_jni_load() from the library's JNI_OnLoad.
 *
 * Return convention: >= 0 success, -errno failure. No JNI exception is ever raised here: the Java side passes
 * the address of a per-thread slot array (see struct dgram_slot) instead of Java arrays, so these calls touch
 * no Java object at all.
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

#include "weir_epoll_dgram.h"
#include "weir_unix.h"

#define DGRAM_NATIVE_CLASS "io/weir/channel/epoll/NativeDatagram"

/* Kept in sync with NativeDatagram.MAX_MESSAGES_PER_SYSCALL; bounds the arrays built on the stack (~13 KiB). */
#define MAX_MESSAGES_PER_SYSCALL 64

/* Datagram option ids; kept in sync with NativeDatagram.OPTION_*. */
enum {
    DGRAM_OPTION_BROADCAST = 0,
    DGRAM_OPTION_MULTICAST_TTL = 1,
    DGRAM_OPTION_MULTICAST_LOOP = 2,
    DGRAM_OPTION_MULTICAST_IF = 3
};

/*
 * One datagram as Java writes and reads it (native byte order), SLOT_BYTES apart; drawn in NativeDatagram.
 *   address: the buffer's memory; length: in, its capacity (receive) or the bytes to send; out (receive),
 *   the datagram's real length, which exceeds the capacity when truncated; flags: out, 1 if truncated.
 *   addr/scope/port/addrlen: the peer (4 or 16 address bytes; addrlen 0 = none, for a connected send).
 */
struct dgram_slot {
    uint64_t address;
    int32_t length;
    int32_t flags;
    uint8_t addr[16];
    int32_t scope;
    int32_t port;
    int32_t addrlen;
    uint8_t unused[20];
};

_Static_assert(sizeof(struct dgram_slot) == 64, "NativeDatagram.SLOT_BYTES");
_Static_assert(offsetof(struct dgram_slot, length) == 8, "NativeDatagram.LENGTH_OFFSET");
_Static_assert(offsetof(struct dgram_slot, flags) == 12, "NativeDatagram.FLAGS_OFFSET");
_Static_assert(offsetof(struct dgram_slot, addr) == 16, "NativeDatagram.ADDRESS_OFFSET");
_Static_assert(offsetof(struct dgram_slot, scope) == 32, "NativeDatagram.SCOPE_OFFSET");
_Static_assert(offsetof(struct dgram_slot, port) == 36, "NativeDatagram.PORT_OFFSET");
_Static_assert(offsetof(struct dgram_slot, addrlen) == 40, "NativeDatagram.ADDRESS_LENGTH_OFFSET");

static struct dgram_slot* slots_at(jlong address) {
    return (struct dgram_slot*) (intptr_t) address;
}

/* Stores a received peer address; an IPv4-mapped IPv6 address is stored as the IPv4 one. */
static void slot_from_sockaddr(struct dgram_slot* slot, const struct sockaddr_storage* addr, socklen_t len) {
    /* Zeroed whole, so that Java can compare two peers by their 16 bytes whatever the family. */
    memset(slot->addr, 0, sizeof(slot->addr));
    uint32_t scope = 0;
    uint16_t port = 0;
    int n = weir_from_inet_sockaddr(addr, len, slot->addr, &scope, &port);
    slot->scope = (int32_t) scope;
    slot->port = port;
    slot->addrlen = n < 0 ? 0 : n;
}

/*
 * The sockaddr of a slot's peer for a socket of the given family: on an IPv6 (dual-stack) socket an IPv4
 * address becomes IPv4-mapped. Returns 0, -EAFNOSUPPORT (IPv6 peer, IPv4 socket) or -EINVAL (bad length).
 */
static int slot_to_sockaddr(const struct dgram_slot* slot, jboolean ipv6, struct sockaddr_storage* addr,
                            socklen_t* len) {
    return weir_to_inet_sockaddr(slot->addr, slot->addrlen, (uint32_t) slot->scope, slot->port, ipv6, addr, len);
}

/* The group (or source) of a membership as its own family's sockaddr; 0 or -EINVAL. */
static int slot_to_own_sockaddr(const struct dgram_slot* slot, struct sockaddr_storage* addr) {
    socklen_t ignored;
    return slot_to_sockaddr(slot, slot->addrlen == 16 ? JNI_TRUE : JNI_FALSE, addr, &ignored);
}

/*
 * Receives up to count datagrams into the slots' buffers. MSG_TRUNC makes the kernel report each datagram's
 * real length, so a truncated one is recognised and not mistaken for a short datagram. Returns the number
 * received (>= 1) or -errno (-EAGAIN: none waiting).
 */
static jint weir_recvmmsg(JNIEnv* env, jclass clazz, jint fd, jlong slotsAddress, jint count) {
    struct dgram_slot* slots = slots_at(slotsAddress);
    if (count <= 0 || count > MAX_MESSAGES_PER_SYSCALL) {
        return -EINVAL;
    }
    if (count == 1) {
        /* One datagram wanted: recvfrom spares building the message header array. */
        struct sockaddr_storage addr;
        socklen_t len;
        ssize_t res;
        do {
            len = sizeof(addr);
            res = recvfrom(fd, (void*) (intptr_t) slots[0].address, (size_t) slots[0].length, MSG_TRUNC,
                           (struct sockaddr*) &addr, &len);
        } while (res == -1 && errno == EINTR);
        if (res == -1) {
            return weir_neg_errno();
        }
        slots[0].flags = res > slots[0].length ? 1 : 0;
        slots[0].length = (int32_t) res;
        slot_from_sockaddr(&slots[0], &addr, len);
        return 1;
    }
    struct mmsghdr msgs[MAX_MESSAGES_PER_SYSCALL];
    struct iovec iovs[MAX_MESSAGES_PER_SYSCALL];
    struct sockaddr_storage addrs[MAX_MESSAGES_PER_SYSCALL];
    memset(msgs, 0, sizeof(struct mmsghdr) * (size_t) count);
    for (int i = 0; i < count; i++) {
        iovs[i].iov_base = (void*) (intptr_t) slots[i].address;
        iovs[i].iov_len = (size_t) slots[i].length;
        msgs[i].msg_hdr.msg_name = &addrs[i];
        msgs[i].msg_hdr.msg_namelen = sizeof(addrs[i]);
        msgs[i].msg_hdr.msg_iov = &iovs[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
    }
    int res;
    do {
        res = recvmmsg(fd, msgs, (unsigned int) count, MSG_TRUNC, NULL);
    } while (res == -1 && errno == EINTR);
    if (res == -1) {
        return weir_neg_errno();
    }
    for (int i = 0; i < res; i++) {
        unsigned int length = msgs[i].msg_len;
        slots[i].flags = (msgs[i].msg_hdr.msg_flags & MSG_TRUNC) != 0 || length > (unsigned int) slots[i].length;
        slots[i].length = (int32_t) length;
        slot_from_sockaddr(&slots[i], &addrs[i], msgs[i].msg_hdr.msg_namelen);
    }
    return res;
}

/*
 * Sends count datagrams from the slots (addrlen 0: to the connected peer). Returns how many the kernel took
 * (>= 1; fewer than count when the socket buffer filled or a later datagram failed, which the next call then
 * reports), or -errno for the first one. A slot whose address does not suit the socket ends the batch before
 * it, so its error is reported for it alone.
 */
static jint weir_sendmmsg(JNIEnv* env, jclass clazz, jint fd, jboolean ipv6, jlong slotsAddress, jint count) {
    struct dgram_slot* slots = slots_at(slotsAddress);
    if (count <= 0 || count > MAX_MESSAGES_PER_SYSCALL) {
        return -EINVAL;
    }
    if (count == 1) {
        struct sockaddr_storage addr;
        socklen_t len = 0;
        if (slots[0].addrlen != 0) {
            int err = slot_to_sockaddr(&slots[0], ipv6, &addr, &len);
            if (err != 0) {
                return err;
            }
        }
        ssize_t res;
        do {
            res = sendto(fd, (const void*) (intptr_t) slots[0].address, (size_t) slots[0].length, 0,
                         len == 0 ? NULL : (const struct sockaddr*) &addr, len);
        } while (res == -1 && errno == EINTR);
        return res == -1 ? weir_neg_errno() : 1;
    }
    struct mmsghdr msgs[MAX_MESSAGES_PER_SYSCALL];
    struct iovec iovs[MAX_MESSAGES_PER_SYSCALL];
    struct sockaddr_storage addrs[MAX_MESSAGES_PER_SYSCALL];
    memset(msgs, 0, sizeof(struct mmsghdr) * (size_t) count);
    int n = 0;
    for (; n < count; n++) {
        iovs[n].iov_base = (void*) (intptr_t) slots[n].address;
        iovs[n].iov_len = (size_t) slots[n].length;
        msgs[n].msg_hdr.msg_iov = &iovs[n];
        msgs[n].msg_hdr.msg_iovlen = 1;
        if (slots[n].addrlen != 0) {
            socklen_t len;
            int err = slot_to_sockaddr(&slots[n], ipv6, &addrs[n], &len);
            if (err != 0) {
                if (n == 0) {
                    return err;
                }
                break;
            }
            msgs[n].msg_hdr.msg_name = &addrs[n];
            msgs[n].msg_hdr.msg_namelen = len;
        }
    }
    int res;
    do {
        res = sendmmsg(fd, msgs, (unsigned int) n, 0);
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : res;
}

/* Dissolves a connected socket's association (connect to AF_UNSPEC); the socket stays bound. */
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

/*
 * Sets a multicast option: on an IPv4 socket its IPv4 name; on an IPv6 (dual-stack) socket its IPv6 name and then,
 * best effort, the IPv4 twin too, since IPv4 traffic of such a socket follows the IPv4 option. 0 or -errno.
 */
static jint set_multicast_option(int fd, jboolean ipv6, int ipv6Name, int ipv4Name, int value) {
    if (!ipv6) {
        return weir_set_int_option(fd, IPPROTO_IP, ipv4Name, value);
    }
    jint res = weir_set_int_option(fd, IPPROTO_IPV6, ipv6Name, value);
    if (res == 0) {
        setsockopt(fd, IPPROTO_IP, ipv4Name, &value, sizeof(value));
    }
    return res;
}

/* Sets a datagram option; 0, -ENOPROTOOPT for an unknown id, or -errno. */
static jint weir_setDatagramOption(JNIEnv* env, jclass clazz, jint fd, jboolean ipv6, jint option, jint value) {
    int v = (int) value;
    switch (option) {
        case DGRAM_OPTION_BROADCAST:
            return weir_set_int_option(fd, SOL_SOCKET, SO_BROADCAST, v);
        case DGRAM_OPTION_MULTICAST_TTL:
            return set_multicast_option(fd, ipv6, IPV6_MULTICAST_HOPS, IP_MULTICAST_TTL, v);
        case DGRAM_OPTION_MULTICAST_LOOP:
            return set_multicast_option(fd, ipv6, IPV6_MULTICAST_LOOP, IP_MULTICAST_LOOP, v);
        default:
            return -ENOPROTOOPT;
    }
}

/*
 * Reads a datagram option: its value (>= 0) or -errno. For DGRAM_OPTION_MULTICAST_IF an IPv6 socket reports
 * the interface index and an IPv4 socket the interface's address (an unsigned 32-bit number, 0 for none),
 * since that is all IP_MULTICAST_IF gives back.
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
            } else {
                struct in_addr addr;
                socklen_t addrLen = sizeof(addr);
                memset(&addr, 0, sizeof(addr));
                if (getsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &addr, &addrLen) == -1) {
                    return weir_neg_errno();
                }
                return (jlong) ntohl(addr.s_addr);
            }
            break;
        default:
            return -ENOPROTOOPT;
    }
    if (res == -1) {
        return weir_neg_errno();
    }
    /* IP_MULTICAST_TTL/LOOP may come back as one byte when the kernel thinks the caller asked for one. */
    return len == 1 ? (jlong) *(unsigned char*) &v : (jlong) v;
}

/*
 * Sets the interface multicast datagrams leave from: ifindex (0: the routing table decides) and, for the IPv4
 * option, ipv4Address (big-endian number; 0 if the interface has none) so that it can be read back.
 */
static jint weir_setMulticastInterface(JNIEnv* env, jclass clazz, jint fd, jboolean ipv6, jint ifindex,
                                       jint ipv4Address) {
    struct ip_mreqn mreq;
    memset(&mreq, 0, sizeof(mreq));
    mreq.imr_address.s_addr = htonl((uint32_t) ipv4Address);
    mreq.imr_ifindex = ifindex;
    if (ipv6) {
        int index = (int) ifindex;
        if (setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &index, sizeof(index)) == -1) {
            return weir_neg_errno();
        }
        setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &mreq, sizeof(mreq));
        return 0;
    }
    return setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &mreq, sizeof(mreq)) == -1 ? weir_neg_errno() : 0;
}

/*
 * Joins or leaves the group in slot 0 on interface ifindex (0: the kernel picks by route), from the source in
 * slot 1 only if its addrlen is not 0. The group's family chooses the level: an IPv4 group on an IPv6
 * dual-stack socket is handled by the IPv4 layer, as for any IPv4 traffic of that socket.
 */
static jint weir_multicastMembership(JNIEnv* env, jclass clazz, jint fd, jboolean join, jint ifindex,
                                     jlong slotsAddress) {
    struct dgram_slot* slots = slots_at(slotsAddress);
    int level = slots[0].addrlen == 16 ? IPPROTO_IPV6 : IPPROTO_IP;
    if (slots[1].addrlen == 0) {
        struct group_req req;
        memset(&req, 0, sizeof(req));
        req.gr_interface = (uint32_t) ifindex;
        int err = slot_to_own_sockaddr(&slots[0], &req.gr_group);
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
    int err = slot_to_own_sockaddr(&slots[0], &req.gsr_group);
    if (err == 0) {
        err = slot_to_own_sockaddr(&slots[1], &req.gsr_source);
    }
    if (err != 0) {
        return err;
    }
    int name = join ? MCAST_JOIN_SOURCE_GROUP : MCAST_LEAVE_SOURCE_GROUP;
    return setsockopt(fd, level, name, &req, sizeof(req)) == -1 ? weir_neg_errno() : 0;
}

static jint weir_maxMessagesPerSyscall(JNIEnv* env, jclass clazz) {
    return MAX_MESSAGES_PER_SYSCALL;
}

static const JNINativeMethod dgram_methods[] = {
    { "recvmmsg", "(IJI)I", (void*) weir_recvmmsg },
    { "sendmmsg", "(IZJI)I", (void*) weir_sendmmsg },
    { "disconnect", "(IZ)I", (void*) weir_disconnect },
    { "setDatagramOption", "(IZII)I", (void*) weir_setDatagramOption },
    { "getDatagramOption", "(IZI)J", (void*) weir_getDatagramOption },
    { "setMulticastInterface", "(IZII)I", (void*) weir_setMulticastInterface },
    { "multicastMembership", "(IZIJ)I", (void*) weir_multicastMembership },
    { "maxMessagesPerSyscall", "()I", (void*) weir_maxMessagesPerSyscall },
};

int weir_epoll_dgram_jni_load(JNIEnv* env) {
    return weir_register_natives(env, DGRAM_NATIVE_CLASS, dgram_methods,
                                 (jint) (sizeof(dgram_methods) / sizeof(dgram_methods[0])));
}
