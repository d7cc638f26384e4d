package io.quarry.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.ServerProcess;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The built WAR (target/quarry.war), deployed unchanged into a real Jetty 12 container under a non-root context path,
 * with the WAR's own class loader: it starts, answers health and sign-in, runs a query and draws a chart, and undeploys
 * without leaving threads behind, so that a redeploy on the same H2 file works at once.
 */
class WarDeploymentIT {
    @Test
    void warDeploysServesAndRedeploysCleanly() throws Exception {
        Path war = Path.of(System.getProperty("quarry.test.war", "target/quarry.war"));
        assertTrue(Files.isRegularFile(war), "build the WAR first (mvn package): " + war);
        Map<String, String> config = TestAppDb.fresh();
        try (TestServer server = TestServer.deployWar(war, "/quarry", config)) {
            Api api = server.api();
            assertEquals("ok", api.get(200, "health").json().get("status").asText());
            // the web interface comes from the WAR too, with its links relative to the context path
            String index = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(server.base).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(index.contains("<base href=\"/quarry/\">"), index);
            Fixtures.setUp(api);
            String session = Fixtures.login(api, Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
            assertTrue(api.as(session).get(200, "session/properties").json().get("has-user-setup").asBoolean());
            // a query runs its statement on a worker thread of the webapp, which must end with it
            long sample = api.as(session).post(200, "database/sample_database", Map.of()).json().get("id").asLong();
            assertEquals(1, api.as(session).post(202, "dataset", Map.of("database", sample, "type", "native",
                    "native", Map.of("query", "SELECT 1"))).json().get("row_count").asInt());
            // a chart drawn with Java2D inside the webapp (headless, the JDK's fonts) leaves no thread holding it either
            long card = api.as(session).post(200, "card", Map.of("name", "Products", "display", "bar", "visualization_settings",
                    Map.of(), "dataset_query", Map.of("database", sample, "type", "native", "native", Map.of("query",
                            "SELECT CATEGORY, COUNT(*) AS N FROM PRODUCTS GROUP BY CATEGORY ORDER BY CATEGORY")))).json().get("id").asLong();
            java.net.http.HttpResponse<byte[]> png = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                    .newBuilder(server.base.resolve("api/pulse/preview_card_png/" + card)).header("X-Metabase-Session", session).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, png.statusCode());
            java.awt.image.BufferedImage image = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(png.body()));
            assertEquals(400, image.getWidth());
            // the sample database's first sync runs on: stopping the webapp in the middle of it can leave the target H2
            // database's lob-cleaner thread behind (a sync step reopens the database as the pools close)
            long syncDeadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!"complete".equals(api.as(session).get(200, "database/" + sample).json().path("initial_sync_status").asText())
                    && System.nanoTime() < syncDeadline) {
                Thread.sleep(200);
            }

            ClassLoader first = server.webapp().getClassLoader();
            assertNotSame(getClass().getClassLoader(), first, "the WAR runs on its own class loader");

            server.webapp().stop();
            assertNoThreadsOf(first);

