package io.weir.channel.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.channel.unix.NativeIoException;
import io.weir.util.platform.PlatformInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What {@link IoUring} decides on this machine, and how it explains a kernel that refuses io_uring. */
class IoUringTest {

    @BeforeAll
    static void linuxOnly() {
        assumeTrue(PlatformInfo.isLinux(), "io_uring exists only on Linux");
    }

    /** The kernel's version as {major, minor}, or {0, 0} if os.version does not say. */
    private static int[] kernelVersion() {
        String[] parts = System.getProperty("os.version", "").split("[.-]");
        try {
            return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
        } catch (RuntimeException e) {
            return new int[] {0, 0};
        }
    }

    private static boolean kernelAtLeast(int major, int minor) {
        int[] v = kernelVersion();
        return v[0] > major || (v[0] == major && v[1] >= minor);
    }

    @Test
    void availableOnAKernelThatAllowsIoUring() {
        assumeTrue(kernelAtLeast(5, 11), "needs Linux 5.11");
        assumeTrue(!"2".equals(IoUring.readDisabledSysctl()), "io_uring disabled on this machine");
        assertThat(IoUring.unavailabilityCause()).isNull();
        assertThat(IoUring.isAvailable()).isTrue();
        IoUring.ensureAvailability();
    }

    @Test
    void probeReportsTheOperationsTheHandlerNeedsAndNothingOutOfRange() {
        IoUring.ensureAvailability();
        assertThat(IoUring.isOperationSupported(IoUringIoOps.OP_NOP)).isTrue();
        assertThat(IoUring.isOperationSupported(IoUringIoOps.OP_READ)).isTrue();
        assertThat(IoUring.isOperationSupported(IoUringIoOps.OP_ASYNC_CANCEL)).isTrue();
        assertThat(IoUring.isOperationSupported(-1)).isFalse();
        assertThat(IoUring.isOperationSupported(Native.MAX_OPCODES)).isFalse();
    }

    @Test
    void singleIssuerAndDeferredTaskRunAreChosenWhereTheKernelHasThem() {
        IoUring.ensureAvailability();
        assumeTrue(kernelAtLeast(6, 1), "SINGLE_ISSUER and DEFER_TASKRUN need Linux 6.1");
        assertThat(IoUring.setupFlags()).isEqualTo(IoUring.SETUP_FLAG_CANDIDATES[0]);
    }

    @Test
    void libraryNameCarriesTheBuildsArchitecture() {
        assertThat(IoUring.buildArch("amd64")).isEqualTo("x86_64");
        assertThat(IoUring.buildArch("aarch64")).isEqualTo("aarch64");
        assertThat(IoUring.libraryName()).startsWith(IoUring.LIBRARY_NAME);
    }

    // ---------------------------------------------------------------- why io_uring_setup failed

    private static IoUringUnavailableException setupFailure(int errno, String disabledSysctl) {
        return IoUringUnavailableException.ofSetupFailure(new NativeIoException("io_uring_setup", errno),
                disabledSysctl);
    }

    @Test
    void kernelWithoutIoUringIsNamedAsTheCause() {
        IoUringUnavailableException e = setupFailure(Native.ENOSYS, null);
        assertThat(e).hasMessageContaining("the kernel has no io_uring").hasMessageContaining("ENOSYS")
                .hasCauseInstanceOf(NativeIoException.class);
        assertThat(e.fix()).contains("Linux 5.11").contains("CONFIG_IO_URING");
    }

    @Test
    void ioUringDisabledBySysctlIsNamedAsTheCause() {
        IoUringUnavailableException e = setupFailure(Native.EPERM, "2");
        assertThat(e).hasMessage("io_uring is disabled (kernel.io_uring_disabled = 2)");
        assertThat(e.fix()).isEqualTo("set the sysctl kernel.io_uring_disabled to 0");
    }

    @Test
    void ioUringRestrictedToAGroupIsNamedAsTheCause() {
        IoUringUnavailableException e = setupFailure(Native.EPERM, "1");
        assertThat(e).hasMessageContaining("restricted to the group kernel.io_uring_group");
        assertThat(e.fix()).contains("kernel.io_uring_group");
    }

    @Test
    void ioUringRefusedByASeccompFilterIsNamedAsTheCause() {
        for (String sysctl : new String[] {"0", null}) {
            IoUringUnavailableException e = setupFailure(Native.EPERM, sysctl);
            assertThat(e).hasMessageContaining("EPERM").hasMessageContaining("seccomp")
                    .hasMessageContaining(sysctl == null ? "absent" : "is 0");
            assertThat(e.fix()).contains("seccomp profile");
        }
    }

    @Test
    void otherSetupFailuresKeepTheKernelsWords() {
        IoUringUnavailableException e = setupFailure(Native.EINVAL, "0");
        assertThat(e).hasMessageStartingWith("io_uring_setup failed: ").hasCauseInstanceOf(NativeIoException.class);
        assertThat(IoUring.fix(e)).isEqualTo("see the cause");
    }

    @Test
    void kernelTooOldSaysWhatIsMissingAndWhatIsNeeded() {
        IoUringUnavailableException e = IoUringUnavailableException.tooOld("the kernel lacks io_uring features 0x100");
        assertThat(e).hasMessageContaining("kernel too old").hasMessageContaining("features 0x100")
                .hasMessageContaining(IoUringUnavailableException.MINIMUM_KERNEL)
                .hasMessageContaining(System.getProperty("os.version"));
        assertThat(IoUring.fix(e)).isEqualTo("run on " + IoUringUnavailableException.MINIMUM_KERNEL + " or later");
    }
}
