/*
 * The socket natives of io.weir.channel.kqueue.KQueueSocketNative: the options that differ between the BSDs,
 * macOS and Linux (where the library runs on libkqueue). Return convention: >= 0 success, -errno failure.
 *
 *   option          FreeBSD / macOS                 Linux (libkqueue build)
 *   TCP_NOPUSH      TCP_NOPUSH                      TCP_CORK, the same "hold partial segments" switch
 *   SO_SNDLOWAT     settable                        readable only: setting fails with ENOPROTOOPT
 *   SO_NOSIGPIPE    set on every socket             absent: send() passes MSG_NOSIGNAL instead (unix-common)
 */
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "weir_unix.h"
#include "weir_kqueue_socket.h"

#define KQUEUE_SOCKET_NATIVE_CLASS "io/weir/channel/kqueue/KQueueSocketNative"

#if defined(TCP_NOPUSH)
#define WEIR_TCP_NOPUSH TCP_NOPUSH
#elif defined(TCP_CORK)
#define WEIR_TCP_NOPUSH TCP_CORK
#endif

static jint weir_setTcpNoPush(JNIEnv* env, jclass clazz, jint fd, jint on) {
#if defined(WEIR_TCP_NOPUSH)
    return weir_set_int_option(fd, IPPROTO_TCP, WEIR_TCP_NOPUSH, on != 0);
#else
    return -ENOPROTOOPT;
#endif
}

static jint weir_getTcpNoPush(JNIEnv* env, jclass clazz, jint fd) {
#if defined(WEIR_TCP_NOPUSH)
    return weir_get_nonnegative_int_option(fd, IPPROTO_TCP, WEIR_TCP_NOPUSH);
#else
    return -ENOPROTOOPT;
#endif
}

static jint weir_setSndLowAt(JNIEnv* env, jclass clazz, jint fd, jint bytes) {
    return weir_set_int_option(fd, SOL_SOCKET, SO_SNDLOWAT, bytes);
}

static jint weir_getSndLowAt(JNIEnv* env, jclass clazz, jint fd) {
    return weir_get_nonnegative_int_option(fd, SOL_SOCKET, SO_SNDLOWAT);
}

/*
 * Where the platform has SO_NOSIGPIPE (the BSDs, macOS), turns it on, so a write to a peer that went away fails
 * with EPIPE instead of killing the JVM with SIGPIPE. Returns 1 if set, 0 where the option does not exist (Linux:
 * unix-common's send and sendmsg pass MSG_NOSIGNAL), or -errno.
 */
static jint weir_setNoSigPipe(JNIEnv* env, jclass clazz, jint fd) {
#if defined(SO_NOSIGPIPE)
    jint res = weir_set_int_option(fd, SOL_SOCKET, SO_NOSIGPIPE, 1);
    return res < 0 ? res : 1;
#else
    return 0;
#endif
}

static const JNINativeMethod kqueue_socket_methods[] = {
    { "setTcpNoPush", "(II)I", (void*) weir_setTcpNoPush },
    { "getTcpNoPush", "(I)I", (void*) weir_getTcpNoPush },
    { "setSndLowAt", "(II)I", (void*) weir_setSndLowAt },
    { "getSndLowAt", "(I)I", (void*) weir_getSndLowAt },
    { "setNoSigPipe", "(I)I", (void*) weir_setNoSigPipe },
};

int weir_kqueue_socket_jni_load(JNIEnv* env) {
    return weir_register_natives(env, KQUEUE_SOCKET_NATIVE_CLASS, kqueue_socket_methods,
                                 (jint) (sizeof(kqueue_socket_methods) / sizeof(kqueue_socket_methods[0])));
}
