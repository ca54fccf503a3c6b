/*
 * The natives of io.weir.channel.uring.Native: io_uring through the kernel ABI (raw system calls, no liburing),
 * eventfd, and the library's JNI_OnLoad, which also registers the shared io.weir.channel.unix natives.
 * Return convention: >= 0 success, -errno failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/io_uring.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "weir_unix.h"

#define IOURING_NATIVE_CLASS "io/weir/channel/uring/Native"

/* weir_iouring_datagram.c: registers io.weir.channel.uring.IoUringDatagramNative; 0, or -1 with an exception. */
int weir_iouring_datagram_jni_load(JNIEnv* env);
/* weir_iouring_splice.c: registers io.weir.channel.uring.IoUringSpliceNative; 0, or -1 with an exception. */
int weir_iouring_splice_jni_load(JNIEnv* env);
void weir_iouring_splice_jni_unload(JNIEnv* env);
#define NANOS_PER_SECOND 1000000000LL

/* Older C libraries lack the numbers; they are the same on every architecture since Linux 5.1. */
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
#ifndef __NR_io_uring_enter
#define __NR_io_uring_enter 426
#endif
#ifndef __NR_io_uring_register
#define __NR_io_uring_register 427
#endif

/* Linux 6.3's feature bit, missing from older headers; the kernel ABI fixes its value. */
#ifndef IORING_FEAT_REG_REG_RING
#define IORING_FEAT_REG_REG_RING (1U << 13)
#endif

/* Native and IoUringIoOps hold these as Java constants: prove they are the kernel's. */
_Static_assert(IORING_OP_NOP == 0 && IORING_OP_READV == 1 && IORING_OP_WRITEV == 2, "IoUringIoOps.OP_*");
_Static_assert(IORING_OP_POLL_ADD == 6 && IORING_OP_POLL_REMOVE == 7, "IoUringIoOps.OP_POLL_*");
_Static_assert(IORING_OP_SENDMSG == 9 && IORING_OP_RECVMSG == 10, "IoUringIoOps.OP_*MSG");
_Static_assert(IORING_OP_TIMEOUT == 11 && IORING_OP_ACCEPT == 13 && IORING_OP_ASYNC_CANCEL == 14, "IoUringIoOps.OP_*");
_Static_assert(IORING_OP_CONNECT == 16 && IORING_OP_CLOSE == 19 && IORING_OP_READ == 22, "IoUringIoOps.OP_*");
_Static_assert(IORING_OP_WRITE == 23 && IORING_OP_SEND == 26 && IORING_OP_RECV == 27, "IoUringIoOps.OP_*");
_Static_assert(IORING_OP_SHUTDOWN == 34 && IORING_OP_MSG_RING == 40 && IORING_OP_SEND_ZC == 47, "IoUringIoOps.OP_*");
_Static_assert(IORING_SETUP_CQSIZE == 1 << 3 && IORING_SETUP_R_DISABLED == 1 << 6, "Native.IORING_SETUP_*");
_Static_assert(IORING_SETUP_SUBMIT_ALL == 1 << 7 && IORING_SETUP_COOP_TASKRUN == 1 << 8, "Native.IORING_SETUP_*");
_Static_assert(IORING_SETUP_TASKRUN_FLAG == 1 << 9 && IORING_SETUP_SINGLE_ISSUER == 1 << 12, "Native.IORING_SETUP_*");
_Static_assert(IORING_SETUP_DEFER_TASKRUN == 1 << 13, "Native.IORING_SETUP_DEFER_TASKRUN");
_Static_assert(IORING_FEAT_SINGLE_MMAP == 1 << 0 && IORING_FEAT_NODROP == 1 << 1, "Native.IORING_FEAT_*");
_Static_assert(IORING_FEAT_SUBMIT_STABLE == 1 << 2 && IORING_FEAT_EXT_ARG == 1 << 8, "Native.IORING_FEAT_*");
_Static_assert(IORING_ENTER_GETEVENTS == 1 << 0 && IORING_ENTER_EXT_ARG == 1 << 3, "Native.IORING_ENTER_*");
_Static_assert(IORING_ENTER_REGISTERED_RING == 1 << 4, "Native.IORING_ENTER_REGISTERED_RING");
_Static_assert(IORING_CQE_F_MORE == 1 << 1, "IoUringIoEvent.CQE_F_MORE");
_Static_assert(IOSQE_BUFFER_SELECT == 1 << 5 && IORING_RECV_MULTISHOT == 1 << 1, "IoUringBufferRing, IoUringSocketChannel");
_Static_assert(IORING_CQE_F_BUFFER == 1 && IORING_CQE_BUFFER_SHIFT == 16, "IoUringIoEvent.CQE_F_BUFFER, BUFFER_SHIFT");
_Static_assert(ENOBUFS == 105, "Native.ENOBUFS");
_Static_assert(sizeof(struct io_uring_buf) == 16 && offsetof(struct io_uring_buf, len) == 8, "IoUringBufferRing.BUF_*");
_Static_assert(offsetof(struct io_uring_buf, bid) == 12 && offsetof(struct io_uring_buf_ring, tail) == 14,
               "IoUringBufferRing.BUF_BID, RING_TAIL");
