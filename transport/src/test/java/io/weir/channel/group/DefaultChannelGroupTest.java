package io.weir.channel.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufHolder;
import io.weir.buffer.DefaultByteBufHolder;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.DefaultChannelId;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.AbstractReferenceCounted;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.DefaultEventExecutor;
import io.weir.util.concurrent.ImmediateEventExecutor;
import io.weir.util.concurrent.Promise;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The group's contract on embedded channels: membership, ownership of written messages, futures. */
class DefaultChannelGroupTest {
    private static final long TIMEOUT_SECONDS = 30;
    private static final byte[] PAYLOAD = "broadcast".getBytes(StandardCharsets.US_ASCII);

    private final List<EmbeddedChannel> channels = new ArrayList<>();
    private final ChannelGroup group = new DefaultChannelGroup("test", ImmediateEventExecutor.INSTANCE);

    @AfterEach
    void releaseEverything() {
        for (EmbeddedChannel ch : channels) {
            ch.finishAndReleaseAll();
        }
    }

    /** An embedded channel with an id of its own (the default embedded id is shared by all). */
    private EmbeddedChannel channel(ChannelHandler... handlers) {
        EmbeddedChannel ch = new EmbeddedChannel(DefaultChannelId.newInstance(), handlers);
        channels.add(ch);
        return ch;
    }

    /** {@link #channel} added to the group. */
    private EmbeddedChannel member(ChannelHandler... handlers) {
        EmbeddedChannel ch = channel(handlers);
        assertThat(group.add(ch)).isTrue();
        return ch;
    }

    private static ByteBuf payload() {
        return Unpooled.buffer(PAYLOAD.length).writeBytes(PAYLOAD);
    }

    private static byte[] readAndRelease(EmbeddedChannel ch) {
        ByteBuf out = ch.readOutbound();
        assertThat(out).as("written to " + ch).isNotNull();
        try {
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            return bytes;
        } finally {
            out.release();
        }
    }

    // ---------------------------------------------------------------- membership

    @Test
    void aMemberThatClosesLeavesTheGroup() {
        EmbeddedChannel a = member();
        EmbeddedChannel b = member();

        a.close();

        assertThat(group).containsExactly(b);
        assertThat(group.find(a.id())).isNull();
        assertThat(group.find(b.id())).isSameAs(b);
    }

    @Test
    void removeTakesTheCloseListenerOffTheChannel() {
        CloseListenerProbe probe = new CloseListenerProbe(channel());
        Channel ch = probe.channel();

        assertThat(group.add(ch)).isTrue();
        assertThat(group.add(ch)).as("already a member").isFalse();
        assertThat(probe.listeners()).isEqualTo(1);

        assertThat(group.remove(ch)).isTrue();
        assertThat(probe.listeners()).as("listener left on a removed channel").isZero();
        assertThat(group.remove(ch)).isFalse();
        assertThat(group).isEmpty();
    }

    @Test
    void iteratorRemoveAndClearAlsoTakeTheListenersOff() {
        CloseListenerProbe first = new CloseListenerProbe(channel());
        CloseListenerProbe second = new CloseListenerProbe(channel());
        CloseListenerProbe third = new CloseListenerProbe(channel());
        group.add(first.channel());
        group.add(second.channel());
        group.add(third.channel());

        Iterator<Channel> it = group.iterator();
        Channel removed = it.next();
        it.remove();
        assertThat(group).hasSize(2).doesNotContain(removed);
        assertThatThrownBy(it::remove).isInstanceOf(IllegalStateException.class);

        group.clear();
        assertThat(group).isEmpty();
        assertThat(first.listeners() + second.listeners() + third.listeners()).isZero();
    }

    @Test
    void aChannelThatIsAlreadyClosedIsNotAdded() {
        EmbeddedChannel closed = channel();
        closed.close();
        CloseListenerProbe probe = new CloseListenerProbe(closed);

        assertThat(group.add(probe.channel())).isFalse();
        assertThat(group.add(closed)).isFalse();

        assertThat(group).isEmpty();
        assertThat(probe.listeners()).isZero();
    }

