package org.mpjlite.stress.gate;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs jcstress in a child JVM (the same java, the same class path) and turns its verdict into an exit
 * code the build can trust. Of the tests the jcstress arguments select:
 * <ul>
 *   <li>those matching BROKEN_REGEX (the deliberately broken variants) must each be reported
 *       {@code [FAILED]}: the suite catches each of them with a FORBIDDEN outcome, so a green run
 *       means something;</li>
 *   <li>every other test must have run and passed: no FORBIDDEN outcome, no error.</li>
 * </ul>
 * Tests are counted from jcstress's closing summary, so a test jcstress silently skips (it runs no test
 * with more actors than the machine has cores) fails the gate too. jcstress 0.16 itself ends with an
 * uncaught {@code AssertionError} (exit code 1) whenever a test fails, which here is always the case
 * (the broken variants), so its exit code alone says nothing.
 *
 * <p>Usage: {@code Gate RESULT_DIR BROKEN_REGEX JCSTRESS_ARGS...} (JCSTRESS_ARGS select tests with
 * {@code -t}).
 */
public final class Gate {
    /**
     * A test's verdict line: jcstress leads it with dots, six for {@code [OK]} and {@code [FAILED]} but four for
     * {@code [VM ERROR]} (a VM that crashed or ran out of memory), so any run of dots.
     */
    private static final Pattern VERDICT = Pattern.compile("\\.{2,} \\[([A-Z][A-Z ]*)] (\\S+)");
    private static final Pattern SECTION = Pattern.compile(
        "^\\s*(Interesting|Failed|Error|All remaining) tests: (?:No matches|(\\d+) matching test results)");
    private static final Pattern RESULTS = Pattern.compile(
        "\\(Results: (\\d+) planned; (\\d+) passed, (\\d+) failed, (\\d+) soft errs, (\\d+) hard errs\\)");

    private Gate() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 3) {
            System.err.println("usage: Gate RESULT_DIR BROKEN_REGEX JCSTRESS_ARGS...");
            System.exit(2);
        }
        Pattern broken = Pattern.compile(args[1]);
        List<String> jcstressArgs = new ArrayList<>(List.of("-r", args[0]));
        jcstressArgs.addAll(Arrays.asList(args).subList(2, args.length));

        List<String> listArgs = new ArrayList<>(jcstressArgs);
        listArgs.add("-l");
        List<String> selected = new ArrayList<>();
        for (String line : run(listArgs, false)) {
            if (line.matches("org\\.mpjlite\\.\\S+")) {
                selected.add(line);
            }
        }
        if (selected.isEmpty()) {
            fail("the test filter selected no jcstress test: " + jcstressArgs);
        }

        Map<String, String> notOk = new TreeMap<>();
        int reported = 0;
        String summary = null;
        for (String line : run(jcstressArgs, true)) {
            Matcher v = VERDICT.matcher(line);
            if (v.find() && !v.group(1).equals("OK")) {
                notOk.put(v.group(2), v.group(1));
            }
            Matcher s = SECTION.matcher(line);
            if (s.find() && s.group(2) != null) {
                reported += Integer.parseInt(s.group(2));
            }
            Matcher r = RESULTS.matcher(line);
            if (r.find()) {
                summary = r.group();
            }
        }

        List<String> problems = new ArrayList<>();
        if (summary == null) {
            problems.add("jcstress printed no result summary");
        } else if (!summary.endsWith(" 0 soft errs, 0 hard errs)")) {
            problems.add("jcstress reported errors: " + summary);
        }
        if (summary != null && reported != selected.size()) {
            problems.add(reported + " tests reported but " + selected.size() + " selected: jcstress skipped some"
                + " (more actors than cores?)");
        }
        List<String> caught = new ArrayList<>();
        for (String test : selected) {
            String verdict = notOk.get(test);
            if (broken.matcher(test).find()) {
                if ("FAILED".equals(verdict)) {
                    caught.add(test);
                } else {
                    problems.add("broken variant NOT caught (no FORBIDDEN outcome): " + test
                        + (verdict == null ? "" : " [" + verdict + "]"));
                }
            } else if (verdict != null) {
                problems.add("[" + verdict + "] " + test);
            }
        }
        if (!problems.isEmpty()) {
            fail("jcstress gate FAILED:\n[gate]   " + String.join("\n[gate]   ", problems));
        }
        System.out.println("[gate] " + (selected.size() - caught.size()) + " jcstress tests passed; "
            + caught.size() + " deliberately broken variants caught: " + caught);
    }

    private static void fail(String message) {
        System.out.println("[gate] " + message);
        System.exit(1);
    }

    private static List<String> run(List<String> jcstressArgs, boolean echo) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("org.openjdk.jcstress.Main");
        command.addAll(jcstressArgs);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                lines.add(line);
                if (echo) {
                    System.out.println(line);
                }
            }
        }
        p.waitFor();
        return lines;
    }
}
