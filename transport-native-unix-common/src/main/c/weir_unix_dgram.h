/* The fd-generic datagram natives (weir_unix_dgram.c), shared by every transport library. */
#ifndef WEIR_UNIX_DGRAM_H_
#define WEIR_UNIX_DGRAM_H_

#include <jni.h>
#include <stddef.h>
#include <sys/socket.h>

/* Registers io.weir.channel.unix.internal.DatagramSocketNative; 0, or -1 with a pending exception. */
int weir_unix_dgram_jni_load(JNIEnv* env);

#endif
