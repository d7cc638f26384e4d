package io.quarry.faults;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * An embedded PostgreSQL of a test's own, that the test may stop, start again on the same port and data, or freeze
 * ({@code SIGSTOP} of the postmaster and every backend, as a hung network or stalled disk looks) and thaw.
 */
final class FrozenPostgres implements AutoCloseable {
    private final Path dataDirectory;
    private final int port;
    private EmbeddedPostgres server;

    FrozenPostgres() {
        try {
            dataDirectory = Files.createTempDirectory("quarry-pg-fault");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server = start(0);
        port = server.getPort();
    }

    private EmbeddedPostgres start(int onPort) {
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder().setDataDirectory(dataDirectory).setCleanDataDirectory(false);
            if (onPort != 0) {
                builder.setPort(onPort);
            }
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return port;
    }

    void createDatabase(String name) throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
    }

    /** Stops the server (fast shutdown: clients are disconnected). */
    void stop() throws IOException {
        server.close();
        server = null;
    }

    /** Starts it again on the same port and data. */
    void restart() {
        server = start(port);
    }

    void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    /**
     * Signals the postmaster first (so that it forks no new backend), then each of its processes. A backend that
     * ends in between (a client that just disconnected) is skipped; only the postmaster must be there.
     */
    private void signal(String signal) throws IOException, InterruptedException {
        long postmaster = Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0).trim());
        kill(signal, postmaster, true);
        List<ProcessHandle> children = ProcessHandle.of(postmaster).map(p -> p.descendants().toList()).orElse(List.of());
        for (ProcessHandle child : children) {
            kill(signal, child.pid(), false);
        }
    }

    private static void kill(String signal, long pid, boolean required) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal, String.valueOf(pid)));
        int exit = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        if (exit != 0 && (required || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))) {
            throw new IllegalStateException(command + " exited with " + exit);
        }
    }

    @Override
    public void close() throws IOException {
        if (server != null) {
            server.close();
        }
    }
}
