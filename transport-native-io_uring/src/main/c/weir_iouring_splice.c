/*
 * The natives of io.weir.channel.uring.IoUringSpliceNative: what a stream channel needs to send a file region
 * with IORING_OP_SPLICE (file -> pipe -> socket) besides the ring itself: a pipe, and the descriptor of a JDK
 * file channel. Registered by weir_iouring_splice_jni_load(), called from JNI_OnLoad.
 *
 * Return convention: >= 0 success, -errno failure. No JNI exception is left pending.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <unistd.h>

#include "weir_unix.h"

#define IOURING_SPLICE_NATIVE_CLASS "io/weir/channel/uring/IoUringSpliceNative"

/* IoUringIoOps.OP_SPLICE and IoUringSpliceNative.SPLICE_F_*: prove they are the kernel's. */
_Static_assert(IORING_OP_SPLICE == 30, "IoUringIoOps.OP_SPLICE");
_Static_assert(SPLICE_F_MOVE == 1 && SPLICE_F_NONBLOCK == 2, "IoUringSpliceNative.SPLICE_F_*");

/* The slots of the int[] pipe() fills; IoUringSpliceNative.PIPE_* names the same indexes. */
enum { PIPE_READ = 0, PIPE_WRITE, PIPE_CAPACITY, PIPE_INFO_LENGTH };

/* sun.nio.ch.FileChannelImpl.fd and java.io.FileDescriptor.fd; NULL if this JDK has neither. */
static jclass file_channel_impl_class;
static jfieldID file_channel_fd_field;
static jfieldID file_descriptor_fd_field;

/*
 * pipe2(O_NONBLOCK | O_CLOEXEC), then asks for a capacity of wantedCapacity bytes (F_SETPIPE_SZ; a refusal, past
 * the user's pipe-size limits, keeps the default). Fills info with both ends and the capacity it got; 0 or -errno
 * with nothing left open.
 */
static jint weir_pipe(JNIEnv* env, jclass clazz, jint wantedCapacity, jintArray info) {
    if ((*env)->GetArrayLength(env, info) < PIPE_INFO_LENGTH) {
        return -EINVAL;
    }
    int fds[2];
    if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) == -1) {
        return weir_neg_errno();
    }
    if (wantedCapacity > 0) {
        fcntl(fds[1], F_SETPIPE_SZ, wantedCapacity);
    }
    int capacity = fcntl(fds[1], F_GETPIPE_SZ);
    if (capacity <= 0) {
        jint err = capacity == 0 ? -EINVAL : weir_neg_errno();
        close(fds[0]);
        close(fds[1]);
        return err;
    }
    jint values[PIPE_INFO_LENGTH] = { fds[0], fds[1], capacity };
    (*env)->SetIntArrayRegion(env, info, 0, PIPE_INFO_LENGTH, values);
    return 0;
}

/* The descriptor of a JDK file channel (sun.nio.ch.FileChannelImpl); -EBADF for any other channel or a closed one. */
static jint weir_fileDescriptor(JNIEnv* env, jclass clazz, jobject channel) {
    if (channel == NULL || file_channel_impl_class == NULL
            || !(*env)->IsInstanceOf(env, channel, file_channel_impl_class)) {
        return -EBADF;
    }
    jobject fdObject = (*env)->GetObjectField(env, channel, file_channel_fd_field);
    if (fdObject == NULL) {
        return -EBADF;
    }
    jint fd = (*env)->GetIntField(env, fdObject, file_descriptor_fd_field);
    (*env)->DeleteLocalRef(env, fdObject);
    return fd < 0 ? -EBADF : fd;
}

static const JNINativeMethod splice_methods[] = {
    { "pipe", "(I[I)I", (void*) weir_pipe },
    { "fileDescriptor", "(Ljava/nio/channels/FileChannel;)I", (void*) weir_fileDescriptor },
};

/* Looks the JDK's fields up; without them fileDescriptor() answers -EBADF and regions go out without splice. */
static void cache_file_channel_fields(JNIEnv* env) {
    jclass channelClass = (*env)->FindClass(env, "sun/nio/ch/FileChannelImpl");
    jclass descriptorClass = channelClass == NULL ? NULL : (*env)->FindClass(env, "java/io/FileDescriptor");
    jfieldID channelFd = descriptorClass == NULL ? NULL
            : (*env)->GetFieldID(env, channelClass, "fd", "Ljava/io/FileDescriptor;");
    jfieldID descriptorFd = channelFd == NULL ? NULL : (*env)->GetFieldID(env, descriptorClass, "fd", "I");
    if (descriptorFd == NULL) {
        (*env)->ExceptionClear(env);
    } else {
        file_channel_impl_class = (*env)->NewGlobalRef(env, channelClass);
        if (file_channel_impl_class == NULL) {
            (*env)->ExceptionClear(env);
        } else {
            file_channel_fd_field = channelFd;
            file_descriptor_fd_field = descriptorFd;
        }
    }
    if (descriptorClass != NULL) {
        (*env)->DeleteLocalRef(env, descriptorClass);
    }
    if (channelClass != NULL) {
        (*env)->DeleteLocalRef(env, channelClass);
    }
}

int weir_iouring_splice_jni_load(JNIEnv* env) {
    cache_file_channel_fields(env);
    return weir_register_natives(env, IOURING_SPLICE_NATIVE_CLASS, splice_methods,
                                 (jint) (sizeof(splice_methods) / sizeof(splice_methods[0])));
}

void weir_iouring_splice_jni_unload(JNIEnv* env) {
    if (file_channel_impl_class != NULL) {
        (*env)->DeleteGlobalRef(env, file_channel_impl_class);
        file_channel_impl_class = NULL;
    }
}