            // Redeploy in the same container: the H2 file must be free again and the data still there.
            server.webapp().start();
            server.awaitHealthy(Duration.ofSeconds(60));
            assertNotSame(first, server.webapp().getClassLoader());
            String again = Fixtures.login(api, Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
            api.as(again).get(200, "session/properties");
            api.get(404, "no-such-endpoint");
        }
    }

    /** No live thread belongs to the undeployed webapp: none of ours by name, none holding its class loader. */
    /**
     * Debian's Tomcat: the working directory is not writable by the server's user and nothing is configured. Quarry
     * comes up on a data directory the container gives this deployment (here Jetty's per-context temporary directory
     * under java.io.tmpdir): the H2 file and the generated Sample Database land there, nothing in the working directory.
     */
    @Test
    void warOnAReadOnlyWorkingDirectoryWithNoSettingsComesUpOnItsOwnDataDirectory() throws Exception {
        Path war = Path.of(System.getProperty("quarry.test.war", "target/quarry.war"));
        assertTrue(Files.isRegularFile(war), "build the WAR first (mvn package): " + war);
        Path root = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "war-read-only-");
        Path working = Files.createDirectory(root.resolve("working"));
        Path tmp = Files.createDirectory(root.resolve("tmp"));
        Files.setPosixFilePermissions(working, PosixFilePermissions.fromString("r-xr-xr-x"));
        ServerProcess.Child child = ServerProcess.startWar(war, "/quarry", working, tmp, root.resolve("server.log"));
        try {
            Api api = new Api(child.base());
            assertEquals("ok", api.get(200, "health").json().get("status").asText());
            String session = Fixtures.setUp(api);
            assertTrue(api.as(session).get(200, "session/properties").json().get("has-user-setup").asBoolean());
            // the Sample Database (setup adds it by default) is generated in the data directory too
            JsonNode sample = api.as(session).post(200, "database/sample_database", Map.of()).json();
            assertTrue(sample.get("is_sample").asBoolean(), sample.toString());
            assertEquals(1, api.as(session).post(202, "dataset", Map.of("database", sample.get("id").asLong(), "type", "native",
                    "native", Map.of("query", "SELECT COUNT(*) FROM PUBLIC.ORDERS"))).json().get("row_count").asInt());

            try (Stream<Path> files = Files.list(working)) {
                assertEquals(List.of(), files.toList(), "nothing is written to the working directory");
            }
            List<Path> h2 = find(tmp, "quarry.db.mv.db");
            assertEquals(1, h2.size(), "one H2 application database under the container's directory: " + h2);
            assertEquals(1, find(h2.get(0).getParent().resolve("plugins"), "sample-database.mv.db").size(), "the sample database sits beside it");
            String log = Files.readString(root.resolve("server.log"));
            assertTrue(log.contains("data directory " + h2.get(0).getParent()), log);
        } finally {
            child.process().destroy();
            child.process().waitFor(30, TimeUnit.SECONDS);
            Files.setPosixFilePermissions(working, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    /**
     * {@code ROOT.war} and {@code quarry.war} in one container with nothing configured (the "The file is
     * locked"): each context works on its own data directory, the root one in the working directory, the other in
     * {@code ./quarry-quarry}; each is set up on its own.
     */
    @Test
    void twoContextsInOneContainerEachWorkOnTheirOwnData() throws Exception {
        Path war = Path.of(System.getProperty("quarry.test.war", "target/quarry.war"));
        assertTrue(Files.isRegularFile(war), "build the WAR first (mvn package): " + war);
        Path root = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "war-two-contexts-");
        Path working = Files.createDirectory(root.resolve("working"));
        Path tmp = Files.createDirectory(root.resolve("tmp"));
        ServerProcess.Child child = ServerProcess.startWars(war, List.of("/", "/quarry"), working, tmp, root.resolve("server.log"));
        try {
            for (String context : List.of("", "quarry/")) {
                Api api = new Api(child.base().resolve(context));
                awaitHealthy(api);
                String session = Fixtures.setUp(api);
                assertTrue(api.as(session).get(200, "session/properties").json().get("has-user-setup").asBoolean(), context);
            }
            assertTrue(Files.isRegularFile(working.resolve("quarry.db.mv.db")), "the root context's H2 file");
            assertTrue(Files.isRegularFile(working.resolve("quarry-quarry").resolve("quarry.db.mv.db")), "/quarry's H2 file");
        } finally {
            child.process().destroy();
            child.process().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static void awaitHealthy(Api api) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (api.call("GET", "api/health", null).status() != 200) {
            assertTrue(System.nanoTime() < deadline, "Quarry did not become healthy at " + api);
            Thread.sleep(100);
        }
    }

    private static List<Path> find(Path under, String name) throws java.io.IOException {
        try (Stream<Path> files = Files.walk(under)) {
            return files.filter(p -> p.getFileName().toString().equals(name)).toList();
        }
    }

    private static void assertNoThreadsOf(ClassLoader webappLoader) throws InterruptedException {
        List<String> leaked = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        do {
            leaked.clear();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.isAlive() && (t.getName().startsWith("quarry-") || t.getContextClassLoader() == webappLoader)) {
                    leaked.add(t.getName());
                }
            }
            if (leaked.isEmpty()) {
                return;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("Threads left behind after undeploy: " + leaked);
    }
}
