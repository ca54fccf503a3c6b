/**
 * DNS messages (RFC 1035, with EDNS0 from RFC 6891): {@link io.weir.handler.codec.dns.DnsMessage} with its
 * {@link io.weir.handler.codec.dns.DnsQuestion}s and {@link io.weir.handler.codec.dns.DnsRecord}s (A and AAAA,
 * CNAME, SRV, TXT, SOA, OPT decoded; other types kept as bytes), a bounded decoder
 * ({@link io.weir.handler.codec.dns.DnsMessageDecoder}) and an encoder
 * ({@link io.weir.handler.codec.dns.DnsMessageEncoder}), and pipeline handlers for UDP
 * ({@link io.weir.handler.codec.dns.DatagramDnsDecoder}, {@link io.weir.handler.codec.dns.DatagramDnsEncoder}) and
 * TCP with its 2-byte length prefix ({@link io.weir.handler.codec.dns.TcpDnsDecoder},
 * {@link io.weir.handler.codec.dns.TcpDnsEncoder}).
 *
 * <h2>Hostile input</h2>
 * Answers come from the network, so the decoder treats every byte as an attacker's: compression pointers must
 * point backwards, every count and length is checked against the bytes present, names and labels are bounded, and
 * the questions and records of one message are capped. Whatever breaks a rule is refused with a
 * {@link io.weir.handler.codec.dns.DnsDecoderException}, cheaply (no stack trace).
 *
 * <h2>Ownership</h2>
 * Messages and records are immutable values holding copies ({@code String}, {@code byte[]}, {@code InetAddress}),
 * never buffers: nothing to release, safe to share between threads and to cache.
 */
package io.weir.handler.codec.dns;
