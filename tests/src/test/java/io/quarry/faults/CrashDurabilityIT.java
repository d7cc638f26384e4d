package io.quarry.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.ServerProcess;
import io.quarry.testing.TestAppDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * An acknowledged write survives a crash of the server process with the embedded H2 application database: 12
 * concurrent writers create collections and dashboards over HTTP, the server JVM is killed hard ({@code SIGKILL}) while
 * they write, and a new server on the same file must still have every object that was answered 200, under the same
 * id, and must not hand any of those ids out again.
 *
 * <p>{@code -Dquarry.crash.h2Options=;WRITE_DELAY=500} runs it with H2's default write delay, to see it fail.
 */
class CrashDurabilityIT {
    private static final int WRITERS = 12;

    @Test
    void acknowledgedWritesSurviveKillMinusNine() throws Exception {
        Assumptions.assumeFalse(TestAppDb.isPostgres(), "PostgreSQL makes its own commits durable");
        Path dir = Files.createTempDirectory("quarry-crash");
        Map<String, String> config = Map.of("MB_DB_TYPE", "h2",
                "MB_DB_FILE", dir.resolve("quarry.db") + System.getProperty("quarry.crash.h2Options", ""));
        Path log = dir.resolve("server.log");

        ServerProcess.Child first = ServerProcess.start(config, log);
        Map<Long, String> collections = new ConcurrentHashMap<>();
        Map<Long, String> dashboards = new ConcurrentHashMap<>();
        String session;
        try {
            Api anonymous = new Api(first.base());
            session = Fixtures.setUp(anonymous);
            Api admin = anonymous.as(session);
            AtomicBoolean killed = new AtomicBoolean();
            ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.submit(() -> write(admin, writer, killed, collections, dashboards));
            }
            Thread.sleep(6_000);
            killed.set(true);
            first.process().destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            writers.shutdown();
            assertTrue(writers.awaitTermination(90, TimeUnit.SECONDS), "writers stop once the server is gone");
        } finally {
            first.process().destroyForcibly();
        }
        assertTrue(collections.size() > 20, "the writers got going: " + collections.size() + " collections");

        ServerProcess.Child second = ServerProcess.start(config, log);
        try {
            Api admin = new Api(second.base()).as(Fixtures.login(new Api(second.base()), Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD));
            Map<Long, String> stored = new HashMap<>();
            for (JsonNode c : admin.get(200, "collection").json()) {
                if (c.get("id").isNumber()) {
                    stored.put(c.get("id").asLong(), c.get("name").asText());
                }
            }
            List<String> lost = new ArrayList<>();
            collections.forEach((id, name) -> {
                if (!name.equals(stored.get(id))) {
                    lost.add("collection " + id + " '" + name + "' is now " + stored.get(id));
                }
            });
            dashboards.forEach((id, name) -> {
                Api.Res res = admin.call("GET", "dashboard/" + id, null);
                String now = res.status() == 200 ? res.json().get("name").asText() : "HTTP " + res.status();
                if (!name.equals(now)) {
                    lost.add("dashboard " + id + " '" + name + "' is now " + now);
                }
            });
            System.out.printf("CrashDurabilityIT: %d collections and %d dashboards acknowledged before the kill, %d lost or changed%n",
                    collections.size(), dashboards.size(), lost.size());
            lost.stream().limit(20).forEach(line -> System.out.println("  " + line));
            assertEquals(List.of(), lost, "of " + collections.size() + " collections and " + dashboards.size()
                    + " dashboards acknowledged before the kill");
            // New objects get new ids: no acknowledged id is handed out again.
            for (int i = 0; i < 5; i++) {
                long id = admin.post(200, "collection", Map.of("name", "after-" + i)).json().get("id").asLong();
                assertTrue(!collections.containsKey(id), "collection id " + id + " was acknowledged before the crash");
                long dashboard = admin.post(200, "dashboard", Map.of("name", "after-" + i)).json().get("id").asLong();
                assertTrue(!dashboards.containsKey(dashboard), "dashboard id " + dashboard + " was acknowledged before the crash");
            }
        } finally {
            second.process().destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static void write(Api admin, int writer, AtomicBoolean killed, Map<Long, String> collections, Map<Long, String> dashboards) {
        for (int n = 0; !killed.get() || n == 0; n++) {
            String name = "w" + writer + "-" + n;
            boolean dashboard = writer % 3 == 0;
            Api.Res res;
            try {
                res = admin.call("POST", dashboard ? "dashboard" : "collection", Map.of("name", name));
            } catch (RuntimeException connectionLost) {
                return;
            }
            if (res.status() != 200) {
                continue;
            }
            // Acknowledged: the server answered 200 with the new id.
            (dashboard ? dashboards : collections).put(res.json().get("id").asLong(), name);
        }
    }
}
