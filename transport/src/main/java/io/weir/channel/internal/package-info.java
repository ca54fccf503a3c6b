/**
 * Transport internals the native transports need (exported to them only, not to applications): the idle-poll
 * rule of I/O handlers ({@link io.weir.channel.internal.IdlePoll}), the accept back-off of server channels
 * ({@link io.weir.channel.internal.AcceptBackoff}), the file-region access that {@code sendfile(2)} needs
 * ({@link io.weir.channel.internal.FileRegionAccess}), and the message of a failed bind, which names the address
 * on every transport ({@link io.weir.channel.internal.BindFailure}).
 */
package io.weir.channel.internal;
