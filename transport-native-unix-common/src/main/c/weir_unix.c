/*
 * The natives of io.weir.channel.unix.UnixNative: sockets, file descriptors, off-heap memory for iovec
 * arrays, errno values. Registered by weir_unix_jni_load() from a transport library's JNI_OnLoad.
 *
 * Every function returns >= 0 on success and -errno on failure (see weir_unix.h).
 *
 * Platforms: Linux, and (for the kqueue transport) macOS and the BSDs. Where they differ:
 *
 *   what                     Linux                          macOS / BSD (WEIR_PORTABLE_SOCKETS)
 *   non-blocking new socket  socket(SOCK_NONBLOCK|CLOEXEC)  socket() + fcntl(O_NONBLOCK, FD_CLOEXEC)
 *   accept                   accept4(SOCK_NONBLOCK|CLOEXEC) accept() + fcntl (macOS has no accept4)
 *   received descriptor      recvmsg(MSG_CMSG_CLOEXEC)      recvmsg() + fcntl(FD_CLOEXEC)
 *   no SIGPIPE on send       MSG_NOSIGNAL                   MSG_NOSIGNAL where defined (FreeBSD), else 0 and
 *                                                            the transport sets SO_NOSIGPIPE on each socket
 *   peer credentials         SO_PEERCRED (struct ucred)     getpeereid(); pid from LOCAL_PEERPID (macOS),
 *                                                            xucred's cr_pid (FreeBSD), else 0
 *   sendfile                 sendfile(out, in, &off, n)     FreeBSD sendfile(in, out, off, n, NULL, &sent, 0),
 *                                                            macOS sendfile(in, out, off, &len, NULL, 0)
 *
 * WEIR_PORTABLE_SOCKETS is on off Linux; defining it on Linux compiles and runs the portable socket, accept and
 * descriptor-passing paths there too (the kqueue library built against libkqueue does, so its tests exercise
 * them). Peer credentials and sendfile have no Linux equivalent of the BSD calls and keep the Linux ones.
 */
#if defined(__linux__)
#define _GNU_SOURCE
#elif defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__) \
        || defined(__DragonFly__)
#ifndef WEIR_PORTABLE_SOCKETS
#define WEIR_PORTABLE_SOCKETS 1
#endif
#else
#error "Weir's unix-common natives target Linux, macOS and the BSDs"
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/sendfile.h>
#endif
#if defined(__APPLE__) || defined(__FreeBSD__)
#include <sys/ucred.h>
#endif

/* macOS has no MSG_NOSIGNAL: its sockets carry SO_NOSIGPIPE instead (set by the transport). */
#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0
#endif

#include "weir_unix.h"
#include "weir_unix_dgram.h"

_Static_assert(sizeof(void*) == 8, "Weir's native transports need a 64-bit platform (IovArray writes 8-byte pointers)");
_Static_assert(sizeof(struct iovec) == 16, "IovArray assumes a 16-byte struct iovec");

#define UNIX_NATIVE_CLASS "io/weir/channel/unix/UnixNative"
#define NATIVE_BUFFERS_CLASS "io/weir/channel/unix/internal/NativeBuffers"

/* Layout of the byte[] that carries an inet address between Java and C; kept in sync with UnixNative. */
#define ADDRESS_BYTES_OFFSET 0   /* 4 (IPv4) or 16 (IPv6) address bytes */
#define ADDRESS_SCOPE_OFFSET 16  /* scope id, big-endian int */
#define ADDRESS_PORT_OFFSET 20   /* port, big-endian short */
#define ADDRESS_LENGTH 22

/* Socket option ids; kept in sync with UnixNative.OPTION_*. */
enum {
    OPTION_SO_REUSEADDR = 0,
    OPTION_SO_REUSEPORT = 1,
    OPTION_SO_KEEPALIVE = 2,
    OPTION_SO_RCVBUF = 3,
    OPTION_SO_SNDBUF = 4,
    OPTION_SO_LINGER = 5,
    OPTION_TCP_NODELAY = 6,
    OPTION_IP_TOS = 7
};

/* sun.nio.ch.FileChannelImpl.fd and java.io.FileDescriptor.fd, for sendfile; NULL if the JDK has neither. */
static jclass file_channel_impl_class;
static jfieldID file_channel_fd_field;
static jfieldID file_descriptor_fd_field;

/* ---------------------------------------------------------------- helpers */

