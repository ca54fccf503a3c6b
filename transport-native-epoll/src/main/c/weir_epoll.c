/*
 * The natives of io.weir.channel.epoll.Native (epoll, eventfd, timerfd) and the library's JNI_OnLoad, which
 * also registers the shared io.weir.channel.unix natives. Return convention: >= 0 success, -errno failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "weir_epoll_socket.h"
#include "weir_unix.h"
#include "weir_epoll_dgram.h"

#define EPOLL_NATIVE_CLASS "io/weir/channel/epoll/Native"

/* EpollIoOps and Native hold these as Java constants, so the JIT folds them: prove they are the kernel's. */
_Static_assert(EPOLLIN == 0x001, "EpollIoOps.EPOLLIN");
_Static_assert(EPOLLPRI == 0x002, "EpollIoOps.EPOLLPRI");
_Static_assert(EPOLLOUT == 0x004, "EpollIoOps.EPOLLOUT");
_Static_assert(EPOLLERR == 0x008, "EpollIoOps.EPOLLERR");
_Static_assert(EPOLLHUP == 0x010, "EpollIoOps.EPOLLHUP");
_Static_assert(EPOLLRDHUP == 0x2000, "EpollIoOps.EPOLLRDHUP");
_Static_assert(EPOLLET == (1u << 31), "EpollIoOps.EPOLLET");
_Static_assert(EPOLL_CTL_ADD == 1 && EPOLL_CTL_DEL == 2 && EPOLL_CTL_MOD == 3, "Native.EPOLL_CTL_*");

#define NANOS_PER_SECOND 1000000000LL

static jint weir_epollCreate(JNIEnv* env, jclass clazz) {
    int fd = epoll_create1(EPOLL_CLOEXEC);
    return fd == -1 ? weir_neg_errno() : fd;
}

/* The event's data is the descriptor itself: the Java side maps it back to its registration. */
static jint weir_epollCtl(JNIEnv* env, jclass clazz, jint epfd, jint op, jint fd, jint events) {
    struct epoll_event ev;
    ev.events = (uint32_t) events;
    ev.data.u64 = 0;
    ev.data.fd = fd;
    return epoll_ctl(epfd, op, fd, &ev) == -1 ? weir_neg_errno() : 0;
}

/* Not retried on EINTR: the caller's timeout would restart; it returns -EINTR and the loop simply goes round. */
static jint weir_epollWait(JNIEnv* env, jclass clazz, jint epfd, jlong eventsAddress, jint maxEvents, jint timeoutMillis) {
    int res = epoll_wait(epfd, (struct epoll_event*) (intptr_t) eventsAddress, maxEvents, timeoutMillis);
    return res == -1 ? weir_neg_errno() : res;
}

static jint weir_eventFd(JNIEnv* env, jclass clazz) {
    int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    return fd == -1 ? weir_neg_errno() : fd;
}

static jint weir_eventFdWrite(JNIEnv* env, jclass clazz, jint fd, jlong value) {
    uint64_t v = (uint64_t) value;
    ssize_t res;
    do {
        res = write(fd, &v, sizeof(v));
    } while (res == -1 && errno == EINTR);
    /* EAGAIN means the counter is at its maximum: a wake-up is pending anyway. */
    return res == -1 && errno != EAGAIN ? weir_neg_errno() : 0;
}

