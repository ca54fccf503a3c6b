/**
 * Admission by remote address: IPv4 and IPv6 subnet rules ({@link io.weir.handler.ipfilter.IpSubnetFilter})
 * and one connection per address ({@link io.weir.handler.ipfilter.UniqueIpFilter}).
 */
package io.weir.handler.ipfilter;