    @Test
    void aSecondChannelWithTheIdOfAMemberIsRefused() {
        EmbeddedChannel first = new EmbeddedChannel();
        EmbeddedChannel second = new EmbeddedChannel();
        channels.add(first);
        channels.add(second);
        group.add(first);

        assertThatThrownBy(() -> group.add(second)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("id");
        assertThat(group).containsExactly(first);
        assertThat(group.contains(second)).isFalse();
        assertThat(group.remove(second)).as("not the member, though it has its id").isFalse();
        assertThat(group).containsExactly(first);
    }

    @Test
    void aStayClosedGroupClosesChannelsAddedAfterItWasClosed() {
        ChannelGroup stayClosed = new DefaultChannelGroup("stay", ImmediateEventExecutor.INSTANCE, true);
        EmbeddedChannel before = channel();
        stayClosed.add(before);
        assertThat(stayClosed.close().isSuccess()).isTrue();
        assertThat(before.isOpen()).isFalse();

        EmbeddedChannel late = channel();
        stayClosed.add(late);

        assertThat(late.isOpen()).isFalse();
        assertThat(stayClosed).isEmpty();
    }

    @Test
    void anOrdinaryGroupKeepsChannelsAddedAfterItWasClosed() {
        group.close();
        EmbeddedChannel late = channel();
        group.add(late);

        assertThat(late.isOpen()).isTrue();
        assertThat(group).containsExactly(late);
    }

    @Test
    void newCloseFutureWaitsForTheMembersOfTheMoment() {
        EmbeddedChannel a = member();
        EmbeddedChannel b = member();
        ChannelGroupFuture allClosed = group.newCloseFuture();
        EmbeddedChannel later = channel();
        group.add(later);

        a.close();
        assertThat(allClosed.isDone()).isFalse();
        b.close();

        assertThat(allClosed.isSuccess()).isTrue();
        assertThat(allClosed.find(later)).as("added after the call").isNull();
        assertThat(later.isOpen()).isTrue();
    }

    // ---------------------------------------------------------------- writing: ownership

    @Test
    void writeAndFlushGivesEachChannelItsOwnViewAndReleasesTheOriginalOnce() {
        EmbeddedChannel a = member();
        EmbeddedChannel b = member();
        EmbeddedChannel c = member();
        ByteBuf msg = payload();

        ChannelGroupFuture future = group.writeAndFlush(msg);

        assertThat(future.isSuccess()).isTrue();
        assertThat((Iterable<ChannelFuture>) future).hasSize(3);
        // One reference per channel, none left for the caller; each reads the whole message on its own.
        assertThat(msg.refCnt()).isEqualTo(3);
        assertThat(readAndRelease(a)).isEqualTo(PAYLOAD);
        assertThat(readAndRelease(b)).isEqualTo(PAYLOAD);
        assertThat(readAndRelease(c)).isEqualTo(PAYLOAD);
        assertThat(msg.refCnt()).isZero();
    }

    @Test
    void writeQueuesUntilFlush() {
        EmbeddedChannel a = member();

        ChannelGroupFuture future = group.write(payload());
        assertThat(a.outboundMessages()).isEmpty();
        assertThat(future.isDone()).isFalse();

        assertThat(group.flush()).isSameAs(group);
        assertThat(future.isSuccess()).isTrue();
        assertThat(readAndRelease(a)).isEqualTo(PAYLOAD);
    }

    @Test
    void aWriteThatReachesNoChannelStillReleasesTheMessage() {
        ByteBuf toEmptyGroup = payload();
        ChannelGroupFuture future = group.writeAndFlush(toEmptyGroup);
        assertThat(toEmptyGroup.refCnt()).isZero();
        assertThat(future.isSuccess()).isTrue();
        assertThat((Iterable<ChannelFuture>) future).isEmpty();

        EmbeddedChannel a = member();
        ByteBuf matchingNone = payload();
        assertThat(group.writeAndFlush(matchingNone, ChannelMatchers.isServerChannel()).isSuccess()).isTrue();
        assertThat(matchingNone.refCnt()).isZero();
        assertThat(a.outboundMessages()).isEmpty();
    }

    @Test
    void aMessageIsReleasedEvenWhenTheMatcherIsMissing() {
        member();
        ByteBuf msg = payload();

        assertThatThrownBy(() -> group.writeAndFlush(msg, null)).isInstanceOf(NullPointerException.class);
        assertThat(msg.refCnt()).isZero();
    }

    @Test
    void aHolderIsDuplicatedPerChannelAndOtherCountedMessagesAreRetained() {
        EmbeddedChannel a = member();
        EmbeddedChannel b = member();

        ByteBufHolder holder = new DefaultByteBufHolder(payload());
        group.writeAndFlush(holder);
        ByteBufHolder toA = a.readOutbound();
        ByteBufHolder toB = b.readOutbound();
        assertThat(toA).isNotSameAs(toB).isNotSameAs(holder);
        toA.content().skipBytes(PAYLOAD.length);
        assertThat(toB.content().readableBytes()).as("indexes are per channel").isEqualTo(PAYLOAD.length);
        toA.release();
        toB.release();
        assertThat(holder.refCnt()).isZero();

        Counted counted = new Counted();
        group.writeAndFlush(counted);
        Object sameA = a.readOutbound();
        Object sameB = b.readOutbound();
        assertThat(sameA).isSameAs(counted).isSameAs(sameB);
        assertThat(counted.refCnt()).isEqualTo(2);
        ReferenceCountUtil.release(sameA);
        ReferenceCountUtil.release(sameB);
        assertThat(counted.refCnt()).isZero();
    }

    @Test
    void deregisterKeepsTheMembersAndDisconnectClosesThoseThatCannotDisconnect() {
        EmbeddedChannel a = member();
        EmbeddedChannel b = member();

        ChannelGroupFuture deregistered = group.deregister(ChannelMatchers.is(a));
        a.embeddedEventLoop().runPendingTasks();
        assertThat(deregistered.isSuccess()).isTrue();
        assertThat(a.isRegistered()).isFalse();
        assertThat(group).contains(a);

        ChannelGroupFuture disconnected = group.disconnect(ChannelMatchers.is(b));
        assertThat(disconnected.isSuccess()).isTrue();
        assertThat(b.isOpen()).as("an embedded channel has no disconnect: it closes").isFalse();
        assertThat(group).containsExactly(a);
    }

    // ---------------------------------------------------------------- matchers and futures

    @Test
    void onlyMatchedChannelsAreActedOn() {
        EmbeddedChannel a = member();
        EmbeddedChannel sender = member();
        EmbeddedChannel c = member();

        ChannelGroupFuture relayed = group.writeAndFlush(payload(), ChannelMatchers.isNot(sender));

        assertThat(relayed.isSuccess()).isTrue();
        assertThat(relayed.find(sender)).isNull();
        assertThat(relayed.find(a).isSuccess()).isTrue();
        assertThat(sender.outboundMessages()).isEmpty();
        assertThat(readAndRelease(a)).isEqualTo(PAYLOAD);
        assertThat(readAndRelease(c)).isEqualTo(PAYLOAD);

        ChannelGroupFuture closed = group.close(ChannelMatchers.is(sender));
        assertThat(closed.isSuccess()).isTrue();
        assertThat(sender.isOpen()).isFalse();
        assertThat(a.isOpen()).isTrue();
        assertThat(group).containsExactlyInAnyOrder(a, c);
    }

    @Test
    void aWriteFailingOnOneChannelIsAPartialFailureNamingThatChannel() {
        RefusingWrites refusal = new RefusingWrites();
        EmbeddedChannel good = member();
        EmbeddedChannel bad = member(refusal);
        ByteBuf msg = payload();

        ChannelGroupFuture future = group.writeAndFlush(msg);

        assertThat(future.isDone()).isTrue();
        assertThat(future.isSuccess()).isFalse();
        assertThat(future.isPartialFailure()).isTrue();
        assertThat(future.isPartialSuccess()).isTrue();
        assertThat(future.find(good).isSuccess()).isTrue();
        assertThat(future.find(bad).cause()).isSameAs(refusal.cause);
        ChannelGroupException cause = future.cause();
        assertThat(cause.failures()).containsOnlyKeys(bad).containsEntry(bad, refusal.cause);
        assertThat(cause.attempted()).isEqualTo(2);
        assertThat(cause).hasMessageContaining("1 of 2").hasMessageContaining(bad.toString());
        assertThat(cause.getSuppressed()).containsExactly(refusal.cause);
        assertThatThrownBy(future::sync).isSameAs(cause);

        assertThat(readAndRelease(good)).isEqualTo(PAYLOAD);
        assertThat(msg.refCnt()).isZero();
    }

    @Test
    void aWriteFailingEverywhereIsNoPartialFailure() {
        RefusingWrites refusal = new RefusingWrites();
        member(refusal);
        member(refusal);

        ChannelGroupFuture future = group.writeAndFlush(payload());

        assertThat(future.isSuccess()).isFalse();
        assertThat(future.isPartialFailure()).isFalse();
        assertThat(future.isPartialSuccess()).isFalse();
        assertThat(future.cause().failures()).hasSize(2);
        // Both channels failed with the same exception: it is attached once.
        assertThat(future.cause().getSuppressed()).containsExactly(refusal.cause);
    }

    @Test
    void aGroupFutureIsCompletedByItsChannelsOnly() {
        member();
        ChannelGroupFuture future = group.write(payload());
        @SuppressWarnings("unchecked")
        Promise<Void> asPromise = (Promise<Void>) future;

        assertThat(future.cancel(false)).isFalse();
        assertThatThrownBy(() -> asPromise.setSuccess(null)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> asPromise.tryFailure(new IOException())).isInstanceOf(IllegalStateException.class);
        assertThat(future.isDone()).isFalse();
        group.flush();
        assertThat(future.isSuccess()).isTrue();
    }

    @Test
    void listenersRunOnTheGroupsExecutor() throws Exception {
        DefaultEventExecutor executor = new DefaultEventExecutor();
        try {
            ChannelGroup notifying = new DefaultChannelGroup("notifying", executor);
            EmbeddedChannel a = channel();
            notifying.add(a);
            ChannelGroupFuture pending = notifying.write(payload());
            CompletableFuture<Boolean> onExecutor = new CompletableFuture<>();
            pending.addListener((ChannelGroupFutureListener) f -> onExecutor.complete(executor.inEventLoop()));

            notifying.flush();

            assertThat(onExecutor.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Boolean> lateOnExecutor = new CompletableFuture<>();
            pending.addListener((ChannelGroupFutureListener) f -> lateOnExecutor.complete(executor.inEventLoop()));
            assertThat(lateOnExecutor.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("added once done").isTrue();
            assertThat(readAndRelease(a)).isEqualTo(PAYLOAD);
        } finally {
            executor.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void nullArgumentsAreRefused() {
        assertThatThrownBy(() -> new DefaultChannelGroup(null, ImmediateEventExecutor.INSTANCE))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new DefaultChannelGroup("g", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> group.add(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> group.write(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> group.close(null)).isInstanceOf(NullPointerException.class);
        assertThat(group.contains(null)).isFalse();
        assertThat(group.remove("not a channel")).isFalse();
    }

    /** Fails every write with one exception, releasing the message as a handler that ends a write must. */
    @ChannelHandler.Sharable
    private static final class RefusingWrites implements ChannelHandler {
        final IOException cause = new IOException("refused by test");

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            ReferenceCountUtil.release(msg);
            promise.setFailure(cause);
        }
    }

    /** A counted message that is not a buffer. */
    private static final class Counted extends AbstractReferenceCounted {
        @Override
        protected void deallocate() {
        }
    }
}
