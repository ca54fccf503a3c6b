/* The TCP-only natives of the epoll transport (weir_epoll_socket.c), registered from weir_epoll.c's JNI_OnLoad. */
#ifndef WEIR_EPOLL_SOCKET_H_
#define WEIR_EPOLL_SOCKET_H_

#include <jni.h>

/* Registers io.weir.channel.epoll.EpollSocketNative's natives; 0, or -1 with a pending exception. */
int weir_epoll_socket_jni_load(JNIEnv* env);

#endif