/*
 * Fills addr from Java's (address bytes, scope id, port). An IPv4 address given to an IPv6 socket becomes
 * an IPv4-mapped IPv6 address, so one dual-stack socket serves both families.
 * Returns 0, -EINVAL for a bad array, or -1 with a pending Java exception.
 */
static int to_sockaddr(JNIEnv* env, jboolean ipv6, jbyteArray address, jint scopeId, jint port,
                       struct sockaddr_storage* addr, socklen_t* len) {
    jsize n = (*env)->GetArrayLength(env, address);
    jbyte bytes[16];
    if (n != 4 && n != 16) {
        return -EINVAL;
    }
    (*env)->GetByteArrayRegion(env, address, 0, n, bytes);
    if ((*env)->ExceptionCheck(env)) {
        return -1;
    }
    return weir_to_inet_sockaddr((const uint8_t*) bytes, n, (uint32_t) scopeId, port, ipv6, addr, len);
}

/* Writes addr into Java's byte[ADDRESS_LENGTH]; returns 4 or 16, -EAFNOSUPPORT, or -1 with a pending exception. */
static int from_sockaddr(JNIEnv* env, const struct sockaddr_storage* addr, jbyteArray out) {
    jbyte bytes[ADDRESS_LENGTH];
    uint16_t port = 0;
    uint32_t scope = 0;
    memset(bytes, 0, sizeof(bytes));
    int addressLength = weir_from_inet_sockaddr(addr, sizeof(*addr), (uint8_t*) bytes, &scope, &port);
    if (addressLength < 0) {
        return addressLength;
    }
    bytes[ADDRESS_SCOPE_OFFSET] = (jbyte) (scope >> 24);
    bytes[ADDRESS_SCOPE_OFFSET + 1] = (jbyte) (scope >> 16);
    bytes[ADDRESS_SCOPE_OFFSET + 2] = (jbyte) (scope >> 8);
    bytes[ADDRESS_SCOPE_OFFSET + 3] = (jbyte) scope;
    bytes[ADDRESS_PORT_OFFSET] = (jbyte) (port >> 8);
    bytes[ADDRESS_PORT_OFFSET + 1] = (jbyte) port;
    if ((*env)->GetArrayLength(env, out) < ADDRESS_LENGTH) {
        return -EINVAL;
    }
    (*env)->SetByteArrayRegion(env, out, 0, ADDRESS_LENGTH, bytes);
    return (*env)->ExceptionCheck(env) ? -1 : addressLength;
}

/* Fills a sockaddr_un from a path; returns 0, -ENAMETOOLONG/-EINVAL, or -1 with a pending exception. */
static int to_sockaddr_un(JNIEnv* env, jbyteArray path, struct sockaddr_un* addr, socklen_t* len) {
    jsize n = (*env)->GetArrayLength(env, path);
    if (n <= 0) {
        return -EINVAL;
    }
    if ((size_t) n >= sizeof(addr->sun_path)) {
        return -ENAMETOOLONG;
    }
    memset(addr, 0, sizeof(*addr));
    addr->sun_family = AF_UNIX;
    (*env)->GetByteArrayRegion(env, path, 0, n, (jbyte*) addr->sun_path);
    if ((*env)->ExceptionCheck(env)) {
        return -1;
    }
    /* A leading NUL names Linux's abstract namespace, whose names are not NUL-terminated. */
    *len = (socklen_t) (offsetof(struct sockaddr_un, sun_path) + n + (addr->sun_path[0] == '\0' ? 0 : 1));
    return 0;
}

#if defined(WEIR_PORTABLE_SOCKETS)
/* Makes fd non-blocking (if asked) and close-on-exec; 0, or -errno after closing fd. */
static jint set_fd_flags(int fd, int nonBlocking) {
    int flags = nonBlocking ? fcntl(fd, F_GETFL) : 0;
    if (flags == -1 || (nonBlocking && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1)
            || fcntl(fd, F_SETFD, FD_CLOEXEC) == -1) {
        jint err = weir_neg_errno();
        close(fd);
        return err;
    }
    return 0;
}
#endif

