package io.weir.channel.epoll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.channel.unix.Unix;
import io.weir.util.platform.PlatformInfo;
import org.junit.jupiter.api.Test;

class EpollTest {

    @Test
    void bundledLibraryLoadsOnLinux() {
        assumeTrue(PlatformInfo.isLinux(), "epoll exists only on Linux");
        assertThat(Epoll.unavailabilityCause()).isNull();
        assertThat(Epoll.isAvailable()).isTrue();
        assertThatCode(Epoll::ensureAvailability).doesNotThrowAnyException();
        // Loading the epoll library registers the shared unix natives too.
        assertThat(Unix.isAvailable()).isTrue();
    }

    @Test
    void libraryFileNameFollowsTheBuildsArchitectureNames() {
        assertThat(Epoll.buildArch("amd64")).isEqualTo("x86_64");
        assertThat(Epoll.buildArch("aarch64")).isEqualTo("aarch64");
        assertThat(Epoll.buildArch("x86_64")).isEqualTo("x86_64");
    }

    @Test
    void handlerFactoryRejectsAnUnusableEventArrayLength() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> EpollIoHandler.newFactory(0)).withMessageContaining("0");
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> EpollIoHandler.newFactory(EpollIoHandler.MAX_EVENT_ARRAY_LENGTH + 1));
    }
}
