import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs the same tests round after round in one JVM, through the JUnit Platform launcher, and
 * reports every failure with the round it happened in. The tests of one round run in the order
 * JUnit chooses; each round after the first meets the JIT's code as the rounds before left it,
 * which is what makes a rare, order- or compilation-dependent failure show up here when one pass
 * of {@code mvn verify} finds it once in several runs.
 *
 * <p>Usage (see {@code .ci/repeat}, which builds the class path):
 * {@code RepeatTests ROUNDS MINUTES SELECTOR...}, where a selector is a class name, a method
 * ({@code Class#method}) or a package ({@code org.example.*}); ROUNDS or MINUTES 0 means no limit
 * of that kind. The module's {@code junit-platform.properties} applies (its timeouts among them);
 * a test that times out also prints a dump of every thread. Exits 1 when any test failed.
 */
public final class RepeatTests {
    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: RepeatTests ROUNDS MINUTES SELECTOR...");
            System.exit(2);
        }
        int rounds = Integer.parseInt(args[0]);
        long minutes = Long.parseLong(args[1]);
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            selectors.add(selector(args[i]));
        }
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
            .selectors(selectors)
            .configurationParameter("junit.jupiter.execution.timeout.threaddump.enabled", "true")
            .build();
        Launcher launcher = LauncherFactory.create();
        long start = System.nanoTime();
        long deadline = minutes == 0 ? Long.MAX_VALUE : start + TimeUnit.MINUTES.toNanos(minutes);
        long tests = 0;
        long failures = 0;
        int round = 0;
        while ((rounds == 0 || round < rounds) && System.nanoTime() - deadline < 0) {
            round++;
            SummaryGeneratingListener listener = new SummaryGeneratingListener();
            long t0 = System.nanoTime();
            launcher.execute(request, listener);
            TestExecutionSummary summary = listener.getSummary();
            if (summary.getTestsFoundCount() == 0) {
                System.err.println("repeat: no test matches " + String.join(" ", List.of(args).subList(2, args.length)));
                System.exit(2);
            }
            tests += summary.getTestsStartedCount();
            failures += summary.getTotalFailureCount();
            for (TestExecutionSummary.Failure f : summary.getFailures()) {
                StringWriter trace = new StringWriter();
                f.getException().printStackTrace(new PrintWriter(trace));
                System.out.printf("FAILED in round %d: %s%n%s%n", round, f.getTestIdentifier().getUniqueId(), trace);
            }
            System.out.printf("round %d: %d tests, %d failed, %d skipped, %.1f s%n", round,
                summary.getTestsStartedCount(), summary.getTotalFailureCount(), summary.getTestsSkippedCount(),
                (System.nanoTime() - t0) / 1e9);
        }
        System.out.printf("%d rounds, %d test runs, %d failed, in %.1f min%n", round, tests, failures,
            (System.nanoTime() - start) / 60e9);
        System.exit(failures == 0 ? 0 : 1);
    }

    private static DiscoverySelector selector(String s) {
        if (s.endsWith(".*")) {
            return selectPackage(s.substring(0, s.length() - 2));
        }
        return s.contains("#") ? selectMethod(s) : selectClass(s);
    }
}
