package io.quarry.deploy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Deployed as a WAR, Quarry's errors also reach the container's own log (ServletContext.log): here Jetty's context
 * logger, in Tomcat its localhost log.
 */
class ContainerLogIT {
    @Test
    void startupErrorReachesTheContainersLog() throws Exception {
        Path war = Path.of(System.getProperty("quarry.test.war", "target/quarry.war"));
        assertTrue(Files.isRegularFile(war), "build the WAR first (mvn package): " + war);
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Logger containerLog = (Logger) LoggerFactory.getLogger("org.eclipse.jetty.server.handler.ContextHandler");
        ListAppender<ILoggingEvent> seen = new ListAppender<>();
        seen.start();
        containerLog.addAppender(seen);
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        WebAppContext webapp = new WebAppContext();
        webapp.setContextPath("/logs");
        webapp.setWar(war.toAbsolutePath().toString());
        webapp.setParentLoaderPriority(false);
        webapp.setExtractWAR(true);
        webapp.setInitParameter("MB_DB_TYPE", "postgres");
        webapp.setInitParameter("MB_DB_HOST", "127.0.0.1");
        webapp.setInitParameter("MB_DB_PORT", String.valueOf(closedPort));
        webapp.setInitParameter("MB_DB_DBNAME", "nothing");
        server.setHandler(webapp);
        try {
            server.start();
            long deadline = System.nanoTime() + 60_000_000_000L;
            boolean found = false;
            while (!found && System.nanoTime() < deadline) {
                found = seen.list.stream().anyMatch(e -> e.getFormattedMessage().contains("io.quarry.boot.QuarryListener")
                        && e.getFormattedMessage().contains("127.0.0.1:" + closedPort));
                Thread.sleep(100);
            }
            assertTrue(found, "the container's log got Quarry's start-up error");
        } finally {
            server.stop();
            containerLog.detachAppender(seen);
        }
    }
}
