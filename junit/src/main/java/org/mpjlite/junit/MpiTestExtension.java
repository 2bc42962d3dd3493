package org.mpjlite.junit;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import mpi.MPI;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.ReflectionSupport;
import org.mpjlite.JobFailedException;
import org.mpjlite.MpjLite;
import org.mpjlite.smpdev.MatchingKind;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The extension behind {@link MpiTest}: one invocation per rank count (and matching structure),
 * each running the test method on every rank of an in-process job. Registered by the annotation;
 * not meant to be registered by hand.
 *
 * <p>Thread safety: stateless; each invocation carries its settings in its own {@link Runner}.
 */
public final class MpiTestExtension implements TestTemplateInvocationContextProvider {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return context.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, MpiTest.class)).orElse(false);
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        Method method = context.getRequiredTestMethod();
        MpiTest test = AnnotationSupport.findAnnotation(method, MpiTest.class).orElseThrow();
        int[] ranks = test.ranks();
        if (ranks.length == 0) {
            throw new ExtensionConfigurationException("@MpiTest(ranks) of " + method.getName() + " is empty");
        }
        for (int n : ranks) {
            if (n < 1) {
                throw new ExtensionConfigurationException("@MpiTest(ranks) of " + method.getName()
                    + " has " + n + "; every rank count must be at least 1");
            }
        }
        int level = test.threadLevel();
        if (level != MpiTest.PLAIN_INIT && (level < MPI.THREAD_SINGLE || level > MPI.THREAD_MULTIPLE)) {
            throw new ExtensionConfigurationException("@MpiTest(threadLevel) of " + method.getName() + " is " + level
                + "; expected MPI.THREAD_SINGLE .. MPI.THREAD_MULTIPLE or MpiTest.PLAIN_INIT");
        }
        Duration timeout = parseTimeout(test.timeout(), method);
        MatchingKind[] kinds = test.matching().length == 0 ? new MatchingKind[] {null} : test.matching();
        List<TestTemplateInvocationContext> invocations = new ArrayList<>();
        for (int n : ranks) {
            for (MatchingKind kind : kinds) {
                invocations.add(new Runner(n, kind, timeout, level, test.check()));
            }
        }
        return invocations.stream();
    }

    /** Parses {@link MpiTest#timeout}; {@code Duration.ZERO} for no limit. */
    static Duration parseTimeout(String text, Method method) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new ExtensionConfigurationException("@MpiTest(timeout) of " + method.getName() + " is '" + text
                + "'; expected a number and a unit among ms, s, m, h, such as \"10s\"");
        }
        long amount = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        switch (unit) {
            case "ms":
                return Duration.ofMillis(amount);
            case "m":
                return Duration.ofMinutes(amount);
            case "h":
                return Duration.ofHours(amount);
            default:
                return Duration.ofSeconds(amount);
        }
    }

    /**
     * One invocation: its display name, and the extensions that run it. Resolves the rank
     * parameters to placeholders on JUnit's thread (they are replaced per rank), then runs the
     * method on every rank instead of on JUnit's thread.
     */
    static final class Runner implements TestTemplateInvocationContext, ParameterResolver, InvocationInterceptor {
        private final int ranks;
        private final MatchingKind matching;
        private final Duration timeout;
        private final int threadLevel;
        private final boolean check;

        Runner(int ranks, MatchingKind matching, Duration timeout, int threadLevel, boolean check) {
            this.ranks = ranks;
            this.matching = matching;
            this.timeout = timeout;
            this.threadLevel = threadLevel;
            this.check = check;
        }

        @Override
        public String getDisplayName(int invocationIndex) {
            String name = ranks + (ranks == 1 ? " rank" : " ranks");
            return matching == null ? name : name + ", " + matching.name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        @Override
        public List<Extension> getAdditionalExtensions() {
            return List.of(this);
        }

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            Class<?> type = parameter.getParameter().getType();
            return type == int.class || type == MpiContext.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            // Placeholders: the rank and the context are only known on the rank's thread.
            return parameter.getParameter().getType() == int.class ? Integer.valueOf(-1) : null;
        }

        @Override
        public void interceptTestTemplateMethod(Invocation<Void> invocation,
                                                ReflectiveInvocationContext<Method> invocationContext,
                                                ExtensionContext extensionContext) {
            invocation.skip();
            Method method = invocationContext.getExecutable();
            Object target = invocationContext.getTarget().orElse(null);
            Object[] arguments = invocationContext.getArguments().toArray();
            Class<?>[] types = method.getParameterTypes();
            Map<Integer, AtomicReferenceArray<Object>> collections = MpiContext.newCollections();
            MpjLite.Options options = MpjLite.options().ranks(ranks).timeout(timeout).check(check);
            if (matching != null) {
                options.matching(matching);
            }
            try {
                options.run(() -> {
                    if (threadLevel == MpiTest.PLAIN_INIT) {
                        MPI.Init(new String[0]);
                    } else {
                        MPI.Init_thread(new String[0], threadLevel);
                    }
                    MpiContext mpi = new MpiContext(MPI.COMM_WORLD.Rank(), MPI.COMM_WORLD.Size(), collections);
                    Object[] mine = arguments.clone();
                    for (int i = 0; i < types.length; i++) {
                        if (types[i] == int.class) {
                            mine[i] = mpi.rank();
                        } else if (types[i] == MpiContext.class) {
                            mine[i] = mpi;
                        }
                    }
                    ReflectionSupport.invokeMethod(method, target, mine);
                    mpi.free();
                    MPI.Finalize();
                    return Boolean.TRUE;
                });
            } catch (JobFailedException e) {
                // The message names the rank and what it threw, or is the report of a stuck job.
                if (e.getCause() instanceof TestAbortedException) {
                    throw new TestAbortedException(e.getMessage(), e.getCause());
                }
                throw new AssertionFailedError(e.getMessage(), e.getCause());
            }
        }
    }
}
