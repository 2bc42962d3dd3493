package org.mpjlite.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Marks a class of tests that exist to be run by {@link MpiTestExtensionTest} through the test
 * kit, many of them failing on purpose: they are skipped when anything else runs them (a build
 * selecting them by name, an IDE).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(Subject.OnlyInTestKit.class)
@interface Subject {
    /** The configuration parameter the test kit runs are given. */
    String PARAMETER = "mpjlite.junit.subject";

    /** Enables the class only when {@link #PARAMETER} is {@code true}. */
    final class OnlyInTestKit implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(PARAMETER, Boolean::parseBoolean).orElse(false)
                ? ConditionEvaluationResult.enabled("run by the test kit")
                : ConditionEvaluationResult.disabled("a subject of MpiTestExtensionTest, failing on purpose");
        }
    }
}