_Static_assert(EPERM == 1 && ENOENT == 2 && EINTR == 4 && EAGAIN == 11 && EBUSY == 16 && EINVAL == 22, "Native.E*");
_Static_assert(ENOSYS == 38 && ETIME == 62 && EALREADY == 114 && ECANCELED == 125, "Native.E*");
_Static_assert(sizeof(struct io_uring_sqe) == 64 && sizeof(struct io_uring_cqe) == 16,
               "SubmissionQueue.SQE_BYTES, CompletionQueue.CQE_BYTES");
_Static_assert(offsetof(struct io_uring_sqe, user_data) == 32 && offsetof(struct io_uring_sqe, buf_index) == 40,
               "SubmissionQueue.SQE_*");
_Static_assert(offsetof(struct io_uring_sqe, splice_fd_in) == 44 && offsetof(struct io_uring_sqe, addr3) == 48,
               "SubmissionQueue.SQE_*");

/* The slots of the long[] ioUringSetup fills; Native.RING_* names the same indexes. */
enum {
    RING_FD = 0,
    RING_FEATURES,
    RING_FLAGS,
    RING_SQ_ENTRIES,
    RING_CQ_ENTRIES,
    RING_SQ_ADDRESS,
    RING_SQ_SIZE,
    RING_CQ_ADDRESS,
    RING_CQ_SIZE,
    RING_SQES_ADDRESS,
    RING_SQES_SIZE,
    RING_SQ_HEAD,
    RING_SQ_TAIL,
    RING_SQ_MASK,
    RING_SQ_FLAGS,
    RING_SQ_DROPPED,
    RING_SQ_ARRAY,
    RING_CQ_HEAD,
    RING_CQ_TAIL,
    RING_CQ_MASK,
    RING_CQ_OVERFLOW,
    RING_CQ_CQES,
    RING_INFO_LENGTH
};

static void unmap_rings(void* sq, size_t sqSize, void* cq, size_t cqSize, void* sqes, size_t sqesSize) {
    if (sqes != MAP_FAILED && sqes != NULL) {
        munmap(sqes, sqesSize);
    }
    if (cq != MAP_FAILED && cq != NULL && cq != sq) {
        munmap(cq, cqSize);
    }
    if (sq != MAP_FAILED && sq != NULL) {
        munmap(sq, sqSize);
    }
}

/*
 * io_uring_setup, then mmap of the SQ ring, the CQ ring (one mapping with IORING_FEAT_SINGLE_MMAP) and the SQE
 * array. Fills info[RING_INFO_LENGTH] and returns the ring's descriptor, or -errno with nothing left open.
 */
