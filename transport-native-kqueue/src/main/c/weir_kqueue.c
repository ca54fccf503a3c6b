/*
 * The natives of io.weir.channel.kqueue.Native (kqueue, kevent) and the library's JNI_OnLoad, which also
 * registers the shared io.weir.channel.unix natives. Return convention: >= 0 success, -errno failure.
 *
 * Compiled against the system <sys/event.h> on macOS and the BSDs, and on Linux against libkqueue (a user-space
 * kqueue over epoll, linked statically; its header is <kqueue/sys/event.h>, put on the include path as
 * <sys/event.h> by the build). LIBKQUEUE is defined by libkqueue's header, so the two cases can be told apart.
 */
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/event.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "weir_unix.h"
#include "weir_kqueue_socket.h"

#define KQUEUE_NATIVE_CLASS "io/weir/channel/kqueue/Native"

/* Native holds these as Java constants, so the JIT folds them: prove they are the platform's. */
_Static_assert(EVFILT_READ == -1, "Native.EVFILT_READ");
_Static_assert(EVFILT_WRITE == -2, "Native.EVFILT_WRITE");
_Static_assert(EVFILT_USER == -11 || EVFILT_USER == -10, "Native.EVFILT_USER (-11 on FreeBSD/libkqueue, -10 on macOS)");
_Static_assert(EV_ADD == 0x0001 && EV_DELETE == 0x0002 && EV_ENABLE == 0x0004 && EV_DISABLE == 0x0008,
               "Native.EV_ADD/EV_DELETE/EV_ENABLE/EV_DISABLE");
_Static_assert(EV_CLEAR == 0x0020, "Native.EV_CLEAR");
_Static_assert(EV_ERROR == 0x4000 && EV_EOF == 0x8000, "Native.EV_ERROR/EV_EOF");
_Static_assert(NOTE_TRIGGER == 0x01000000, "Native.NOTE_TRIGGER");

#define NANOS_PER_SECOND 1000000000LL

static jint weir_kqueueCreate(JNIEnv* env, jclass clazz) {
    int kq = kqueue();
    return kq == -1 ? weir_neg_errno() : kq;
}

/*
 * Applies one change (no event list, so an error comes back as -1/errno rather than as an EV_ERROR event).
 * Retried on EINTR: a change either happened or it did not, and the caller needs to know which.
 */
static jint weir_keventChange(JNIEnv* env, jclass clazz, jint kq, jint ident, jshort filter, jshort flags,
                              jint fflags) {
    struct kevent change;
    EV_SET(&change, (uintptr_t) (uint32_t) ident, filter, (unsigned short) flags, (unsigned int) fflags, 0, NULL);
    int res;
    do {
        res = kevent(kq, &change, 1, NULL, 0, NULL);
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : 0;
}

/*
 * Waits for up to maxEvents events into the struct kevent array at eventsAddress. timeoutNanos < 0 waits without
 * a timeout; 0 polls. Not retried on EINTR: it returns -EINTR and the loop goes round with a fresh deadline.
 */
static jint weir_keventWait(JNIEnv* env, jclass clazz, jint kq, jlong eventsAddress, jint maxEvents,
                            jlong timeoutNanos) {
    struct timespec timeout;
    struct timespec* t = NULL;
    if (timeoutNanos >= 0) {
        timeout.tv_sec = (time_t) (timeoutNanos / NANOS_PER_SECOND);
        timeout.tv_nsec = (long) (timeoutNanos % NANOS_PER_SECOND);
        t = &timeout;
    }
    int res = kevent(kq, NULL, 0, (struct kevent*) (intptr_t) eventsAddress, maxEvents, t);
    return res == -1 ? weir_neg_errno() : res;
}

static jint weir_sizeofKEvent(JNIEnv* env, jclass clazz) {
    return (jint) sizeof(struct kevent);
}

static jint weir_offsetofKEventIdent(JNIEnv* env, jclass clazz) {
    return (jint) offsetof(struct kevent, ident);
}

static jint weir_offsetofKEventFilter(JNIEnv* env, jclass clazz) {
    return (jint) offsetof(struct kevent, filter);
}

static jint weir_offsetofKEventFlags(JNIEnv* env, jclass clazz) {
    return (jint) offsetof(struct kevent, flags);
}

static jint weir_offsetofKEventFFlags(JNIEnv* env, jclass clazz) {
    return (jint) offsetof(struct kevent, fflags);
}

static jint weir_offsetofKEventData(JNIEnv* env, jclass clazz) {
    return (jint) offsetof(struct kevent, data);
}

static jint weir_evfiltUser(JNIEnv* env, jclass clazz) {
    return (jint) EVFILT_USER;
}

/* 1 when compiled against libkqueue (Linux), 0 against a BSD kernel's own kqueue. */
static jint weir_isLibKQueue(JNIEnv* env, jclass clazz) {
#if defined(LIBKQUEUE)
    return 1;
#else
    return 0;
#endif
}

static const JNINativeMethod kqueue_methods[] = {
    { "kqueueCreate", "()I", (void*) weir_kqueueCreate },
    { "keventChange", "(IISSI)I", (void*) weir_keventChange },
    { "keventWait", "(IJIJ)I", (void*) weir_keventWait },
    { "sizeofKEvent", "()I", (void*) weir_sizeofKEvent },
    { "offsetofKEventIdent", "()I", (void*) weir_offsetofKEventIdent },
    { "offsetofKEventFilter", "()I", (void*) weir_offsetofKEventFilter },
    { "offsetofKEventFlags", "()I", (void*) weir_offsetofKEventFlags },
    { "offsetofKEventFFlags", "()I", (void*) weir_offsetofKEventFFlags },
    { "offsetofKEventData", "()I", (void*) weir_offsetofKEventData },
    { "evfiltUser", "()I", (void*) weir_evfiltUser },
    { "isLibKQueue", "()I", (void*) weir_isLibKQueue },
};

JNIEXPORT jint JNI_OnLoad(JavaVM* vm, void* reserved) {
    JNIEnv* env;
    if ((*vm)->GetEnv(vm, (void**) &env, WEIR_JNI_VERSION) != JNI_OK) {
        return JNI_ERR;
    }
    if (weir_unix_jni_load(env) != 0) {
        return JNI_ERR;
    }
    if (weir_register_natives(env, KQUEUE_NATIVE_CLASS, kqueue_methods,
                              (jint) (sizeof(kqueue_methods) / sizeof(kqueue_methods[0]))) != 0) {
        weir_unix_jni_unload(env);
        return JNI_ERR;
    }
    if (weir_kqueue_socket_jni_load(env) != 0) {
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
