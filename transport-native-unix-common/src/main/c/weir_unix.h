/*
 * Shared by Weir's native transports. Each transport's library compiles these sources and calls
 * weir_unix_jni_load() from its own JNI_OnLoad.
 *
 * Return convention of every native: a value >= 0 is the result (a file descriptor, a byte count, 0 for
 * success); a negative value is -errno. EINTR is retried where a retry is the right answer (read, write,
 * accept, ...) and never for close.
 */
#ifndef WEIR_UNIX_H_
#define WEIR_UNIX_H_

#include <jni.h>

#define WEIR_JNI_VERSION JNI_VERSION_10

/* Registers count methods of the class named className; 0 on success, -1 with a pending exception. */
int weir_register_natives(JNIEnv* env, const char* className, const JNINativeMethod* methods, jint count);

/* Registers io.weir.channel.unix's natives and caches what they need; 0, or -1 with a pending exception. */
int weir_unix_jni_load(JNIEnv* env);

/* Drops what weir_unix_jni_load cached. */
void weir_unix_jni_unload(JNIEnv* env);

#endif
