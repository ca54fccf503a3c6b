/**
 * An asynchronous DNS resolver on Weir's channels. {@link io.weir.resolver.dns.DnsNameResolver} resolves host names
 * (hosts file, cache, then UDP queries with TCP fallback, CNAME chains, the resolv.conf search list) and answers
 * raw questions (SRV, TXT); {@link io.weir.resolver.dns.DnsAddressResolverGroup} plugs it into
 * {@code Bootstrap.resolver(..)}; {@link io.weir.resolver.dns.DnsNameResolverBuilder} configures both.
 *
 * <h2>Safety</h2>
 * Answers are untrusted: each is accepted only from the server asked, with the query's random id and question,
 * to a socket opened for that one try; anything else is dropped and counted, never buffered. Queries in flight,
 * cache entries, records per answer, CNAME links and TTLs are all bounded, and every wait has a timeout.
 */
package io.weir.resolver.dns;
