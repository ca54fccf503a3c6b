package io.weir.util.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import org.junit.jupiter.api.Test;

/** The line a user reads when a native component is unavailable: the cause, what runs instead, and the fix. */
class NativeFallbackTest {
    private static final String LIBRARY_FIX = "put the native jar for this platform on the class path";

    /** Keeps every record it is given, at every level. */
    private static final class Recorder implements System.Logger {
        final List<Level> levels = new ArrayList<>();
        final List<String> messages = new ArrayList<>();

        @Override
        public String getName() {
            return "recorder";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            levels.add(level);
            messages.add(msg);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            log(level, bundle, format, (Throwable) null);
        }
    }

    @Test
    void oneInfoLineNamesTheCauseWhatRunsInsteadAndTheFix() {
        Recorder recorder = new Recorder();
        UnsatisfiedLinkError cause = new UnsatisfiedLinkError("cannot load native library 'weir_x'; tried:\n"
                + "  - System.loadLibrary(\"weir_x\"): no weir_x in java.library.path\n"
                + "  - META-INF/native/libweir_x_x86_64.so: not found");

        String line = NativeFallback.report(new LoopLogger("test", recorder), "epoll", cause, "running on NIO",
                LIBRARY_FIX);

        assertThat(recorder.levels).containsExactly(Level.INFO);
        assertThat(recorder.messages).containsExactly(line);
        assertThat(line).startsWith("epoll unavailable (java.lang.UnsatisfiedLinkError: cannot load native library "
                        + "'weir_x'; tried: - System.loadLibrary(\"weir_x\"): no weir_x in java.library.path - ")
                .contains("): running on NIO; ")
                .doesNotContain("\n");
        // The test JVMs of the build enable native access on JDK 17 and not on 24+: each run checks its own case.
        assertThat(line).endsWith(NativeLibraryLoader.refusesWithoutNativeAccess()
                ? "; start the JVM with --enable-native-access=ALL-UNNAMED" : "; " + LIBRARY_FIX);
    }

    @Test
    void refusedNativeAccessIsFixedWithTheJvmOptionWhateverElseFailed() {
        UnsatisfiedLinkError refused = new UnsatisfiedLinkError("not loading native library 'weir_x'");
        IllegalStateException wrapped = new IllegalStateException("epoll check failed", refused);

        assertThat(NativeFallback.fix(wrapped, true, LIBRARY_FIX))
                .isEqualTo("start the JVM with " + NativeLibraryLoader.enableNativeAccessOption());
        assertThat(NativeFallback.fix(refused, false, LIBRARY_FIX)).isEqualTo(LIBRARY_FIX);
        assertThat(NativeFallback.fix(new ClassNotFoundException("io.netty:netty-tcnative-classes"), true,
                LIBRARY_FIX)).as("not a loading failure: native access would not help").isEqualTo(LIBRARY_FIX);
    }
}
