package io.weir.handler.ipfilter;

import java.net.InetSocketAddress;

/** A rule deciding about remote addresses it matches. Implementations must be immutable and thread-safe. */
public interface IpFilterRule {

    /** Whether the rule applies to {@code remoteAddress}. */
    boolean matches(InetSocketAddress remoteAddress);

    /** What to do with a matching address. */
    IpFilterRuleType ruleType();
}