static jint new_socket(int domain, int type) {
#if defined(WEIR_PORTABLE_SOCKETS)
    int fd = socket(domain, type, 0);
    if (fd == -1) {
        return weir_neg_errno();
    }
    jint flagsRes = set_fd_flags(fd, 1);
    if (flagsRes < 0) {
        return flagsRes;
    }
#else
    int fd = socket(domain, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd == -1) {
        return weir_neg_errno();
    }
#endif
    if (domain == AF_INET6) {
        /* Dual stack whatever net.ipv6.bindv6only says: IPv4 peers arrive as IPv4-mapped addresses. */
        int zero = 0;
        if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero)) == -1) {
            jint err = weir_neg_errno();
            close(fd);
            return err;
        }
    }
    return fd;
}

/* ---------------------------------------------------------------- sockets */

static jint weir_newSocketStream(JNIEnv* env, jclass clazz, jboolean ipv6) {
    return new_socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM);
}

static jint weir_newSocketDgram(JNIEnv* env, jclass clazz, jboolean ipv6) {
    return new_socket(ipv6 ? AF_INET6 : AF_INET, SOCK_DGRAM);
}

static jint weir_newSocketDomain(JNIEnv* env, jclass clazz) {
    return new_socket(AF_UNIX, SOCK_STREAM);
}

static jboolean weir_isIPv6Supported(JNIEnv* env, jclass clazz) {
    /* Closed at once: no exec can happen in between, so no close-on-exec is needed. */
    int fd = socket(AF_INET6, SOCK_STREAM, 0);
    if (fd == -1) {
        return JNI_FALSE;
    }
    close(fd);
    return JNI_TRUE;
}

static jint weir_bind(JNIEnv* env, jclass clazz, jint fd, jboolean ipv6, jbyteArray address, jint scopeId, jint port) {
    struct sockaddr_storage addr;
    socklen_t len;
    int res = to_sockaddr(env, ipv6, address, scopeId, port, &addr, &len);
    if (res != 0) {
        return res;
    }
    return bind(fd, (struct sockaddr*) &addr, len) == -1 ? weir_neg_errno() : 0;
}

static jint weir_bindDomain(JNIEnv* env, jclass clazz, jint fd, jbyteArray path) {
    struct sockaddr_un addr;
    socklen_t len;
    int res = to_sockaddr_un(env, path, &addr, &len);
    if (res != 0) {
        return res;
    }
    return bind(fd, (struct sockaddr*) &addr, len) == -1 ? weir_neg_errno() : 0;
}

static jint weir_listen(JNIEnv* env, jclass clazz, jint fd, jint backlog) {
    return listen(fd, backlog) == -1 ? weir_neg_errno() : 0;
}

static jint weir_accept(JNIEnv* env, jclass clazz, jint fd) {
    int res;
#if defined(WEIR_PORTABLE_SOCKETS)
    do {
        res = accept(fd, NULL, NULL);
    } while (res == -1 && errno == EINTR);
    if (res == -1) {
        return weir_neg_errno();
    }
    /* The flags are not inherited from the listening socket everywhere (Linux, macOS): set both. */
    jint flagsRes = set_fd_flags(res, 1);
    return flagsRes < 0 ? flagsRes : res;
#else
    do {
        res = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : res;
#endif
}

static jint weir_connect(JNIEnv* env, jclass clazz, jint fd, jboolean ipv6, jbyteArray address, jint scopeId, jint port) {
    struct sockaddr_storage addr;
    socklen_t len;
    int res = to_sockaddr(env, ipv6, address, scopeId, port, &addr, &len);
    if (res != 0) {
        return res;
    }
    /* After EINTR the attempt goes on in the background, like EINPROGRESS: do not start another. */
    return connect(fd, (struct sockaddr*) &addr, len) == -1 ? (errno == EINTR ? -EINPROGRESS : weir_neg_errno()) : 0;
}

static jint weir_connectDomain(JNIEnv* env, jclass clazz, jint fd, jbyteArray path) {
    struct sockaddr_un addr;
    socklen_t len;
    int res = to_sockaddr_un(env, path, &addr, &len);
    if (res != 0) {
        return res;
    }
    return connect(fd, (struct sockaddr*) &addr, len) == -1 ? (errno == EINTR ? -EINPROGRESS : weir_neg_errno()) : 0;
}

/* 0 once connected, -EINPROGRESS while the attempt goes on, -errno of the failed attempt. */
static jint weir_finishConnect(JNIEnv* env, jclass clazz, jint fd) {
    int err = 0;
    socklen_t len = sizeof(err);
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == -1) {
        return weir_neg_errno();
    }
    if (err != 0) {
        return -err;
    }
    /* SO_ERROR is also 0 while the handshake is still under way: only a peer name proves the connection. */
    struct sockaddr_storage addr;
    len = sizeof(addr);
    if (getpeername(fd, (struct sockaddr*) &addr, &len) == -1) {
        return errno == ENOTCONN ? -EINPROGRESS : weir_neg_errno();
    }
    return 0;
}

