package org.mpjlite.stress.gate;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs jcstress in a child JVM (the same java, the same class path) and turns its verdict into an exit
 * code the build can trust:
 * <ul>
 *   <li>{@code pass}: at least one test ran, and none failed (a FORBIDDEN outcome) or errored;</li>
 *   <li>{@code caught}: every selected test (the deliberately broken variants) was reported
 *       {@code [FAILED]}, i.e. the suite catches each of them with a FORBIDDEN outcome.</li>
 * </ul>
 * jcstress 0.16 itself ends with an uncaught {@code AssertionError} (exit code 1) when a test fails;
 * the gate reads the summary too, so a run that executed nothing cannot pass.
 *
 * <p>Usage: {@code Gate pass|caught RESULT_DIR JCSTRESS_ARGS...} (JCSTRESS_ARGS must select tests with
 * {@code -t}).
 */
public final class Gate {
    private static final Pattern RESULTS = Pattern.compile(
        "\\(Results: (\\d+) planned; (\\d+) passed, (\\d+) failed, (\\d+) soft errs, (\\d+) hard errs\\)");
    private static final Pattern FAILED = Pattern.compile("\\[FAILED] (\\S+)");

    private Gate() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 2 || !(args[0].equals("pass") || args[0].equals("caught"))) {
            System.err.println("usage: Gate pass|caught RESULT_DIR JCSTRESS_ARGS...");
            System.exit(2);
        }
        boolean expectPass = args[0].equals("pass");
        List<String> jcstressArgs = new ArrayList<>(List.of("-r", args[1]));
        jcstressArgs.addAll(Arrays.asList(args).subList(2, args.length));

        List<String> listArgs = new ArrayList<>(jcstressArgs);
        listArgs.add("-l");
        List<String> selected = new ArrayList<>();
        for (String line : run(listArgs, false).lines) {
            if (line.matches("\\s*org\\.mpjlite\\.\\S+")) {
                selected.add(line.trim());
            }
        }
        if (selected.isEmpty()) {
            fail("the test filter selected no jcstress test: " + jcstressArgs);
        }

        Run run = run(jcstressArgs, true);
        String verdict = null;
        List<String> failed = new ArrayList<>();
        for (String line : run.lines) {
            Matcher m = RESULTS.matcher(line);
            if (m.find()) {
                verdict = m.group();
            }
            Matcher f = FAILED.matcher(line);
            if (f.find()) {
                failed.add(f.group(1));
            }
        }
        if (verdict == null) {
            fail("jcstress printed no result summary (exit code " + run.exitCode + ")");
        }
        Matcher m = RESULTS.matcher(verdict);
        m.find();
        int passed = Integer.parseInt(m.group(2));
        int bad = Integer.parseInt(m.group(3)) + Integer.parseInt(m.group(4)) + Integer.parseInt(m.group(5));
        if (expectPass) {
            if (run.exitCode != 0 || bad > 0 || passed == 0) {
                fail("jcstress suite FAILED (exit code " + run.exitCode + "): " + verdict
                    + (failed.isEmpty() ? "" : "; failed: " + failed));
            }
            System.out.println("[gate] jcstress suite passed: " + selected.size() + " tests, " + verdict);
        } else {
            List<String> missed = new ArrayList<>(selected);
            missed.removeAll(failed);
            if (!missed.isEmpty()) {
                fail("deliberately broken variants NOT caught (no FORBIDDEN outcome seen): " + missed
                    + "; a green suite would mean nothing");
            }
            System.out.println("[gate] every deliberately broken variant was caught: " + selected);
        }
    }

    private static void fail(String message) {
        System.out.println("[gate] " + message);
        System.exit(1);
    }

    private record Run(int exitCode, List<String> lines) {
    }

    private static Run run(List<String> jcstressArgs, boolean echo) throws IOException, InterruptedException {
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
        return new Run(p.waitFor(), lines);
    }
}
