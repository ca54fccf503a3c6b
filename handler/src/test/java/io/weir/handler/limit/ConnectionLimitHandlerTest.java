package io.weir.handler.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.Channel;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The connection cap, with embedded channels standing in for the server channel and the accepted ones. */
class ConnectionLimitHandlerTest {

    private static List<Channel> accepted(EmbeddedChannel server) {
        List<Channel> passed = new ArrayList<>();
        for (Object o; (o = server.readInbound()) != null; ) {
            passed.add((Channel) o);
        }
        return passed;
    }

    @Test
    void connectionCapRefusesBeyondLimit() {
        ConnectionLimitHandler limit = new ConnectionLimitHandler(2);
        EmbeddedChannel server = new EmbeddedChannel(limit);
        EmbeddedChannel first = new EmbeddedChannel();
        EmbeddedChannel second = new EmbeddedChannel();
        EmbeddedChannel third = new EmbeddedChannel();
        server.writeInbound(first, second, third);

        assertThat(accepted(server)).containsExactly(first, second);
        assertThat(third.isOpen()).as("refused at once").isFalse();
        assertThat(first.isOpen()).isTrue();
        assertThat(limit.openConnections()).isEqualTo(2);
        assertThat(limit.rejectedConnections()).isEqualTo(1);

        // A closed connection frees its place for the next one.
        first.close();
        first.runPendingTasks();
        assertThat(limit.openConnections()).isEqualTo(1);
        EmbeddedChannel fourth = new EmbeddedChannel();
        server.writeInbound(fourth);
        assertThat(accepted(server)).containsExactly(fourth);
        assertThat(limit.openConnections()).isEqualTo(2);
        assertThat(limit.rejectedConnections()).isEqualTo(1);
        assertThat(limit.toString()).contains("2/2 open", "1 rejected");

        second.finishAndReleaseAll();
        fourth.finishAndReleaseAll();
        server.finishAndReleaseAll();
    }

    @Test
    void sharedCapCountsEveryServerChannel() {
        ConnectionLimitHandler limit = new ConnectionLimitHandler(1);
        EmbeddedChannel ipv4 = new EmbeddedChannel(limit);
        EmbeddedChannel ipv6 = new EmbeddedChannel(limit);
        EmbeddedChannel a = new EmbeddedChannel();
        EmbeddedChannel b = new EmbeddedChannel();
        ipv4.writeInbound(a);
        ipv6.writeInbound(b);
        assertThat(accepted(ipv4)).containsExactly(a);
        assertThat(accepted(ipv6)).isEmpty();
        assertThat(b.isOpen()).isFalse();
        assertThat(limit.rejectedConnections()).isEqualTo(1);
        a.finishAndReleaseAll();
        ipv4.finishAndReleaseAll();
        ipv6.finishAndReleaseAll();
    }

    @Test
    void otherMessagesPassThrough() {
        EmbeddedChannel server = new EmbeddedChannel(new ConnectionLimitHandler(1));
        server.writeInbound("not a channel");
        assertThat((String) server.readInbound()).isEqualTo("not a channel");
        server.finishAndReleaseAll();
    }

    @Test
    void nonPositiveCapIsRefused() {
        assertThatThrownBy(() -> new ConnectionLimitHandler(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxConnections: 0");
    }
}
