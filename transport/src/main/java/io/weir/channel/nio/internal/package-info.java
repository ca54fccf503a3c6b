/**
 * Internals of the NIO transport (not exported): the per-thread gatherer of NIO buffers for gathering writes.
 */
package io.weir.channel.nio.internal;
