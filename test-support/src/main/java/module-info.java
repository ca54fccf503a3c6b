/** Test-only helpers shared by every Weir module's tests. */
module io.weir.testing {
    requires org.junit.jupiter.api;
    requires java.logging;
    exports io.weir.testing;
    provides org.junit.jupiter.api.extension.Extension with io.weir.testing.LeakDetectionExtension;
}
