#ifndef WEIR_KQUEUE_SOCKET_H_
#define WEIR_KQUEUE_SOCKET_H_

#include <jni.h>

/* Registers io.weir.channel.kqueue.KQueueSocketNative's natives; 0, or -1 with a pending exception. */
int weir_kqueue_socket_jni_load(JNIEnv* env);

#endif
