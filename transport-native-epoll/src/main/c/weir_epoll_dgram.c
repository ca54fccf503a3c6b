/*
 * The natives of io.weir.channel.epoll.NativeDatagram: batched UDP receive and send (recvmmsg/sendmmsg, with
 * recvfrom/sendto for a single datagram). Disconnect, multicast membership and the datagram socket options are
 * unix-common's (weir_unix_dgram.c), shared with kqueue. Registered by weir_epoll_dgram_jni_load() from the
 * library's JNI_OnLoad.
 *
 * Return convention: >= 0 success, -errno failure. No JNI exception is ever raised here: the Java side passes
 * the address of a per-thread slot array (struct weir_dgram_slot, weir_unix_dgram.h) instead of Java arrays,
 * so these calls touch no Java object at all.
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
#include "weir_unix_dgram.h"

#define DGRAM_NATIVE_CLASS "io/weir/channel/epoll/NativeDatagram"

/* Kept in sync with NativeDatagram.MAX_MESSAGES_PER_SYSCALL (DatagramSlots.SLOTS); bounds the arrays built on
 * the stack (~13 KiB). */
#define MAX_MESSAGES_PER_SYSCALL 64

/*
 * Receives up to count datagrams into the slots' buffers. MSG_TRUNC makes the kernel report each datagram's
 * real length, so a truncated one is recognised and not mistaken for a short datagram. Returns the number
 * received (>= 1) or -errno (-EAGAIN: none waiting).
 */
static jint weir_recvmmsg(JNIEnv* env, jclass clazz, jint fd, jlong slotsAddress, jint count) {
    struct weir_dgram_slot* slots = weir_dgram_slot_at(slotsAddress);
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
        weir_dgram_slot_set_peer(&slots[0], &addr, len);
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
        weir_dgram_slot_set_peer(&slots[i], &addrs[i], msgs[i].msg_hdr.msg_namelen);
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
    struct weir_dgram_slot* slots = weir_dgram_slot_at(slotsAddress);
    if (count <= 0 || count > MAX_MESSAGES_PER_SYSCALL) {
        return -EINVAL;
    }
    if (count == 1) {
        struct sockaddr_storage addr;
        socklen_t len = 0;
        if (slots[0].addrlen != 0) {
            int err = weir_dgram_slot_get_peer(&slots[0], ipv6, &addr, &len);
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
            int err = weir_dgram_slot_get_peer(&slots[n], ipv6, &addrs[n], &len);
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