static jint weir_shutdown(JNIEnv* env, jclass clazz, jint fd, jboolean read, jboolean write) {
    int how;
    if (read && write) {
        how = SHUT_RDWR;
    } else if (read) {
        how = SHUT_RD;
    } else if (write) {
        how = SHUT_WR;
    } else {
        return 0;
    }
    return shutdown(fd, how) == -1 ? weir_neg_errno() : 0;
}

static jint weir_inetAddress(JNIEnv* env, jclass clazz, jint fd, jboolean peer, jbyteArray out) {
    struct sockaddr_storage addr;
    socklen_t len = sizeof(addr);
    int res = peer ? getpeername(fd, (struct sockaddr*) &addr, &len) : getsockname(fd, (struct sockaddr*) &addr, &len);
    if (res == -1) {
        return weir_neg_errno();
    }
    return from_sockaddr(env, &addr, out);
}

/* Copies the domain socket's path into out (at least sizeof(sun_path) bytes); returns its length. */
static jint weir_domainAddress(JNIEnv* env, jclass clazz, jint fd, jboolean peer, jbyteArray out) {
    struct sockaddr_un addr;
    socklen_t len = sizeof(addr);
    memset(&addr, 0, sizeof(addr));
    int res = peer ? getpeername(fd, (struct sockaddr*) &addr, &len) : getsockname(fd, (struct sockaddr*) &addr, &len);
    if (res == -1) {
        return weir_neg_errno();
    }
    if (addr.sun_family != AF_UNIX) {
        return -EAFNOSUPPORT;
    }
    jsize n = len > offsetof(struct sockaddr_un, sun_path) ? (jsize) (len - offsetof(struct sockaddr_un, sun_path)) : 0;
    /* Path names come back NUL-terminated; abstract names do not. */
    if (n > 0 && addr.sun_path[0] != '\0') {
        n = (jsize) strnlen(addr.sun_path, (size_t) n);
    }
    if ((*env)->GetArrayLength(env, out) < n) {
        return -EINVAL;
    }
    (*env)->SetByteArrayRegion(env, out, 0, n, (jbyte*) addr.sun_path);
    return (*env)->ExceptionCheck(env) ? -1 : n;
}

/* The (level, name) of an option id for a socket of the given family; 0, or -ENOPROTOOPT. */
static int option_of(int option, int family, int* level, int* name) {
    switch (option) {
        case OPTION_SO_REUSEADDR: *level = SOL_SOCKET; *name = SO_REUSEADDR; return 0;
        case OPTION_SO_REUSEPORT: *level = SOL_SOCKET; *name = SO_REUSEPORT; return 0;
        case OPTION_SO_KEEPALIVE: *level = SOL_SOCKET; *name = SO_KEEPALIVE; return 0;
        case OPTION_SO_RCVBUF: *level = SOL_SOCKET; *name = SO_RCVBUF; return 0;
        case OPTION_SO_SNDBUF: *level = SOL_SOCKET; *name = SO_SNDBUF; return 0;
        case OPTION_TCP_NODELAY: *level = IPPROTO_TCP; *name = TCP_NODELAY; return 0;
        case OPTION_IP_TOS:
            if (family == AF_INET6) {
                *level = IPPROTO_IPV6;
                *name = IPV6_TCLASS;
            } else {
                *level = IPPROTO_IP;
                *name = IP_TOS;
            }
            return 0;
        default:
            return -ENOPROTOOPT;
    }
}

/* For SO_LINGER, value < 0 turns lingering off. */
static jint weir_setIntOption(JNIEnv* env, jclass clazz, jint fd, jint option, jint value) {
    if (option == OPTION_SO_LINGER) {
        struct linger linger;
        linger.l_onoff = value >= 0;
        linger.l_linger = value >= 0 ? value : 0;
        return setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, sizeof(linger)) == -1 ? weir_neg_errno() : 0;
    }
    int family = weir_socket_family(fd);
    if (family == -1) {
        return weir_neg_errno();
    }
    int level;
    int name;
    int res = option_of(option, family, &level, &name);
    if (res != 0) {
        return res;
    }
    if (setsockopt(fd, level, name, &value, sizeof(value)) == -1) {
        return weir_neg_errno();
    }
    if (option == OPTION_IP_TOS && family == AF_INET6) {
        /* IPv4 traffic of a dual-stack socket takes its TOS from the IPv4 option; not every kernel accepts it. */
        setsockopt(fd, IPPROTO_IP, IP_TOS, &value, sizeof(value));
    }
    return 0;
}

