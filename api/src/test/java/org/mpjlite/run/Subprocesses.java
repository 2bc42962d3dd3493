package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Helpers of the tests that run {@code bin/mpjrun} in a subprocess and send it signals. */
final class Subprocesses {
    /** {@code bin/mpjrun} of this repository. */
    static final Path SCRIPT = Path.of("..", "bin", "mpjrun").toAbsolutePath().normalize();

    private Subprocesses() {
    }

    /**
     * Starts {@code bin/mpjrun args} through bash with {@code signals} (such as {@code QUIT} or
     * {@code INT,TERM}) at their default: a process started in the background inherits them ignored
     * (as this test's JVM may, under a build), and a shell cannot take a signal it was started
     * ignoring; a terminal starts commands with them at their default. Skips the test without bash
     * or an {@code env} that can reset signals (GNU coreutils 8.31 or later). MPJ Lite and the JDK
     * are this JVM's.
     */
    static Process startMpjrun(String signals, String... args) throws IOException {
        assumeTrue(Files.isRegularFile(SCRIPT) && succeeds("env", "--default-signal=" + signals, "bash", "-c", "true"),
            "bash and an env that resets signals (GNU coreutils 8.31 or later)");
        return start(List.of("env", "--default-signal=" + signals, "bash"), Map.of(), args);
    }

    /** Starts {@code bin/mpjrun args} through bash; skips the test without bash. MPJ Lite and the JDK are this JVM's. */
    static Process startMpjrun(List<String> args) throws IOException {
        return startMpjrun(args, Map.of());
    }

    /**
     * As {@link #startMpjrun(List)}, with {@code env} over this JVM's environment (an empty value
     * unsets the variable).
     */
    static Process startMpjrun(List<String> args, Map<String, String> env) throws IOException {
        assumeTrue(Files.isRegularFile(SCRIPT) && succeeds("bash", "-c", "true"), "bash");
        return start(List.of("bash"), env, args.toArray(new String[0]));
    }

    /** Runs {@code bin/mpjrun args} under {@code shell}, with {@code env} over this JVM's environment (an empty value unsets). */
    private static Process start(List<String> shell, Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>(shell);
        command.add(SCRIPT.toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("MPJLITE_CLASSPATH", System.getProperty("java.class.path"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        env.forEach((name, value) -> {
            if (value.isEmpty()) {
                pb.environment().remove(name);
            } else {
                pb.environment().put(name, value);
            }
        });
        return pb.start();
    }

    /**
     * Runs {@code bin/mpjrun args} to its end, at most {@code seconds} (else the test fails); returns
     * its exit code, then its output (the program's) and its errors.
     */
    static List<String> runMpjrun(long seconds, String... args) throws IOException, InterruptedException {
        return runMpjrun(seconds, Map.of(), args);
    }

    /**
     * As {@link #runMpjrun(long, String...)}, with {@code env} over this JVM's environment (an empty
     * value unsets the variable).
     */
    static List<String> runMpjrun(long seconds, Map<String, String> env, String... args)
        throws IOException, InterruptedException {
        Process p = startMpjrun(List.of(args), env);
        StringBuilder err = drain(p.getErrorStream());
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(seconds, TimeUnit.SECONDS), "mpjrun did not end");
        synchronized (err) {
            return List.of(String.valueOf(p.exitValue()), out, err.toString());
        }
    }

    /** The lines {@code p} writes to its standard output. */
    static BufferedReader stdout(Process p) {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Whether {@code command} runs and exits 0 (a tool the test needs is there). */
    static boolean succeeds(String... command) {
        try {
            return new ProcessBuilder(command).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Copies a stream into a buffer (lock it to read) on a daemon thread. */
    static StringBuilder drain(InputStream in) {
        StringBuilder text = new StringBuilder();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null;) {
                    synchronized (text) {
                        text.append(line).append('\n');
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "stderr of mpjrun");
        t.setDaemon(true);
        t.start();
        return text;
    }
}
