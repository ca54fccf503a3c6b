/* The datagram natives (weir_epoll_dgram.c), registered from the library's JNI_OnLoad. */
#ifndef WEIR_EPOLL_DGRAM_H_
#define WEIR_EPOLL_DGRAM_H_

#include <jni.h>

/* Registers io.weir.channel.epoll.NativeDatagram's natives; 0, or -1 with a pending exception. */
int weir_epoll_dgram_jni_load(JNIEnv* env);

#endif
