/**
 * Name resolution that never blocks an event loop: {@link io.weir.resolver.AddressResolver} and
 * {@link io.weir.resolver.AddressResolverGroup} (one resolver per event loop), plugged into
 * {@link io.weir.bootstrap.Bootstrap#resolver}, and {@link io.weir.resolver.DefaultAddressResolverGroup}, the JDK's
 * name service on a small bounded pool with a timeout.
 */
package io.weir.resolver;
