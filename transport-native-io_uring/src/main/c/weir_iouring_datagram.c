/*
 * The natives of io.weir.channel.uring.IoUringDatagramNative: the msghdr blocks an io_uring datagram channel lends
 * the kernel for IORING_OP_RECVMSG and IORING_OP_SENDMSG. Java owns the memory (one block per operation, kept until
 * that operation's completion); these functions only fill a block before submission and read it after completion,
 * converting between the kernel's sockaddr and the datagram slot Java decodes (struct weir_dgram_slot), so the
 * address handling is unix-common's. Registered by weir_iouring_datagram_jni_load(), called from JNI_OnLoad.
 *
 * Return convention: >= 0 success, -errno failure. No JNI exception is raised and no Java object touched.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "weir_unix.h"
#include "weir_unix_dgram.h"

#define IOURING_DATAGRAM_NATIVE_CLASS "io/weir/channel/uring/IoUringDatagramNative"

/*
 * One operation's memory: the msghdr the SQE points to, its one iovec and the peer's address. The kernel reads
 * (sendmsg) or writes (recvmsg) all three until the operation completes.
 */
struct weir_uring_msg {
    struct msghdr hdr;
    struct iovec iov;
    struct sockaddr_storage addr;
};

/* IoUringDatagramNative.MSG_BYTES: the room Java gives each block. */
_Static_assert(sizeof(struct weir_uring_msg) <= 256, "IoUringDatagramNative.MSG_BYTES");
/* IoUringDatagramNative.MSG_TRUNC, the receive flag that makes the kernel report a datagram's real length. */
_Static_assert(MSG_TRUNC == 0x20, "IoUringDatagramNative.MSG_TRUNC");

static struct weir_uring_msg* msg_at(jlong address) {
    return (struct weir_uring_msg*) (intptr_t) address;
}

static void point_at(struct weir_uring_msg* msg, jlong buffer, size_t length) {
    memset(&msg->hdr, 0, sizeof(msg->hdr));
    msg->iov.iov_base = (void*) (intptr_t) buffer;
    msg->iov.iov_len = length;
    msg->hdr.msg_iov = &msg->iov;
    msg->hdr.msg_iovlen = 1;
}

/* Prepares a block for a receive of up to capacity bytes into buffer, with room for the sender's address. */
static void weir_prepareReceive(JNIEnv* env, jclass clazz, jlong msgAddress, jlong buffer, jint capacity) {
    struct weir_uring_msg* msg = msg_at(msgAddress);
    point_at(msg, buffer, (size_t) capacity);
    msg->hdr.msg_name = &msg->addr;
    msg->hdr.msg_namelen = sizeof(msg->addr);
}

/*
 * After a receive completed with res >= 0 bytes (the real length, MSG_TRUNC being asked for): slot 0 gets the
 * length, whether the datagram was cut to the buffer, and the sender.
 */
static void weir_received(JNIEnv* env, jclass clazz, jlong msgAddress, jlong slotAddress, jint res) {
    struct weir_uring_msg* msg = msg_at(msgAddress);
    struct weir_dgram_slot* slot = weir_dgram_slot_at(slotAddress);
    slot->length = res;
    slot->flags = (msg->hdr.msg_flags & MSG_TRUNC) != 0 || (size_t) res > msg->iov.iov_len ? 1 : 0;
    weir_dgram_slot_set_peer(slot, &msg->addr, msg->hdr.msg_namelen);
}

/*
 * Prepares a block for sending slot 0's datagram (its buffer and length) to slot 0's peer (addrlen 0: the connected
 * one) from a socket of the given family: 0, or -EAFNOSUPPORT / -EINVAL for a peer the socket cannot reach.
 */
static jint weir_prepareSend(JNIEnv* env, jclass clazz, jlong msgAddress, jlong slotAddress, jboolean ipv6) {
    struct weir_uring_msg* msg = msg_at(msgAddress);
    const struct weir_dgram_slot* slot = weir_dgram_slot_at(slotAddress);
    point_at(msg, (jlong) slot->address, (size_t) slot->length);
    if (slot->addrlen != 0) {
        socklen_t len = 0;
        int err = weir_dgram_slot_get_peer(slot, ipv6, &msg->addr, &len);
        if (err != 0) {
            return err;
        }
        msg->hdr.msg_name = &msg->addr;
        msg->hdr.msg_namelen = len;
    }
    return 0;
}

static const JNINativeMethod datagram_methods[] = {
    { "prepareReceive", "(JJI)V", (void*) weir_prepareReceive },
    { "received", "(JJI)V", (void*) weir_received },
    { "prepareSend", "(JJZ)I", (void*) weir_prepareSend },
};

/* Registers io.weir.channel.uring.IoUringDatagramNative; 0, or -1 with a pending exception. */
int weir_iouring_datagram_jni_load(JNIEnv* env) {
    jint count = (jint) (sizeof(datagram_methods) / sizeof(datagram_methods[0]));
    return weir_register_natives(env, IOURING_DATAGRAM_NATIVE_CLASS, datagram_methods, count);
}