static jint weir_ioUringSetup(JNIEnv* env, jclass clazz, jint entries, jint cqEntries, jint flags, jlongArray info) {
    if ((*env)->GetArrayLength(env, info) < RING_INFO_LENGTH) {
        return -EINVAL;
    }
    struct io_uring_params p;
    memset(&p, 0, sizeof(p));
    p.flags = (uint32_t) flags;
    p.cq_entries = (uint32_t) cqEntries;
    int fd = (int) syscall(__NR_io_uring_setup, (unsigned) entries, &p);
    if (fd < 0) {
        return weir_neg_errno();
    }
    size_t sqSize = p.sq_off.array + p.sq_entries * sizeof(uint32_t);
    size_t cqSize = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    if ((p.features & IORING_FEAT_SINGLE_MMAP) && cqSize > sqSize) {
        sqSize = cqSize;
    }
    void* sq = mmap(NULL, sqSize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
    void* cq = sq;
    void* sqes = MAP_FAILED;
    size_t sqesSize = p.sq_entries * sizeof(struct io_uring_sqe);
    if (sq == MAP_FAILED) {
        goto fail;
    }
    if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
        cq = mmap(NULL, cqSize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_CQ_RING);
        if (cq == MAP_FAILED) {
            goto fail;
        }
    }
    sqes = mmap(NULL, sqesSize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
    if (sqes == MAP_FAILED) {
        goto fail;
    }
    jlong values[RING_INFO_LENGTH];
    values[RING_FD] = fd;
    values[RING_FEATURES] = p.features;
    values[RING_FLAGS] = p.flags;
    values[RING_SQ_ENTRIES] = p.sq_entries;
    values[RING_CQ_ENTRIES] = p.cq_entries;
    values[RING_SQ_ADDRESS] = (jlong) (intptr_t) sq;
    values[RING_SQ_SIZE] = (jlong) sqSize;
    values[RING_CQ_ADDRESS] = (jlong) (intptr_t) cq;
    values[RING_CQ_SIZE] = cq == sq ? 0 : (jlong) cqSize;
    values[RING_SQES_ADDRESS] = (jlong) (intptr_t) sqes;
    values[RING_SQES_SIZE] = (jlong) sqesSize;
    values[RING_SQ_HEAD] = p.sq_off.head;
    values[RING_SQ_TAIL] = p.sq_off.tail;
    values[RING_SQ_MASK] = p.sq_off.ring_mask;
    values[RING_SQ_FLAGS] = p.sq_off.flags;
    values[RING_SQ_DROPPED] = p.sq_off.dropped;
    values[RING_SQ_ARRAY] = p.sq_off.array;
    values[RING_CQ_HEAD] = p.cq_off.head;
    values[RING_CQ_TAIL] = p.cq_off.tail;
    values[RING_CQ_MASK] = p.cq_off.ring_mask;
    values[RING_CQ_OVERFLOW] = p.cq_off.overflow;
    values[RING_CQ_CQES] = p.cq_off.cqes;
    (*env)->SetLongArrayRegion(env, info, 0, RING_INFO_LENGTH, values);
    return fd;

fail:;
    int err = errno;
    unmap_rings(sq, sqSize, cq, cqSize, sqes, sqesSize);
    close(fd);
    return -err;
}

/* Undoes ioUringSetup's mappings (cqSize 0: the CQ shares the SQ's mapping). Does not close the descriptor. */
static void weir_ioUringUnmap(JNIEnv* env, jclass clazz, jlong sq, jlong sqSize, jlong cq, jlong cqSize,
                              jlong sqes, jlong sqesSize) {
    unmap_rings((void*) (intptr_t) sq, (size_t) sqSize, cqSize == 0 ? (void*) (intptr_t) sq : (void*) (intptr_t) cq,
                (size_t) cqSize, (void*) (intptr_t) sqes, (size_t) sqesSize);
}

/*
 * io_uring_enter. With IORING_ENTER_GETEVENTS and timeoutNanos >= 0 the wait ends after that long at the latest
 * (IORING_ENTER_EXT_ARG with a relative timespec, -ETIME). Not retried on EINTR: the loop simply goes round.
 */
static jint weir_ioUringEnter(JNIEnv* env, jclass clazz, jint fd, jint toSubmit, jint minComplete, jint flags,
                              jlong timeoutNanos) {
    int res;
    if ((flags & IORING_ENTER_GETEVENTS) && timeoutNanos >= 0) {
        struct __kernel_timespec ts;
        ts.tv_sec = timeoutNanos / NANOS_PER_SECOND;
        ts.tv_nsec = timeoutNanos % NANOS_PER_SECOND;
        struct io_uring_getevents_arg arg;
        memset(&arg, 0, sizeof(arg));
        arg.ts = (uint64_t) (uintptr_t) &ts;
        res = (int) syscall(__NR_io_uring_enter, fd, (unsigned) toSubmit, (unsigned) minComplete,
                            (unsigned) flags | IORING_ENTER_EXT_ARG, &arg, sizeof(arg));
    } else {
        res = (int) syscall(__NR_io_uring_enter, fd, (unsigned) toSubmit, (unsigned) minComplete,
                            (unsigned) flags, NULL, (size_t) 0);
    }
    return res < 0 ? weir_neg_errno() : res;
}

/* IORING_REGISTER_PROBE: supported[op] = 1 for every opcode the kernel supports, 0 otherwise; 0 or -errno. */
static jint weir_ioUringProbe(JNIEnv* env, jclass clazz, jint fd, jbyteArray supported) {
    enum { MAX_OPS = 256 };
    size_t size = sizeof(struct io_uring_probe) + MAX_OPS * sizeof(struct io_uring_probe_op);
    uint8_t storage[sizeof(struct io_uring_probe) + MAX_OPS * sizeof(struct io_uring_probe_op)];
    struct io_uring_probe* probe = (struct io_uring_probe*) storage;
    memset(storage, 0, size);
    if (syscall(__NR_io_uring_register, fd, IORING_REGISTER_PROBE, probe, MAX_OPS) < 0) {
        return weir_neg_errno();
    }
    jsize length = (*env)->GetArrayLength(env, supported);
    jbyte flags[MAX_OPS];
    memset(flags, 0, sizeof(flags));
    for (int i = 0; i < probe->ops_len && i < MAX_OPS; i++) {
        if (probe->ops[i].flags & IO_URING_OP_SUPPORTED) {
            flags[probe->ops[i].op] = 1;
        }
    }
    (*env)->SetByteArrayRegion(env, supported, 0, length < MAX_OPS ? length : MAX_OPS, flags);
    return 0;
}

/* IORING_REGISTER_ENABLE_RINGS: starts a ring set up with IORING_SETUP_R_DISABLED; its submitter is the caller. */
static jint weir_ioUringEnable(JNIEnv* env, jclass clazz, jint fd) {
    return syscall(__NR_io_uring_register, fd, IORING_REGISTER_ENABLE_RINGS, NULL, 0) < 0 ? weir_neg_errno() : 0;
}

/* IORING_REGISTER_RING_FDS for the calling thread: the registered index to pass with ENTER_REGISTERED_RING. */
static jint weir_ioUringRegisterRingFd(JNIEnv* env, jclass clazz, jint fd) {
    struct io_uring_rsrc_update update;
    memset(&update, 0, sizeof(update));
    update.offset = (uint32_t) -1;
    update.data = (uint64_t) fd;
    if (syscall(__NR_io_uring_register, fd, IORING_REGISTER_RING_FDS, &update, 1) < 0) {
        return weir_neg_errno();
    }
    return (jint) update.offset;
}

/* IORING_UNREGISTER_RING_FDS of the index ioUringRegisterRingFd returned; same thread. */
static jint weir_ioUringUnregisterRingFd(JNIEnv* env, jclass clazz, jint fd, jint index) {
    struct io_uring_rsrc_update update;
    memset(&update, 0, sizeof(update));
    update.offset = (uint32_t) index;
    return syscall(__NR_io_uring_register, fd, IORING_UNREGISTER_RING_FDS, &update, 1) < 0 ? weir_neg_errno() : 0;
}

/*
 * IORING_REGISTER_PBUF_RING: the entries (a power of two) of struct io_uring_buf at ringAddress, which is
 * page-aligned and stays valid until unregistered, become the provided buffers of group groupId. 0 or -errno.
 */
static jint weir_ioUringRegisterBufRing(JNIEnv* env, jclass clazz, jint fd, jlong ringAddress, jint entries,
                                        jint groupId) {
    struct io_uring_buf_reg reg;
    memset(&reg, 0, sizeof(reg));
    reg.ring_addr = (uint64_t) ringAddress;
    reg.ring_entries = (uint32_t) entries;
    reg.bgid = (uint16_t) groupId;
    return syscall(__NR_io_uring_register, fd, IORING_REGISTER_PBUF_RING, &reg, 1) < 0 ? weir_neg_errno() : 0;
}

/* IORING_UNREGISTER_PBUF_RING of group groupId: the kernel no longer reads its ring or picks its buffers. */
static jint weir_ioUringUnregisterBufRing(JNIEnv* env, jclass clazz, jint fd, jint groupId) {
    struct io_uring_buf_reg reg;
    memset(&reg, 0, sizeof(reg));
    reg.bgid = (uint16_t) groupId;
    return syscall(__NR_io_uring_register, fd, IORING_UNREGISTER_PBUF_RING, &reg, 1) < 0 ? weir_neg_errno() : 0;
}

/* A blocking eventfd: io_uring completes a read of an O_NONBLOCK one at once with -EAGAIN instead of waiting. */
static jint weir_blockingEventFd(JNIEnv* env, jclass clazz) {
    int fd = eventfd(0, EFD_CLOEXEC);
    return fd == -1 ? weir_neg_errno() : fd;
}

static jint weir_eventFdWrite(JNIEnv* env, jclass clazz, jint fd, jlong value) {
    uint64_t v = (uint64_t) value;
    ssize_t res;
    do {
        res = write(fd, &v, sizeof(v));
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : 0;
}

/* A ByteBuffer over length bytes at address, which the caller owns (mmapped ring memory). */
static jobject weir_wrapMemory(JNIEnv* env, jclass clazz, jlong address, jint length) {
    return (*env)->NewDirectByteBuffer(env, (void*) (intptr_t) address, (jlong) length);
}

static jlong weir_bufferAddress(JNIEnv* env, jclass clazz, jobject buffer) {
    return (jlong) (intptr_t) (*env)->GetDirectBufferAddress(env, buffer);
}

static const JNINativeMethod iouring_methods[] = {
    { "ioUringSetup", "(III[J)I", (void*) weir_ioUringSetup },
    { "ioUringUnmap", "(JJJJJJ)V", (void*) weir_ioUringUnmap },
    { "ioUringEnter", "(IIIIJ)I", (void*) weir_ioUringEnter },
    { "ioUringProbe", "(I[B)I", (void*) weir_ioUringProbe },
    { "ioUringEnable", "(I)I", (void*) weir_ioUringEnable },
    { "ioUringRegisterRingFd", "(I)I", (void*) weir_ioUringRegisterRingFd },
    { "ioUringUnregisterRingFd", "(II)I", (void*) weir_ioUringUnregisterRingFd },
    { "ioUringRegisterBufRing", "(IJII)I", (void*) weir_ioUringRegisterBufRing },
    { "ioUringUnregisterBufRing", "(II)I", (void*) weir_ioUringUnregisterBufRing },
    { "blockingEventFd", "()I", (void*) weir_blockingEventFd },
    { "eventFdWrite", "(IJ)I", (void*) weir_eventFdWrite },
    { "wrapMemory", "(JI)Ljava/nio/ByteBuffer;", (void*) weir_wrapMemory },
    { "bufferAddress", "(Ljava/nio/ByteBuffer;)J", (void*) weir_bufferAddress },
};

/* Registers io.weir.channel.unix's natives (compiled into this library too) and this transport's. */
JNIEXPORT jint JNI_OnLoad(JavaVM* vm, void* reserved) {
    JNIEnv* env;
    if ((*vm)->GetEnv(vm, (void**) &env, WEIR_JNI_VERSION) != JNI_OK || weir_unix_jni_load(env) != 0) {
        return JNI_ERR;
    }
    jint count = (jint) (sizeof(iouring_methods) / sizeof(iouring_methods[0]));
    if (weir_register_natives(env, IOURING_NATIVE_CLASS, iouring_methods, count) == 0
            && weir_iouring_datagram_jni_load(env) == 0 && weir_iouring_splice_jni_load(env) == 0) {
        return WEIR_JNI_VERSION;
    }
    weir_iouring_splice_jni_unload(env);
    weir_unix_jni_unload(env);
    return JNI_ERR;
}

JNIEXPORT void JNI_OnUnload(JavaVM* vm, void* reserved) {
    JNIEnv* env;
    if ((*vm)->GetEnv(vm, (void**) &env, WEIR_JNI_VERSION) == JNI_OK) {
        weir_iouring_splice_jni_unload(env);
        weir_unix_jni_unload(env);
    }
}
