package io.quarry.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.Sources;
import io.quarry.testing.TestAppDb;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.util.resource.ResourceFactory;
import org.eclipse.jetty.xml.XmlConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue #30: slow clients cannot hold the {@code mvn jetty:run} server. The plugin cannot be started by the tests
 * (it is not on the offline class path), so this starts an embedded Jetty from the very file the plugin reads
 * ({@code server/src/main/jetty/jetty-connector.xml}, its {@code jettyXmls}), with Quarry deployed in the context
 * collection of that file as the plugin deploys it, and a shorter idle timeout given as a property, as
 * {@code -Djetty.http.idleTimeout} would.
 */
class JettyRunConnectorIT {
    private static final long IDLE_TIMEOUT_MILLIS = 2000;

    private static Server server;
    private static URI base;

    @BeforeAll
    static void start() throws Exception {
        // The connector does not depend on the application database: one pass is enough.
        Assumptions.assumeFalse(TestAppDb.isPostgres(), "the H2 application database pass");
        XmlConfiguration xml = new XmlConfiguration(ResourceFactory.root().newResource(Sources.server("src/main/jetty/jetty-connector.xml")));
        xml.getProperties().put("jetty.http.host", "127.0.0.1");
        xml.getProperties().put("jetty.http.port", "0");
        xml.getProperties().put("jetty.http.idleTimeout", String.valueOf(IDLE_TIMEOUT_MILLIS));
        server = (Server) xml.configure();
        WebAppContext webapp = new WebAppContext();
        webapp.setContextPath("/");
        webapp.setBaseResourceAsPath(Sources.server("src/main/webapp"));
        webapp.setParentLoaderPriority(true);
        webapp.setThrowUnavailableOnStartupException(true);
        TestAppDb.fresh().forEach(webapp::setInitParameter);
        server.getDescendant(ContextHandlerCollection.class).addHandler(webapp);
        server.start();
        ServerConnector connector = (ServerConnector) server.getConnectors()[0];
        assertEquals("127.0.0.1", connector.getHost());
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (new Api(base).call("GET", "health", null).status() != 200) {
            assertTrue(System.nanoTime() < deadline, "Quarry starts");
            Thread.sleep(200);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /** Without -Djetty.http.host nor MB_JETTY_HOST the connector listens on every interface, on port 3000. */
    @Test
    void everyInterfaceAndPort3000ByDefault() throws Exception {
        Assumptions.assumeTrue(System.getenv("MB_JETTY_HOST") == null && System.getProperty("jetty.http.host") == null);
        XmlConfiguration xml = new XmlConfiguration(ResourceFactory.root().newResource(Sources.server("src/main/jetty/jetty-connector.xml")));
        Server configured = (Server) xml.configure();
        ServerConnector connector = (ServerConnector) configured.getConnectors()[0];
        assertEquals(null, connector.getHost());
        assertEquals(3000, connector.getPort());
        assertEquals(20_000, connector.getIdleTimeout());
    }

    /** A body sent in pieces with pauses (a slow link, a client writing as it goes) is answered, not refused. */
    @Test
    void aBodySentInPiecesWithPausesIsAnswered() throws Exception {
        byte[] body = "{\"username\":\"nobody@example.com\",\"password\":\"not-the-password\"}".getBytes(StandardCharsets.US_ASCII);
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            for (int from = 0; from < body.length; from += 20) {
                Thread.sleep(700);
                out.write(body, from, Math.min(20, body.length - from));
                out.flush();
            }
            String status = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            // Unknown credentials: the body was read and understood.
            assertEquals("HTTP/1.1 401", status);
        }
    }

    /** What became of a slow client: closed (or answered) after that many ms, or still open at the end. */
    private record Outcome(String kind, long millis, String answer) {
    }

    @Test
    void slowClientsAreClosedWhileANormalClientIsAnswered() throws Exception {
        List<Callable> clients = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            // Connects and sends nothing.
            clients.add(() -> slow("silent", new byte[0], null));
            // Sends half a request head, then nothing.
            clients.add(() -> slow("half a head", "GET /api/health HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII), null));
            // (A body trickled at one byte a second is not bounded: see docs/durability.md, slow clients.)
        }
        ExecutorService pool = Executors.newFixedThreadPool(clients.size());
        try {
            List<Future<Outcome>> outcomes = new ArrayList<>();
            for (Callable client : clients) {
                outcomes.add(pool.submit(client::call));
            }
            Thread.sleep(1000);
            // A normal client is served while the slow ones hold their connections.
            for (int i = 0; i < 5; i++) {
                long began = System.nanoTime();
                Api.Res health = new Api(base).call("GET", "health", null);
                assertEquals(200, health.status(), health.body());
                assertTrue(System.nanoTime() - began < Duration.ofSeconds(2).toNanos(), "a normal request is answered at once");
            }
            for (Future<Outcome> future : outcomes) {
                Outcome outcome = future.get(60, TimeUnit.SECONDS);
                System.out.printf("JettyRunConnectorIT: %s closed after %d ms (%s)%n", outcome.kind, outcome.millis, outcome.answer);
                // Within the idle timeout, with two seconds of slack for the server's idle check and this client's poll.
                assertEquals("closed", outcome.answer, outcome.kind);
                assertTrue(outcome.millis <= IDLE_TIMEOUT_MILLIS + 2000, outcome.kind + " closed after " + outcome.millis + " ms");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private interface Callable {
        Outcome call() throws IOException;
    }

    /**
     * Opens a connection, writes {@code first}, then {@code trickle} one byte a second, and reports when the server
     * closed the connection (or answered it); gives up after 30 s.
     */
    private static Outcome slow(String kind, byte[] first, byte[] trickle) throws IOException {
        long began = System.nanoTime();
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(1000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(first);
            out.flush();
            int sent = 0;
            byte[] answer = new byte[4096];
            while (System.nanoTime() - began < Duration.ofSeconds(30).toNanos()) {
                if (trickle != null && sent < trickle.length) {
                    try {
                        out.write(trickle[sent++]);
                        out.flush();
                    } catch (IOException closed) {
                        return new Outcome(kind, elapsed(began), "write failed: " + closed.getMessage());
                    }
                }
                try {
                    int read = in.read(answer);
                    if (read < 0) {
                        return new Outcome(kind, elapsed(began), "closed");
                    }
                    String text = new String(answer, 0, read, StandardCharsets.ISO_8859_1);
                    return new Outcome(kind, elapsed(began), text.lines().findFirst().orElse(""));
                } catch (SocketTimeoutException stillOpen) {
                    // nothing yet: trickle on
                } catch (IOException reset) {
                    return new Outcome(kind, elapsed(began), "reset: " + reset.getMessage());
                }
            }
            return new Outcome(kind, elapsed(began), "still open");
        }
    }

    private static long elapsed(long began) {
        return (System.nanoTime() - began) / 1_000_000;
    }
}
