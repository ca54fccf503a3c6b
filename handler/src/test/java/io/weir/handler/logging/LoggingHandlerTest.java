package io.weir.handler.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class LoggingHandlerTest {

    /** A logger that keeps every line logged at or above its threshold. */
    static final class CapturingLogger implements Logger {
        final List<String> lines = new ArrayList<>();
        final Level threshold;

        CapturingLogger(Level threshold) {
            this.threshold = threshold;
        }

        @Override
        public String getName() {
            return "capture";
        }

        @Override
        public boolean isLoggable(Level level) {
            return level.getSeverity() >= threshold.getSeverity();
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            if (!isLoggable(level)) {
                throw new AssertionError("logged below the threshold: " + msg);
            }
            lines.add(level + " " + msg);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            log(level, bundle, format, (Throwable) null);
        }

        @Override
        public void log(Level level, Supplier<String> msgSupplier) {
            log(level, null, msgSupplier.get(), (Throwable) null);
        }
    }

    @Test
    void logsLifeCycleAndMessagesInBothDirectionsWithTheChannelId() {
        CapturingLogger logger = new CapturingLogger(Level.DEBUG);
        EmbeddedChannel ch = new EmbeddedChannel(new LoggingHandler(logger, Level.DEBUG, ByteBufFormat.SIMPLE));
        ch.writeInbound("hello");
        ch.writeOutbound("world");
        assertThat(ch.<String>readInbound()).isEqualTo("hello");
        assertThat(ch.<String>readOutbound()).isEqualTo("world");
        ch.finish();

        String id = ch.id().asShortText();
        assertThat(logger.lines).allSatisfy(line -> assertThat(line).startsWith("DEBUG [id: 0x" + id));
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).endsWith(" REGISTERED"));
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).endsWith(" ACTIVE"));
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).endsWith(" READ: hello"));
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).endsWith(" READ COMPLETE"));
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).endsWith(" WRITE: world"));
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).endsWith(" FLUSH"));
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).endsWith(" CLOSE"));
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).endsWith(" INACTIVE"));
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).endsWith(" UNREGISTERED"));
    }

    @Test
    void hexDumpFormatShowsSizeAndPrettyDumpWithoutConsumingTheBuffer() {
        CapturingLogger logger = new CapturingLogger(Level.INFO);
        EmbeddedChannel ch = new EmbeddedChannel(new LoggingHandler(logger, Level.INFO, ByteBufFormat.HEX_DUMP));
        ByteBuf in = Unpooled.copiedBuffer("ABC", StandardCharsets.US_ASCII);
        ch.writeInbound(in);
        ByteBuf read = ch.readInbound();
        assertThat(read.toString(StandardCharsets.US_ASCII)).isEqualTo("ABC");
        read.release();

        String line = logger.lines.stream().filter(l -> l.contains(" READ: ")).findFirst().orElseThrow();
        assertThat(line).contains(" READ: 3B\n").contains("41 42 43").contains("|ABC");
        ch.finishAndReleaseAll();
    }

    @Test
    void simpleFormatShowsOnlyTheSize() {
        CapturingLogger logger = new CapturingLogger(Level.INFO);
        EmbeddedChannel ch = new EmbeddedChannel(new LoggingHandler(logger, Level.INFO, ByteBufFormat.SIMPLE));
        ch.writeOutbound(Unpooled.copiedBuffer("ABCD", StandardCharsets.US_ASCII));
        ch.releaseOutbound();
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).endsWith(" WRITE: 4B"));
        assertThat(logger.lines).noneSatisfy(line -> assertThat(line).contains("41 42"));
        ch.finishAndReleaseAll();
    }

    @Test
    void exceptionsAndUserEventsAreLoggedAndPassedOn() {
        CapturingLogger logger = new CapturingLogger(Level.DEBUG);
        EmbeddedChannel ch = new EmbeddedChannel(new LoggingHandler(logger, Level.DEBUG, ByteBufFormat.SIMPLE));
        ch.pipeline().fireUserEventTriggered("tick");
        ch.pipeline().fireExceptionCaught(new IllegalStateException("boom"));
        assertThatThrownBy(ch::checkException).isInstanceOf(IllegalStateException.class).hasMessage("boom");
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).endsWith(" USER_EVENT: tick"));
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).contains(" EXCEPTION: ")
                .contains("boom"));
        ch.finishAndReleaseAll();
    }

    @Test
    void nothingIsFormattedWhenTheLevelIsOff() {
        // The capturing logger throws if asked to log below its threshold: the handler must check first.
        CapturingLogger logger = new CapturingLogger(Level.INFO);
        EmbeddedChannel ch = new EmbeddedChannel(new LoggingHandler(logger, Level.DEBUG, ByteBufFormat.HEX_DUMP));
        ch.writeInbound("in");
        ch.writeOutbound("out");
        assertThat(ch.<String>readInbound()).isEqualTo("in");
        assertThat(ch.<String>readOutbound()).isEqualTo("out");
        ch.finish();
        assertThat(logger.lines).isEmpty();
    }

    @Test
    void oneInstanceServesSeveralChannels() {
        CapturingLogger logger = new CapturingLogger(Level.DEBUG);
        LoggingHandler shared = new LoggingHandler(logger, Level.DEBUG, ByteBufFormat.SIMPLE);
        EmbeddedChannel a = new EmbeddedChannel(shared);
        EmbeddedChannel b = new EmbeddedChannel(shared);
        a.writeInbound("a");
        b.writeInbound("b");
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).endsWith(" READ: a"));
        assertThat(logger.lines).anySatisfy(line -> assertThat(line).endsWith(" READ: b"));
        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
    }

    @Test
    void thresholdLevelsAreRefused() {
        assertThatThrownBy(() -> new LoggingHandler(Level.OFF)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OFF");
    }
}
