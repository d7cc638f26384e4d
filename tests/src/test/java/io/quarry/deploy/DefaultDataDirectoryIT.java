package io.quarry.deploy;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.junit.jupiter.api.Test;

/**
 * The built WAR deployed twice in one container, with no configuration at all: each context comes up on a data
 * directory of its own, and neither sees the other's data. (The build points MB_PLUGINS_DIR at a shared sample
 * database for every test, so where the sample database goes by default is DataDirectoryTest's.)
 */
class DefaultDataDirectoryIT {
    @Test
    void twoContextsWithoutSettingsEachUseTheirOwnDataDirectory() throws Exception {
        Path war = Path.of(System.getProperty("quarry.test.war", "target/quarry.war"));
        assertTrue(Files.isRegularFile(war), "build the WAR first (mvn package): " + war);
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        List<String> contexts = List.of("/it-a-" + suffix, "/it-b-" + suffix);
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ContextHandlerCollection handlers = new ContextHandlerCollection();
        for (String context : contexts) {
            WebAppContext webapp = new WebAppContext();
            webapp.setContextPath(context);
            webapp.setWar(war.toAbsolutePath().toString());
            webapp.setParentLoaderPriority(false);
            webapp.setExtractWAR(true);
            webapp.setThrowUnavailableOnStartupException(true);
            handlers.addHandler(webapp);
        }
        server.setHandler(handlers);
        // the working directory is writable here: each non-root context gets ./quarry-<context>
        List<Path> dataDirs = contexts.stream().map(c -> Path.of("quarry-" + c.substring(1)).toAbsolutePath()).toList();
        try {
            server.start();
            List<String> sessions = new ArrayList<>();
            for (String context : contexts) {
                Api api = new Api(URI.create("http://127.0.0.1:" + connector.getLocalPort() + context + "/"));
                awaitHealthy(api);
                sessions.add(Fixtures.setUp(api));
            }
            for (int i = 0; i < contexts.size(); i++) {
                Path h2 = dataDirs.get(i).resolve("quarry.db.mv.db");
                assertTrue(Files.isRegularFile(h2), "the application database is in the context's own data directory: " + h2);
                Api api = new Api(URI.create("http://127.0.0.1:" + connector.getLocalPort() + contexts.get(i) + "/")).as(sessions.get(i));
                api.get(200, "user/current");
                // the other context's session means nothing here
                new Api(URI.create("http://127.0.0.1:" + connector.getLocalPort() + contexts.get(i) + "/"))
                        .as(sessions.get(1 - i)).get(401, "user/current");
            }
            assertNotEquals(dataDirs.get(0), dataDirs.get(1));
        } finally {
            server.stop();
            for (Path dir : dataDirs) {
                deleteTree(dir);
            }
        }
    }

    private static void awaitHealthy(Api api) throws InterruptedException {
        long deadline = System.nanoTime() + 90_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (api.call("GET", "health", null).status() == 200) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not healthy: " + api.call("GET", "health", null).body());
    }

    private static void deleteTree(Path dir) throws Exception {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
