package io.weir.handler.ipfilter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IpSubnetFilterTest {

    /** Records whether channelActive got through. */
    static final class ActiveRecorder implements ChannelHandler {
        final List<String> events = new ArrayList<>();

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            events.add("active");
            ctx.fireChannelActive();
        }
    }

    private static InetSocketAddress addr(String host) {
        return new InetSocketAddress(host, 1234);
    }

    @ParameterizedTest
    @CsvSource({
            "192.168.0.0/16, 192.168.255.1, true",
            "192.168.0.0/16, 192.169.0.1, false",
            "10.1.2.3/8, 10.200.0.0, true",
            "0.0.0.0/0, 8.8.8.8, true",
            "1.2.3.4/32, 1.2.3.4, true",
            "1.2.3.4/32, 1.2.3.5, false",
            "2001:db8::/32, 2001:db8:ffff::1, true",
            "2001:db8::/32, 2001:db9::1, false",
            "2001:db8::/127, 2001:db8::1, true",
            "2001:db8::/128, 2001:db8::1, false",
            "::/0, ::1, true",
            "192.168.0.0/16, ::1, false",
            "::/0, 127.0.0.1, false",
    })
    void subnetRulesMatchOnlyTheirSubnetAndFamily(String cidr, String address, boolean matches) {
        IpSubnetFilterRule rule = new IpSubnetFilterRule(cidr, IpFilterRuleType.ACCEPT);
        assertThat(rule.matches(addr(address))).isEqualTo(matches);
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.0/33", "10.0.0.0/-1", "::/129", "10.0.0.0", "10.0.0.0/", "/8", "10.0.0/8",
            "10.0.0.256/8", "010.0.0.0/8", "10.0.0.0.0/8", "example.com/8", "10.0.0.0/8/8", "10.0.0.0/ 8",
            "gg::/16", "::ffff:10.0.0.0/104", "10.0.0.0/1000"})
    void malformedCidrsAreRefusedWithTheInputInTheMessage(String cidr) {
        int slash = cidr.indexOf('/');
        String addressPart = slash < 0 ? cidr : cidr.substring(0, slash);
        String prefixPart = slash < 0 ? cidr : cidr.substring(slash + 1);
        assertThatThrownBy(() -> new IpSubnetFilterRule(cidr, IpFilterRuleType.REJECT))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).matches(
                        m -> m.contains(cidr) || m.contains(addressPart) || m.contains(prefixPart),
                        "names the offending input"));
    }

    @Test
    void prefixOutOfRangeForTheFamilyIsRefused() throws Exception {
        assertThatThrownBy(() -> new IpSubnetFilterRule(InetAddress.getByName("10.0.0.1"), 64, IpFilterRuleType.ACCEPT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cidrPrefix: 64 (expected: 0..32");
        assertThatThrownBy(() -> new IpSubnetFilterRule("fe80::", 200, IpFilterRuleType.ACCEPT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cidrPrefix: 200 (expected: 0..128");
    }

    @Test
    void theMostSpecificRuleWinsWhateverTheOrder() {
        IpSubnetFilter filter = new IpSubnetFilter(true,
                new IpSubnetFilterRule("10.1.0.0/16", IpFilterRuleType.ACCEPT),
                new IpSubnetFilterRule("10.0.0.0/8", IpFilterRuleType.REJECT),
                new IpSubnetFilterRule("10.1.2.0/24", IpFilterRuleType.REJECT),
                new IpSubnetFilterRule("2001:db8::/32", IpFilterRuleType.REJECT),
                new IpSubnetFilterRule("2001:db8:1::/48", IpFilterRuleType.ACCEPT));
        assertThat(filter.find(addr("10.9.9.9").getAddress()).ruleType()).isEqualTo(IpFilterRuleType.REJECT);
        assertThat(filter.find(addr("10.1.9.9").getAddress()).ruleType()).isEqualTo(IpFilterRuleType.ACCEPT);
        assertThat(filter.find(addr("10.1.2.9").getAddress()).ruleType()).isEqualTo(IpFilterRuleType.REJECT);
        assertThat(filter.find(addr("2001:db8:2::1").getAddress()).ruleType()).isEqualTo(IpFilterRuleType.REJECT);
        assertThat(filter.find(addr("2001:db8:1::1").getAddress()).ruleType()).isEqualTo(IpFilterRuleType.ACCEPT);
        assertThat(filter.find(addr("11.0.0.1").getAddress())).isNull();
    }

    @Test
    void rejectWinsForTheSameSubnetGivenTwice() {
        IpSubnetFilter filter = new IpSubnetFilter(true,
                new IpSubnetFilterRule("172.16.0.0/12", IpFilterRuleType.ACCEPT),
                new IpSubnetFilterRule("172.16.0.0/12", IpFilterRuleType.REJECT));
        assertThat(filter.find(addr("172.20.0.1").getAddress()).ruleType()).isEqualTo(IpFilterRuleType.REJECT);
    }

    @Test
    void manyRulesAreSearchedCorrectly() {
        List<IpSubnetFilterRule> rules = new ArrayList<>();
        for (int i = 0; i < 256; i += 2) {
            rules.add(new IpSubnetFilterRule("192.168." + i + ".0/24", IpFilterRuleType.REJECT));
        }
        IpSubnetFilter filter = new IpSubnetFilter(true, rules);
        for (int i = 0; i < 256; i++) {
            assertThat(filter.find(addr("192.168." + i + ".7").getAddress()) != null).isEqualTo(i % 2 == 0);
        }
    }

    @Test
    void rejectedChannelIsClosedAndNeverSeenActive() {
        ActiveRecorder recorder = new ActiveRecorder();
        IpSubnetFilter filter = new IpSubnetFilter(true, new IpSubnetFilterRule("203.0.113.0/24", IpFilterRuleType.REJECT));
        AddressedChannel ch = AddressedChannel.accepted("203.0.113.9", filter, recorder);
        assertThat(ch.isOpen()).isFalse();
        assertThat(recorder.events).isEmpty();
    }

    @Test
    void acceptedChannelGoesOnAndTheFilterLeavesThePipeline() {
        ActiveRecorder recorder = new ActiveRecorder();
        IpSubnetFilter filter = new IpSubnetFilter(false,
                new IpSubnetFilterRule("2001:db8::/32", IpFilterRuleType.ACCEPT));
        AddressedChannel ch = AddressedChannel.accepted("2001:db8::42", filter, recorder);
        assertThat(ch.isOpen()).isTrue();
        assertThat(recorder.events).containsExactly("active");
        assertThat(ch.pipeline().get(IpSubnetFilter.class)).isNull();
        ch.close();
        ch.runTasks();
    }

    @Test
    void unmatchedAddressesFollowAcceptIfNotFound() {
        IpSubnetFilterRule rule = new IpSubnetFilterRule("10.0.0.0/8", IpFilterRuleType.ACCEPT);
        AddressedChannel rejected = AddressedChannel.accepted("192.0.2.1", new IpSubnetFilter(false, rule));
        AddressedChannel accepted = AddressedChannel.accepted("192.0.2.1", new IpSubnetFilter(true, rule));
        assertThat(rejected.isOpen()).isFalse();
        assertThat(accepted.isOpen()).isTrue();
        accepted.close();
        accepted.runTasks();
    }

    @Test
    void clientChannelIsDecidedWhenItConnects() {
        ActiveRecorder recorder = new ActiveRecorder();
        int[] rejections = new int[1];
        IpSubnetFilter filter = new IpSubnetFilter(true, new IpSubnetFilterRule("198.51.100.0/24", IpFilterRuleType.REJECT)) {
            @Override
            protected io.weir.channel.ChannelFuture channelRejected(ChannelHandlerContext ctx,
                                                                   InetSocketAddress remoteAddress) {
                rejections[0]++;
                return null;
            }
        };
        AddressedChannel ch = AddressedChannel.unconnected(filter, recorder);
        assertThat(ch.isOpen()).isTrue();
        ch.connect(addr("198.51.100.7"));
        ch.runTasks();
        assertThat(ch.isOpen()).isFalse();
        assertThat(rejections[0]).isEqualTo(1);
        assertThat(recorder.events).isEmpty();
    }

    @Test
    void aFilterThatThrowsRejectsTheChannel() {
        ActiveRecorder recorder = new ActiveRecorder();
        List<Throwable> errors = new ArrayList<>();
        AbstractRemoteAddressFilter<InetSocketAddress> broken = new AbstractRemoteAddressFilter<>() {
            @Override
            protected boolean accept(ChannelHandlerContext ctx, InetSocketAddress remoteAddress) {
                throw new IllegalStateException("rule store unavailable");
            }
        };
        ChannelHandler errorSink = new ChannelHandler() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                errors.add(cause);
            }
        };
        AddressedChannel ch = AddressedChannel.accepted("192.0.2.1", broken, recorder, errorSink);
        assertThat(ch.isOpen()).isFalse();
        assertThat(recorder.events).isEmpty();
        assertThat(errors).singleElement().satisfies(e -> assertThat(e).hasMessage("rule store unavailable"));
    }

    @Test
    void anActiveChannelWithoutRemoteAddressIsClosed() {
        ActiveRecorder recorder = new ActiveRecorder();
        List<Throwable> errors = new ArrayList<>();
        ChannelHandler errorSink = new ChannelHandler() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                errors.add(cause);
            }
        };
        AddressedChannel ch = AddressedChannel.activeWithoutAddress(
                new IpSubnetFilter(true, new IpSubnetFilterRule("0.0.0.0/0", IpFilterRuleType.ACCEPT)),
                recorder, errorSink);
        assertThat(ch.isOpen()).isFalse();
        assertThat(recorder.events).isEmpty();
        assertThat(errors).singleElement().isInstanceOf(IllegalStateException.class);
    }

    @Test
    void uniqueIpFilterAllowsOneChannelPerAddressUntilItCloses() {
        UniqueIpFilter filter = new UniqueIpFilter();
        AddressedChannel first = AddressedChannel.accepted("192.0.2.10", filter);
        AddressedChannel second = AddressedChannel.accepted("192.0.2.10", filter);
        AddressedChannel other = AddressedChannel.accepted("192.0.2.11", filter);
        assertThat(first.isOpen()).isTrue();
        assertThat(second.isOpen()).isFalse();
        assertThat(other.isOpen()).isTrue();

        first.close();
        first.runTasks();
        AddressedChannel third = AddressedChannel.accepted("192.0.2.10", filter);
        assertThat(third.isOpen()).isTrue();
        third.close();
        third.runTasks();
        other.close();
        other.runTasks();
    }
}
