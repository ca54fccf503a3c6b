/*
 * The natives of io.weir.channel.epoll.NativeDatagram: batched UDP receive and send (recvmmsg/sendmmsg, with
 * recvfrom/sendto for a single datagram). Disconnect, multicast membership and the datagram socket options are
 * unix-common's (weir_unix_dgram.c), shared with kqueue. Registered by weir_epoll_dgram_jni_load() from the
 * library's JNI_OnLoad.
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

static jint weir_maxMessagesPerSyscall(JNIEnv* env, jclass clazz) {
    return MAX_MESSAGES_PER_SYSCALL;
}

static const JNINativeMethod dgram_methods[] = {
    { "recvmmsg", "(IJI)I", (void*) weir_recvmmsg },
    { "sendmmsg", "(IZJI)I", (void*) weir_sendmmsg },
    { "maxMessagesPerSyscall", "()I", (void*) weir_maxMessagesPerSyscall },
};

int weir_epoll_dgram_jni_load(JNIEnv* env) {
    return weir_register_natives(env, DGRAM_NATIVE_CLASS, dgram_methods,
                                 (jint) (sizeof(dgram_methods) / sizeof(dgram_methods[0])));
}
