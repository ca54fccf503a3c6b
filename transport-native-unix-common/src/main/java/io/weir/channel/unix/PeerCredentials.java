package io.weir.channel.unix;

/**
 * Who is on the other end of a domain socket, as the kernel saw it when the connection was made
 * ({@code SO_PEERCRED}).
 *
 * @param pid the peer's process id
 * @param uid the peer's effective user id
 * @param gid the peer's effective group id
 */
public record PeerCredentials(int pid, int uid, int gid) {
}