/* Resets the counter; 0, -EAGAIN when it already was 0, or -errno. */
static jint weir_eventFdRead(JNIEnv* env, jclass clazz, jint fd) {
    uint64_t v;
    ssize_t res;
    do {
        res = read(fd, &v, sizeof(v));
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : 0;
}

static jint weir_timerFdCreate(JNIEnv* env, jclass clazz) {
    int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    return fd == -1 ? weir_neg_errno() : fd;
}

/* Arms the timer to expire once, delayNanos from now (at least 1 ns); 0 disarms it. */
static jint weir_timerFdSetTime(JNIEnv* env, jclass clazz, jint fd, jlong delayNanos) {
    struct itimerspec spec;
    spec.it_interval.tv_sec = 0;
    spec.it_interval.tv_nsec = 0;
    spec.it_value.tv_sec = (time_t) (delayNanos / NANOS_PER_SECOND);
    spec.it_value.tv_nsec = (long) (delayNanos % NANOS_PER_SECOND);
    return timerfd_settime(fd, 0, &spec, NULL) == -1 ? weir_neg_errno() : 0;
}

/* Consumes the expirations; 0, -EAGAIN if there were none, or -errno. */
static jint weir_timerFdRead(JNIEnv* env, jclass clazz, jint fd) {
    uint64_t expirations;
    ssize_t res;
    do {
        res = read(fd, &expirations, sizeof(expirations));
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : 0;
}

static jint weir_sizeofEpollEvent(JNIEnv* env, jclass clazz) {
    return (jint) sizeof(struct epoll_event);
}

static jint weir_offsetofEpollData(JNIEnv* env, jclass clazz) {
    return (jint) offsetof(struct epoll_event, data);
}

/* Linux-only TCP option ids; kept in sync with Native.TCP_OPTION_*. */
enum {
    TCP_OPTION_QUICKACK = 0,
    TCP_OPTION_CORK = 1,
    TCP_OPTION_NOTSENT_LOWAT = 2,
    TCP_OPTION_USER_TIMEOUT = 3,
    TCP_OPTION_KEEPIDLE = 4,
    TCP_OPTION_KEEPINTVL = 5,
    TCP_OPTION_KEEPCNT = 6
};

static int tcp_option_name(jint option) {
    switch (option) {
        case TCP_OPTION_QUICKACK: return TCP_QUICKACK;
        case TCP_OPTION_CORK: return TCP_CORK;
        case TCP_OPTION_NOTSENT_LOWAT: return TCP_NOTSENT_LOWAT;
        case TCP_OPTION_USER_TIMEOUT: return TCP_USER_TIMEOUT;
        case TCP_OPTION_KEEPIDLE: return TCP_KEEPIDLE;
        case TCP_OPTION_KEEPINTVL: return TCP_KEEPINTVL;
        case TCP_OPTION_KEEPCNT: return TCP_KEEPCNT;
        default: return -1;
    }
}

static jint weir_setTcpOption(JNIEnv* env, jclass clazz, jint fd, jint option, jint value) {
    int name = tcp_option_name(option);
    if (name < 0) {
        return -EINVAL;
    }
    return weir_set_int_option(fd, IPPROTO_TCP, name, (int) value);
}

/* The option's value (every one of them is >= 0), or -errno. */
static jint weir_getTcpOption(JNIEnv* env, jclass clazz, jint fd, jint option) {
    int name = tcp_option_name(option);
    if (name < 0) {
        return -EINVAL;
    }
    return weir_get_nonnegative_int_option(fd, IPPROTO_TCP, name);
}

static const JNINativeMethod epoll_methods[] = {
    { "epollCreate", "()I", (void*) weir_epollCreate },
    { "epollCtl", "(IIII)I", (void*) weir_epollCtl },
    { "epollWait", "(IJII)I", (void*) weir_epollWait },
    { "eventFd", "()I", (void*) weir_eventFd },
    { "eventFdWrite", "(IJ)I", (void*) weir_eventFdWrite },
    { "eventFdRead", "(I)I", (void*) weir_eventFdRead },
    { "timerFdCreate", "()I", (void*) weir_timerFdCreate },
    { "timerFdSetTime", "(IJ)I", (void*) weir_timerFdSetTime },
    { "timerFdRead", "(I)I", (void*) weir_timerFdRead },
    { "sizeofEpollEvent", "()I", (void*) weir_sizeofEpollEvent },
    { "offsetofEpollData", "()I", (void*) weir_offsetofEpollData },
    { "setTcpOption", "(III)I", (void*) weir_setTcpOption },
    { "getTcpOption", "(II)I", (void*) weir_getTcpOption },
};

JNIEXPORT jint JNI_OnLoad(JavaVM* vm, void* reserved) {
    JNIEnv* env;
    if ((*vm)->GetEnv(vm, (void**) &env, WEIR_JNI_VERSION) != JNI_OK) {
        return JNI_ERR;
    }
    if (weir_unix_jni_load(env) != 0) {
        return JNI_ERR;
    }
    if (weir_register_natives(env, EPOLL_NATIVE_CLASS, epoll_methods,
                              (jint) (sizeof(epoll_methods) / sizeof(epoll_methods[0]))) != 0) {
        weir_unix_jni_unload(env);
        return JNI_ERR;
    }
    if (weir_epoll_socket_jni_load(env) != 0) {
        weir_unix_jni_unload(env);
        return JNI_ERR;
    }
    if (weir_epoll_dgram_jni_load(env) != 0) {
        weir_unix_jni_unload(env);
        return JNI_ERR;
    }
    return WEIR_JNI_VERSION;
}

JNIEXPORT void JNI_OnUnload(JavaVM* vm, void* reserved) {
    JNIEnv* env;
    if ((*vm)->GetEnv(vm, (void**) &env, WEIR_JNI_VERSION) != JNI_OK) {
        return;
    }
    weir_unix_jni_unload(env);
}
