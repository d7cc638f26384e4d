package io.quarry.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cost of durable commits on H2: small committed inserts (one row of a collection-like table per transaction) per
 * second with H2's default {@code WRITE_DELAY=500} beside Quarry's {@code WRITE_DELAY=0}, with 1 and 8 writer threads,
 * each for {@code [seconds=5]}. Prints commits/s and the ratio.
 */
public final class H2DurabilityBenchmark {
    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        for (int threads : new int[] {1, 8}) {
            double delayed = run(500, threads, seconds);
            double durable = run(0, threads, seconds);
            System.out.printf(Locale.ROOT, "RESULT %d writer(s): WRITE_DELAY=500 %.0f commits/s, WRITE_DELAY=0 %.0f commits/s (%.2fx)%n",
                    threads, delayed, durable, delayed / durable);
        }
    }

    private static double run(int writeDelay, int threads, int seconds) throws Exception {
        Path dir = Files.createTempDirectory("quarry-h2-bench");
        String url = "jdbc:h2:file:" + dir.resolve("bench") + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=" + writeDelay;
        try (Connection setup = DriverManager.getConnection(url, "sa", ""); Statement s = setup.createStatement()) {
            s.execute("CREATE TABLE collection (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(254) NOT NULL, "
                    + "description CLOB, location VARCHAR(254) NOT NULL, created_at TIMESTAMP WITH TIME ZONE NOT NULL)");
            AtomicLong commits = new AtomicLong();
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread writer = new Thread(() -> {
                    try (Connection c = DriverManager.getConnection(url, "sa", "");
                         PreparedStatement insert = c.prepareStatement(
                                 "INSERT INTO collection (name, description, location, created_at) VALUES (?, ?, '/', CURRENT_TIMESTAMP)")) {
                        c.setAutoCommit(false);
                        while (System.nanoTime() < end) {
                            insert.setString(1, "Collection " + commits.get());
                            insert.setString(2, "A description long enough to look like one a person would write.");
                            insert.executeUpdate();
                            c.commit();
                            commits.incrementAndGet();
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                writer.start();
                writers.add(writer);
            }
            for (Thread writer : writers) {
                writer.join();
            }
            s.execute("SHUTDOWN");
            return commits.get() / (double) seconds;
        }
    }
}
