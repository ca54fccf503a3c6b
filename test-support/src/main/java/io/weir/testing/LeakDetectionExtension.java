package io.weir.testing;

import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Weir's leak detector reports a leak while it runs.
 *
 * <p>Registered for every test JVM through JUnit's extension auto-detection (the root POM turns it on),
 * so no module copies it. After each test class it runs the garbage collector, waits (bounded) until the
 * collector's references have been enqueued, asks the detector to report what it found, and throws an
 * {@link AssertionError} carrying every report. It depends on no Weir module (weir-common's own tests
 * use it), so it reaches {@code io.weir.util.ResourceLeakDetector} by reflection and does nothing in a
 * JVM without it.
 */
public final class LeakDetectionExtension implements BeforeAllCallback, AfterAllCallback {
    static final String DETECTOR_CLASS = "io.weir.util.ResourceLeakDetector";
    private static final long ENQUEUE_WAIT_MILLIS = 2_000;
    private static final int GC_ROUNDS = 3;

    private static final ConcurrentLinkedQueue<String> REPORTS = new ConcurrentLinkedQueue<>();
    private static final Consumer<String> LISTENER = REPORTS::add;
    private static volatile Method collect;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        install(context.getRequiredTestClass().getClassLoader());
        REPORTS.clear();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        Method m = collect;
        if (m == null) {
            return;
        }
        awaitCollection();
        try {
            m.invoke(null);
        } catch (InvocationTargetException e) {
            throw new AssertionError("ResourceLeakDetector.reportCollectedLeaks() failed", e.getCause());
        }
        List<String> leaks = new ArrayList<>();
        for (String r; (r = REPORTS.poll()) != null; ) {
            leaks.add(r);
        }
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " leak(s) reported while "
                    + context.getRequiredTestClass().getName() + " ran:\n" + String.join("\n\n", leaks));
        }
    }

    private static synchronized void install(ClassLoader loader) throws ReflectiveOperationException {
        if (collect != null) {
            return;
        }
        Class<?> detector;
        try {
            detector = Class.forName(DETECTOR_CLASS, true, loader);
        } catch (ClassNotFoundException e) {
            return;
        }
        detector.getMethod("addLeakListener", Consumer.class).invoke(null, LISTENER);
        collect = detector.getMethod("reportCollectedLeaks");
    }

    /** Collects garbage until a sentinel object's phantom reference comes back, or the wait runs out. */
    private static void awaitCollection() throws InterruptedException {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        PhantomReference<Object> sentinel = new PhantomReference<>(new Object(), queue);
        for (int i = 0; i < GC_ROUNDS; i++) {
            System.gc();
            if (queue.remove(ENQUEUE_WAIT_MILLIS / GC_ROUNDS) != null) {
                break;
            }
        }
        // One more cycle: references found in the sentinel's cycle may still be on their way to their queues.
        System.gc();
        queue.remove(50);
        sentinel.clear();
    }
}
