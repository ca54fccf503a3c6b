package io.weir.handler.ipfilter;

/** What an {@link IpFilterRule} does with a matching remote address. */
public enum IpFilterRuleType {
    /** Let the channel through. */
    ACCEPT,
    /** Close the channel. */
    REJECT
}