/* Stores the value in out[0]; for SO_LINGER, -1 when lingering is off. Returns 0 or -errno. */
static jint weir_getIntOption(JNIEnv* env, jclass clazz, jint fd, jint option, jintArray out) {
    jint value;
    if (option == OPTION_SO_LINGER) {
        struct linger linger;
        socklen_t len = sizeof(linger);
        if (getsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, &len) == -1) {
            return weir_neg_errno();
        }
        value = linger.l_onoff ? linger.l_linger : -1;
    } else {
        int family = weir_socket_family(fd);
        if (family == -1) {
            return weir_neg_errno();
        }
        int level;
        int name;
        int res = option_of(option, family, &level, &name);
        if (res != 0) {
            return res;
        }
        int v = 0;
        socklen_t len = sizeof(v);
        if (getsockopt(fd, level, name, &v, &len) == -1) {
            return weir_neg_errno();
        }
        value = v;
    }
    (*env)->SetIntArrayRegion(env, out, 0, 1, &value);
    return (*env)->ExceptionCheck(env) ? -1 : 0;
}

/* out[0..2] = pid, uid, gid of the peer of a domain socket (pid 0 where the kernel does not tell). */
static jint weir_peerCredentials(JNIEnv* env, jclass clazz, jint fd, jintArray out) {
#if defined(__linux__)
    struct ucred cred;
    socklen_t len = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == -1) {
        return weir_neg_errno();
    }
    jint values[3] = { (jint) cred.pid, (jint) cred.uid, (jint) cred.gid };
#else
    uid_t uid;
    gid_t gid;
    if (getpeereid(fd, &uid, &gid) == -1) {
        return weir_neg_errno();
    }
    jint pid = 0;
#if defined(__APPLE__) && defined(LOCAL_PEERPID)
    pid_t peerPid = 0;
    socklen_t pidLen = sizeof(peerPid);
    if (getsockopt(fd, SOL_LOCAL, LOCAL_PEERPID, &peerPid, &pidLen) == 0) {
        pid = (jint) peerPid;
    }
#elif defined(__FreeBSD__) && defined(LOCAL_PEERCRED) && defined(cr_pid)
    /* FreeBSD 13+ reports the pid in xucred (cr_pid is a macro over its union there). */
    struct xucred xcred;
    socklen_t xlen = sizeof(xcred);
    if (getsockopt(fd, SOL_LOCAL, LOCAL_PEERCRED, &xcred, &xlen) == 0 && xcred.cr_version == XUCRED_VERSION) {
        pid = (jint) xcred.cr_pid;
    }
#endif
    jint values[3] = { pid, (jint) uid, (jint) gid };
#endif
    (*env)->SetIntArrayRegion(env, out, 0, 3, values);
    return (*env)->ExceptionCheck(env) ? -1 : 0;
}

/* ---------------------------------------------------------------- file descriptors and I/O */

static jint weir_close(JNIEnv* env, jclass clazz, jint fd) {
    /* Never retried on EINTR: Linux has released the descriptor whatever close returns, and it may be reused. */
    if (close(fd) == -1 && errno != EINTR) {
        return weir_neg_errno();
    }
    return 0;
}

