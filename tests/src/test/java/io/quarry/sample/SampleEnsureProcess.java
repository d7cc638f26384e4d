package io.quarry.sample;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Runs {@link SampleDatabase#ensure(Path)} in a separate JVM for {@link SampleDatabaseTest}: prints {@code READY},
 * waits for a line on stdin, ensures the database in the directory given as argument and prints how many databases
 * this process built as {@code BUILDS=n}.
 */
public final class SampleEnsureProcess {
    private SampleEnsureProcess() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("READY");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        SampleDatabase.ensure(Path.of(args[0]));
        System.out.println("BUILDS=" + SampleDatabase.BUILDS.get());
        System.out.flush();
    }
}
