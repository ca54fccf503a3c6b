package io.weir.handler.ipfilter;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Accepts or rejects channels by {@link IpSubnetFilterRule}s. The most specific rule wins (the longest prefix
 * that matches, as in a routing table), so {@code 10.0.0.0/8 REJECT} with {@code 10.1.0.0/16 ACCEPT} lets
 * {@code 10.1.x.x} through; for the same subnet given as both, REJECT wins. The order rules are given in does
 * not matter. A remote address no rule matches is accepted only if {@code acceptIfNotFound}.
 *
 * <p>Rules are sorted once, grouped by family and prefix length; a lookup does one binary search per distinct
 * prefix length, longest first. {@link Sharable} and immutable: one instance can guard every channel of a
 * server.
 */
@ChannelHandler.Sharable
public class IpSubnetFilter extends AbstractRemoteAddressFilter<InetSocketAddress> {
    private final boolean acceptIfNotFound;
    private final RuleTable ipv4;
    private final RuleTable ipv6;

    /** Rejects addresses no rule matches. */
    public IpSubnetFilter(IpSubnetFilterRule... rules) {
        this(false, Arrays.asList(rules));
    }

    /** Decides by {@code rules}; addresses no rule matches are accepted only if {@code acceptIfNotFound}. */
    public IpSubnetFilter(boolean acceptIfNotFound, IpSubnetFilterRule... rules) {
        this(acceptIfNotFound, Arrays.asList(rules));
    }

    /** Rejects addresses no rule matches. */
    public IpSubnetFilter(List<IpSubnetFilterRule> rules) {
        this(false, rules);
    }

    /**
     * Decides by {@code rules}; addresses no rule matches are accepted only if {@code acceptIfNotFound}.
     *
     * @throws NullPointerException if {@code rules} or one of them is null
     */
    public IpSubnetFilter(boolean acceptIfNotFound, List<IpSubnetFilterRule> rules) {
        Objects.requireNonNull(rules, "rules");
        this.acceptIfNotFound = acceptIfNotFound;
        List<IpSubnetFilterRule> v4 = new ArrayList<>();
        List<IpSubnetFilterRule> v6 = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            IpSubnetFilterRule rule = Objects.requireNonNull(rules.get(i), "rules[" + i + "]");
            (rule.isIpv6() ? v6 : v4).add(rule);
        }
        this.ipv4 = new RuleTable(v4);
        this.ipv6 = new RuleTable(v6);
    }

    /** Whether addresses no rule matches are accepted. */
    public boolean acceptIfNotFound() {
        return acceptIfNotFound;
    }

    @Override
    protected boolean accept(ChannelHandlerContext ctx, InetSocketAddress remoteAddress) throws Exception {
        InetAddress address = remoteAddress.getAddress();
        if (address == null) {
            // Unresolved: nothing to match against.
            return acceptIfNotFound;
        }
        IpSubnetFilterRule rule = find(address);
        return rule == null ? acceptIfNotFound : rule.ruleType() == IpFilterRuleType.ACCEPT;
    }

    /** The rule deciding about {@code address}, or {@code null} if none matches. */
    public IpSubnetFilterRule find(InetAddress address) {
        byte[] bytes = Objects.requireNonNull(address, "address").getAddress();
        RuleTable table = bytes.length == 16 ? ipv6 : ipv4;
        return table.find(IpSubnetFilterRule.hiOf(bytes), IpSubnetFilterRule.loOf(bytes));
    }

    /** One family's rules sorted by prefix (longest first) then network, with the start of each prefix group. */
    private static final class RuleTable {
        private final IpSubnetFilterRule[] rules;
        // groupStarts[g] .. groupStarts[g + 1] are the rules of the g-th prefix length.
        private final int[] groupStarts;

        RuleTable(List<IpSubnetFilterRule> input) {
            IpSubnetFilterRule[] sorted = input.toArray(new IpSubnetFilterRule[0]);
            Arrays.sort(sorted);
            // Drop repeats of a subnet: the first (REJECT sorts first) decides.
            int n = 0;
            for (IpSubnetFilterRule rule : sorted) {
                if (n == 0 || !sorted[n - 1].sameSubnet(rule)) {
                    sorted[n++] = rule;
                }
            }
            rules = Arrays.copyOf(sorted, n);
            int groups = 0;
            int[] starts = new int[n + 1];
            for (int i = 0; i < n; i++) {
                if (i == 0 || rules[i].cidrPrefix() != rules[i - 1].cidrPrefix()) {
                    starts[groups++] = i;
                }
            }
            starts[groups] = n;
            groupStarts = Arrays.copyOf(starts, groups + 1);
        }

        IpSubnetFilterRule find(long hi, long lo) {
            for (int g = 0; g < groupStarts.length - 1; g++) {
                int low = groupStarts[g];
                int high = groupStarts[g + 1] - 1;
                while (low <= high) {
                    int mid = (low + high) >>> 1;
                    int c = rules[mid].compareMasked(hi, lo);
                    if (c < 0) {
                        low = mid + 1;
                    } else if (c > 0) {
                        high = mid - 1;
                    } else {
                        return rules[mid];
                    }
                }
            }
            return null;
        }
    }
}
