package io.weir.resolver.dns;

import io.weir.bootstrap.ChannelFactory;
import io.weir.channel.Channel;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.LongSupplier;

/** A resolver's settings, all defaults resolved (see {@link DnsNameResolverBuilder}). Immutable. */
record DnsResolverConfig(ChannelFactory<? extends Channel> datagramChannelFactory,
                         ChannelFactory<? extends Channel> socketChannelFactory,
                         List<InetSocketAddress> nameServers, HostsFile hostsFile, List<String> searchDomains,
                         int ndots, long queryTimeoutMillis, int attempts, boolean rotate, int maxPayloadBytes,
                         ResolvedAddressTypes resolvedAddressTypes, long minTtlSeconds, long maxTtlSeconds,
                         long maxNegativeTtlSeconds, int maxCacheEntries, int maxCnameChain, int maxInFlightQueries,
                         int maxRecords, boolean recursionDesired, LongSupplier nanoTime) {
}
