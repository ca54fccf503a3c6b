/* The fd-generic datagram natives (weir_unix_dgram.c), shared by every transport library, and the datagram slot
 * layout every transport's datagram natives share. */
#ifndef WEIR_UNIX_DGRAM_H_
#define WEIR_UNIX_DGRAM_H_

#include <jni.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "weir_unix.h"

/*
 * One datagram as Java writes and reads it (native byte order), 64 bytes apart; drawn in DatagramSocketNative and
 * read and written by DatagramSlots.
 *   address: the buffer's memory; length: in, its capacity (receive) or the bytes to send; out (receive), the
 *   datagram's length (its real length where the kernel reports it: Linux with MSG_TRUNC); flags: out, 1 if the
 *   datagram was truncated. addr/scope/port/addrlen: the peer (4 or 16 address bytes; addrlen 0 = none, for a
 *   connected send).
 */
struct weir_dgram_slot {
    uint64_t address;
    int32_t length;
    int32_t flags;
    uint8_t addr[16];
    int32_t scope;
    int32_t port;
    int32_t addrlen;
    uint8_t unused[20];
};

_Static_assert(sizeof(struct weir_dgram_slot) == 64, "DatagramSocketNative.SLOT_BYTES");
_Static_assert(offsetof(struct weir_dgram_slot, length) == 8, "DatagramSocketNative.LENGTH_OFFSET");
_Static_assert(offsetof(struct weir_dgram_slot, flags) == 12, "DatagramSocketNative.FLAGS_OFFSET");
_Static_assert(offsetof(struct weir_dgram_slot, addr) == 16, "DatagramSocketNative.ADDRESS_OFFSET");
_Static_assert(offsetof(struct weir_dgram_slot, scope) == 32, "DatagramSocketNative.SCOPE_OFFSET");
_Static_assert(offsetof(struct weir_dgram_slot, port) == 36, "DatagramSocketNative.PORT_OFFSET");
_Static_assert(offsetof(struct weir_dgram_slot, addrlen) == 40, "DatagramSocketNative.ADDRESS_LENGTH_OFFSET");

/* The slot array at a Java-supplied address. */
static inline struct weir_dgram_slot* weir_dgram_slot_at(jlong address) {
    return (struct weir_dgram_slot*) (intptr_t) address;
}

/* Stores a received peer address; an IPv4-mapped IPv6 address is stored as the IPv4 one. */
static inline void weir_dgram_slot_set_peer(struct weir_dgram_slot* slot, const struct sockaddr_storage* addr,
                                            socklen_t len) {
    /* Zeroed whole, so that Java can compare two peers by their 16 bytes whatever the family. */
    memset(slot->addr, 0, sizeof(slot->addr));
    uint32_t scope = 0;
    uint16_t port = 0;
    int n = weir_from_inet_sockaddr(addr, len, slot->addr, &scope, &port);
    slot->scope = (int32_t) scope;
    slot->port = port;
    slot->addrlen = n < 0 ? 0 : n;
}

/*
 * The sockaddr of a slot's peer for a socket of the given family: on an IPv6 (dual-stack) socket an IPv4
 * address becomes IPv4-mapped. Returns 0, -EAFNOSUPPORT (IPv6 peer, IPv4 socket) or -EINVAL (bad length).
 */
static inline int weir_dgram_slot_get_peer(const struct weir_dgram_slot* slot, jboolean ipv6,
                                           struct sockaddr_storage* addr, socklen_t* len) {
    return weir_to_inet_sockaddr(slot->addr, slot->addrlen, (uint32_t) slot->scope, slot->port, ipv6, addr, len);
}

/* Registers io.weir.channel.unix.internal.DatagramSocketNative; 0, or -1 with a pending exception. */
int weir_unix_dgram_jni_load(JNIEnv* env);

#endif