static jint weir_read(JNIEnv* env, jclass clazz, jint fd, jlong address, jint pos, jint limit) {
    ssize_t res;
    do {
        res = read(fd, (void*) (intptr_t) (address + pos), (size_t) (limit - pos));
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : (jint) res;
}

static jint weir_write(JNIEnv* env, jclass clazz, jint fd, jlong address, jint pos, jint limit) {
    ssize_t res;
    do {
        res = write(fd, (const void*) (intptr_t) (address + pos), (size_t) (limit - pos));
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : (jint) res;
}

/* recv(2)/send(2) rather than read(2)/write(2) on sockets: they enter the socket layer directly instead of going
 * through the VFS (file position lock, rw_verify_area, fsnotify), which is measurable per small request. */
static jint weir_recv(JNIEnv* env, jclass clazz, jint fd, jlong address, jint pos, jint limit) {
    ssize_t res;
    do {
        res = recv(fd, (void*) (intptr_t) (address + pos), (size_t) (limit - pos), 0);
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : (jint) res;
}

/* MSG_NOSIGNAL: a peer that went away is reported as EPIPE, never as a SIGPIPE to the process. */
static jint weir_send(JNIEnv* env, jclass clazz, jint fd, jlong address, jint pos, jint limit) {
    ssize_t res;
    do {
        res = send(fd, (const void*) (intptr_t) (address + pos), (size_t) (limit - pos), MSG_NOSIGNAL);
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : (jint) res;
}

static jlong weir_readv(JNIEnv* env, jclass clazz, jint fd, jlong iovAddress, jint count) {
    ssize_t res;
    do {
        res = readv(fd, (const struct iovec*) (intptr_t) iovAddress, count);
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : (jlong) res;
}

static jlong weir_writev(JNIEnv* env, jclass clazz, jint fd, jlong iovAddress, jint count) {
    ssize_t res;
    do {
        res = writev(fd, (const struct iovec*) (intptr_t) iovAddress, count);
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : (jlong) res;
}

/* Sends count bytes of src from position; src must be a JDK FileChannel (sun.nio.ch.FileChannelImpl). */
static jlong weir_sendFile(JNIEnv* env, jclass clazz, jint fd, jobject src, jlong position, jlong count) {
    if (file_channel_impl_class == NULL || !(*env)->IsInstanceOf(env, src, file_channel_impl_class)) {
        return -EBADF;
    }
    jobject fdObject = (*env)->GetObjectField(env, src, file_channel_fd_field);
    if (fdObject == NULL) {
        return -EBADF;
    }
    int srcFd = (*env)->GetIntField(env, fdObject, file_descriptor_fd_field);
    (*env)->DeleteLocalRef(env, fdObject);
    if (srcFd < 0) {
        return -EBADF;
    }
#if defined(__linux__)
    off_t offset = (off_t) position;
    ssize_t res;
    do {
        res = sendfile(fd, srcFd, &offset, (size_t) count);
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : (jlong) res;
#elif defined(__FreeBSD__) || defined(__APPLE__)
    /*
     * The BSD signature: file first, socket second, and the bytes sent reported even when the call fails with
     * EAGAIN or EINTR after a partial send, so those count as progress rather than as an error.
     */
    for (;;) {
#if defined(__FreeBSD__)
        off_t sent = 0;
        int res = sendfile(srcFd, fd, (off_t) position, (size_t) count, NULL, &sent, 0);
#else
        off_t sent = (off_t) count;
        int res = sendfile(srcFd, fd, (off_t) position, &sent, NULL, 0);
#endif
        if (res == 0 || sent > 0) {
            return (jlong) sent;
        }
        if (errno != EINTR) {
            return weir_neg_errno();
        }
    }
#else
    return -ENOSYS;
#endif
}

/* Sends one byte with fdToSend attached (SCM_RIGHTS). */
static jint weir_sendFd(JNIEnv* env, jclass clazz, jint fd, jint fdToSend) {
    char data = 0;
    struct iovec iov = { .iov_base = &data, .iov_len = 1 };
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof(control));
    struct msghdr msg;
    memset(&msg, 0, sizeof(msg));
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof(control.buf);
    struct cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(cmsg), &fdToSend, sizeof(int));
    ssize_t res;
    do {
        res = sendmsg(fd, &msg, MSG_NOSIGNAL);
    } while (res == -1 && errno == EINTR);
    return res == -1 ? weir_neg_errno() : 0;
}

/*
 * Receives one byte and the descriptor attached to it (close-on-exec). Returns the descriptor, -EPIPE at end
 * of stream, -EBADMSG if the byte came without a descriptor, or -errno (-EAGAIN: nothing yet).
 */
static jint weir_recvFd(JNIEnv* env, jclass clazz, jint fd) {
    char data;
    struct iovec iov = { .iov_base = &data, .iov_len = 1 };
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr msg;
    memset(&msg, 0, sizeof(msg));
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof(control.buf);
    ssize_t res;
#if defined(WEIR_PORTABLE_SOCKETS)
    /* No MSG_CMSG_CLOEXEC on macOS: close-on-exec is set on the received descriptor just after. */
    int recvFlags = 0;
#else
    int recvFlags = MSG_CMSG_CLOEXEC;
#endif
    do {
        res = recvmsg(fd, &msg, recvFlags);
    } while (res == -1 && errno == EINTR);
    if (res == -1) {
        return weir_neg_errno();
    }
    if (res == 0) {
        return -EPIPE;
    }
    for (struct cmsghdr* cmsg = CMSG_FIRSTHDR(&msg); cmsg != NULL; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
        if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS
                && cmsg->cmsg_len == CMSG_LEN(sizeof(int))) {
            int received;
            memcpy(&received, CMSG_DATA(cmsg), sizeof(int));
#if defined(WEIR_PORTABLE_SOCKETS)
            /* Keeps the received descriptor's own blocking mode, as MSG_CMSG_CLOEXEC does. */
            jint flagsRes = set_fd_flags(received, 0);
            if (flagsRes < 0) {
                return flagsRes;
            }
#endif
            return received;
        }
    }
    return -EBADMSG;
}

/* ---------------------------------------------------------------- memory, errno, limits */

static jlong weir_allocateMemory(JNIEnv* env, jclass clazz, jlong size) {
    if (size <= 0) {
        return 0;
    }
    return (jlong) (intptr_t) malloc((size_t) size);
}

static void weir_freeMemory(JNIEnv* env, jclass clazz, jlong address) {
    free((void*) (intptr_t) address);
}

/* A ByteBuffer over memory from allocateMemory (no cleaner: the owner frees it); NULL with a pending exception. */
static jobject weir_wrapMemory(JNIEnv* env, jclass clazz, jlong address, jint capacity) {
    return (*env)->NewDirectByteBuffer(env, (void*) (intptr_t) address, (jlong) capacity);
}

/* The address of a direct ByteBuffer's first byte, 0 if it is not direct. */
static jlong weir_directBufferAddress(JNIEnv* env, jclass clazz, jobject buffer) {
    void* address = (*env)->GetDirectBufferAddress(env, buffer);
    return address == NULL ? 0 : (jlong) (intptr_t) address;
}

/* errno values in the order of UnixNative.ERRNO_*; kept in sync with it. */
static void weir_errnoValues(JNIEnv* env, jclass clazz, jintArray out) {
    const jint values[] = {
        EAGAIN, EWOULDBLOCK, EINPROGRESS, ECONNRESET, EPIPE, ECONNREFUSED, ENOTCONN, EALREADY, EBADF,
        ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, EISCONN, ENOENT, EINVAL, EINTR
    };
    jsize n = (jsize) (sizeof(values) / sizeof(values[0]));
    if ((*env)->GetArrayLength(env, out) != n) {
        return;
    }
    (*env)->SetIntArrayRegion(env, out, 0, n, values);
}

static jstring weir_strError(JNIEnv* env, jclass clazz, jint err) {
    char buf[256];
    /* The GNU strerror_r may return a static string instead of filling buf. */
    const char* message = strerror_r(err, buf, sizeof(buf));
    return (*env)->NewStringUTF(env, message);
}

static jint weir_iovMax(JNIEnv* env, jclass clazz) {
    long max = sysconf(_SC_IOV_MAX);
    return max > 0 && max < INT_MAX ? (jint) max : IOV_MAX;
}

/* ---------------------------------------------------------------- registration */

static const JNINativeMethod unix_methods[] = {
    { "newSocketStream", "(Z)I", (void*) weir_newSocketStream },
    { "newSocketDgram", "(Z)I", (void*) weir_newSocketDgram },
    { "newSocketDomain", "()I", (void*) weir_newSocketDomain },
    { "isIPv6Supported", "()Z", (void*) weir_isIPv6Supported },
    { "bind", "(IZ[BII)I", (void*) weir_bind },
    { "bindDomain", "(I[B)I", (void*) weir_bindDomain },
    { "listen", "(II)I", (void*) weir_listen },
    { "accept", "(I)I", (void*) weir_accept },
    { "connect", "(IZ[BII)I", (void*) weir_connect },
    { "connectDomain", "(I[B)I", (void*) weir_connectDomain },
    { "finishConnect", "(I)I", (void*) weir_finishConnect },
    { "shutdown", "(IZZ)I", (void*) weir_shutdown },
    { "inetAddress", "(IZ[B)I", (void*) weir_inetAddress },
    { "domainAddress", "(IZ[B)I", (void*) weir_domainAddress },
    { "setIntOption", "(III)I", (void*) weir_setIntOption },
    { "getIntOption", "(II[I)I", (void*) weir_getIntOption },
    { "peerCredentials", "(I[I)I", (void*) weir_peerCredentials },
    { "close", "(I)I", (void*) weir_close },
    { "read", "(IJII)I", (void*) weir_read },
    { "write", "(IJII)I", (void*) weir_write },
    { "recv", "(IJII)I", (void*) weir_recv },
    { "send", "(IJII)I", (void*) weir_send },
    { "readv", "(IJI)J", (void*) weir_readv },
    { "writev", "(IJI)J", (void*) weir_writev },
    { "sendFile", "(ILjava/nio/channels/FileChannel;JJ)J", (void*) weir_sendFile },
    { "sendFd", "(II)I", (void*) weir_sendFd },
    { "recvFd", "(I)I", (void*) weir_recvFd },
    { "allocateMemory", "(J)J", (void*) weir_allocateMemory },
    { "freeMemory", "(J)V", (void*) weir_freeMemory },
    { "wrapMemory", "(JI)Ljava/nio/ByteBuffer;", (void*) weir_wrapMemory },
    { "directBufferAddress", "(Ljava/nio/ByteBuffer;)J", (void*) weir_directBufferAddress },
    { "errnoValues", "([I)V", (void*) weir_errnoValues },
    { "strError", "(I)Ljava/lang/String;", (void*) weir_strError },
    { "iovMax", "()I", (void*) weir_iovMax },
};

/* The transports' own view of the same function (io.weir.channel.unix.internal is exported to them only). */
static const JNINativeMethod native_buffers_methods[] = {
    { "address", "(Ljava/nio/ByteBuffer;)J", (void*) weir_directBufferAddress },
};

int weir_register_natives(JNIEnv* env, const char* className, const JNINativeMethod* methods, jint count) {
    jclass clazz = (*env)->FindClass(env, className);
    if (clazz == NULL) {
        return -1;
    }
    jint res = (*env)->RegisterNatives(env, clazz, methods, count);
    (*env)->DeleteLocalRef(env, clazz);
    return res == JNI_OK ? 0 : -1;
}

/* Looks up the fields sendfile needs; a JDK without them only loses sendFile (it then returns -EBADF). */
static void cache_file_channel_fields(JNIEnv* env) {
    jclass channelClass = (*env)->FindClass(env, "sun/nio/ch/FileChannelImpl");
    if (channelClass == NULL) {
        (*env)->ExceptionClear(env);
        return;
    }
    jclass descriptorClass = (*env)->FindClass(env, "java/io/FileDescriptor");
    if (descriptorClass == NULL) {
        (*env)->ExceptionClear(env);
        (*env)->DeleteLocalRef(env, channelClass);
        return;
    }
    jfieldID channelFd = (*env)->GetFieldID(env, channelClass, "fd", "Ljava/io/FileDescriptor;");
    jfieldID descriptorFd = channelFd == NULL ? NULL : (*env)->GetFieldID(env, descriptorClass, "fd", "I");
    if (channelFd == NULL || descriptorFd == NULL) {
        (*env)->ExceptionClear(env);
    } else {
        file_channel_impl_class = (*env)->NewGlobalRef(env, channelClass);
        if (file_channel_impl_class != NULL) {
            file_channel_fd_field = channelFd;
            file_descriptor_fd_field = descriptorFd;
        } else {
            (*env)->ExceptionClear(env);
        }
    }
    (*env)->DeleteLocalRef(env, descriptorClass);
    (*env)->DeleteLocalRef(env, channelClass);
}

int weir_unix_jni_load(JNIEnv* env) {
    if (weir_register_natives(env, UNIX_NATIVE_CLASS, unix_methods,
                              (jint) (sizeof(unix_methods) / sizeof(unix_methods[0]))) != 0) {
        return -1;
    }
    if (weir_register_natives(env, NATIVE_BUFFERS_CLASS, native_buffers_methods,
                              (jint) (sizeof(native_buffers_methods) / sizeof(native_buffers_methods[0]))) != 0) {
        return -1;
    }
    if (weir_unix_dgram_jni_load(env) != 0) {
        return -1;
    }
    cache_file_channel_fields(env);
    return 0;
}

void weir_unix_jni_unload(JNIEnv* env) {
    if (file_channel_impl_class != NULL) {
        (*env)->DeleteGlobalRef(env, file_channel_impl_class);
        file_channel_impl_class = NULL;
    }
    file_channel_fd_field = NULL;
    file_descriptor_fd_field = NULL;
}
