package org.mpjlite.smpdev;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the device's packages layered (see each package's {@code package-info}): {@code error} at
 * the bottom; {@code data} and {@code wait} use nothing else of the device but {@code error};
 * {@code p2p} and {@code collective} do not use each other; and no package below the root reaches
 * up to the runtime except through its few shared objects ({@link Job}, {@link Rank},
 * {@link Request}, {@link Membership}) and its settings ({@link JobConfig}, {@link Tunables}). Checked on the compiled
 * classes, so javadoc links do not count and every use in code does.
 */
class ArchitectureTest {
    private static final String ROOT = "org.mpjlite.smpdev";
    private static final String ERROR = ROOT + ".error..";
    private static final String DATA = ROOT + ".data..";
    private static final String WAIT = ROOT + ".wait..";
    private static final String P2P = ROOT + ".p2p..";
    private static final String COLLECTIVE = ROOT + ".collective..";
    private static final String DIAG = ROOT + ".diag..";

    /** What the packages below may use of the root package (explained in its package-info). */
    private static final Set<String> SHARED_WITH_BELOW = Set.of(Job.class.getName(), Rank.class.getName(),
        Request.class.getName(), Membership.class.getName(), JobConfig.class.getName(), Tunables.class.getName());

    private static JavaClasses device;

    @BeforeAll
    static void importDevice() {
        device = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);
    }

    /** Classes of the device outside the given packages. */
    private static DescribedPredicate<JavaClass> deviceOutside(String... allowed) {
        return resideInAPackage(ROOT + "..").and(not(resideInAnyPackage(allowed)))
            .as("classes of the device outside " + String.join(", ", allowed));
    }

    @Test
    void errorUsesNothingElseOfTheDevice() {
        check(noClasses().that().resideInAPackage(ERROR).should().dependOnClassesThat(deviceOutside(ERROR)));
    }

    @Test
    void dataUsesOnlyErrors() {
        check(noClasses().that().resideInAPackage(DATA).should().dependOnClassesThat(deviceOutside(DATA, ERROR)));
    }

    @Test
    void waitUsesOnlyErrors() {
        check(noClasses().that().resideInAPackage(WAIT).should().dependOnClassesThat(deviceOutside(WAIT, ERROR)));
    }

    @Test
    void pointToPointAndCollectivesDoNotUseEachOther() {
        check(noClasses().that().resideInAPackage(P2P).should().dependOnClassesThat().resideInAPackage(COLLECTIVE));
        check(noClasses().that().resideInAPackage(COLLECTIVE).should().dependOnClassesThat().resideInAPackage(P2P));
    }

    @Test
    void packagesBelowReachTheRuntimeOnlyThroughItsSharedObjects() {
        DescribedPredicate<JavaClass> runtimeInternals = DescribedPredicate.describe(
            "root classes other than " + SHARED_WITH_BELOW, c -> {
                JavaClass base = c.getBaseComponentType(); // Rank[] is a use of Rank
                return base.getPackageName().equals(ROOT) && !SHARED_WITH_BELOW.contains(base.getName());
            });
        check(noClasses().that().resideInAnyPackage(ERROR, DATA, WAIT, P2P, COLLECTIVE, DIAG)
            .should().dependOnClassesThat(runtimeInternals));
    }

    private static void check(ArchRule rule) {
        rule.check(device);
    }
}
