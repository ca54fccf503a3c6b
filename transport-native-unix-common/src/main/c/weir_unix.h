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

#include <errno.h>
#include <jni.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#define WEIR_JNI_VERSION JNI_VERSION_10

/* Registers count methods of the class named className; 0 on success, -1 with a pending exception. */
int weir_register_natives(JNIEnv* env, const char* className, const JNINativeMethod* methods, jint count);

/* Registers io.weir.channel.unix's natives and caches what they need; 0, or -1 with a pending exception. */
int weir_unix_jni_load(JNIEnv* env);

/* Drops what weir_unix_jni_load cached. */
void weir_unix_jni_unload(JNIEnv* env);

/* -errno, the failure value of every native (see above). */
static inline jint weir_neg_errno(void) {
    return -errno;
}

/* setsockopt of an int option; 0 or -errno. */
static inline jint weir_set_int_option(int fd, int level, int name, int value) {
    return setsockopt(fd, level, name, &value, sizeof(value)) == -1 ? weir_neg_errno() : 0;
}

/* getsockopt of an int option that is never negative: its value, or -errno (-EINVAL if the kernel said < 0). */
static inline jint weir_get_nonnegative_int_option(int fd, int level, int name) {
    int v = 0;
    socklen_t len = sizeof(v);
    if (getsockopt(fd, level, name, &v, &len) == -1) {
        return weir_neg_errno();
    }
    return v < 0 ? -EINVAL : (jint) v;
}

/* The address family of the socket fd (AF_INET, AF_INET6, AF_UNIX, ...), or -1 with errno set. */
static inline int weir_socket_family(int fd) {
    struct sockaddr_storage addr;
    socklen_t len = sizeof(addr);
    if (getsockname(fd, (struct sockaddr*) &addr, &len) == -1) {
        return -1;
    }
    return addr.ss_family;
}

/*
 * Fills addr from an inet address of n (4 or 16) bytes, its IPv6 scope id and a port, for a socket of the given
 * family: on an IPv6 (dual-stack) socket an IPv4 address becomes IPv4-mapped, so one socket serves both families.
 * Returns 0, -EINVAL (n is neither 4 nor 16) or -EAFNOSUPPORT (IPv6 address, IPv4 socket).
 */
static inline int weir_to_inet_sockaddr(const uint8_t* bytes, int n, uint32_t scope, int port, jboolean ipv6,
                                        struct sockaddr_storage* addr, socklen_t* len) {
    memset(addr, 0, sizeof(*addr));
    if (n != 4 && n != 16) {
        return -EINVAL;
    }
    if (ipv6) {
        struct sockaddr_in6* in6 = (struct sockaddr_in6*) addr;
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t) port);
        if (n == 4) {
            in6->sin6_addr.s6_addr[10] = 0xff;
            in6->sin6_addr.s6_addr[11] = 0xff;
            memcpy(&in6->sin6_addr.s6_addr[12], bytes, 4);
        } else {
            memcpy(in6->sin6_addr.s6_addr, bytes, 16);
            in6->sin6_scope_id = scope;
        }
        *len = sizeof(struct sockaddr_in6);
        return 0;
    }
    if (n != 4) {
        return -EAFNOSUPPORT;
    }
    struct sockaddr_in* in = (struct sockaddr_in*) addr;
    in->sin_family = AF_INET;
    in->sin_port = htons((uint16_t) port);
    memcpy(&in->sin_addr.s_addr, bytes, 4);
    *len = sizeof(struct sockaddr_in);
    return 0;
}

/*
 * Reads an inet sockaddr of len bytes into bytes[16] (an IPv4-mapped IPv6 address as the IPv4 one), its scope id
 * and port. Returns the address length, 4 or 16, or -EAFNOSUPPORT for another family or a too-short len; bytes,
 * scope and port are then untouched.
 */
static inline int weir_from_inet_sockaddr(const struct sockaddr_storage* addr, socklen_t len, uint8_t* bytes,
                                          uint32_t* scope, uint16_t* port) {
    if (len >= sizeof(struct sockaddr_in) && addr->ss_family == AF_INET) {
        const struct sockaddr_in* in = (const struct sockaddr_in*) addr;
        memcpy(bytes, &in->sin_addr.s_addr, 4);
        *port = ntohs(in->sin_port);
        return 4;
    }
    if (len >= sizeof(struct sockaddr_in6) && addr->ss_family == AF_INET6) {
        const struct sockaddr_in6* in6 = (const struct sockaddr_in6*) addr;
        *port = ntohs(in6->sin6_port);
        if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
            memcpy(bytes, &in6->sin6_addr.s6_addr[12], 4);
            return 4;
        }
        memcpy(bytes, in6->sin6_addr.s6_addr, 16);
        *scope = in6->sin6_scope_id;
        return 16;
    }
    return -EAFNOSUPPORT;
}

#endif
