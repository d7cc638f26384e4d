package io.quarry.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import javax.naming.NamingException;
import org.apache.commons.dbcp2.BasicDataSource;
import org.eclipse.jetty.ee10.plus.webapp.EnvConfiguration;
import org.eclipse.jetty.ee10.plus.webapp.PlusConfiguration;
import org.eclipse.jetty.plus.jndi.Resource;
import org.junit.jupiter.api.Test;

/**
 * Quarry on a container-provided DataSource: the container binds a pool in JNDI, the deployment names it with
 * MB_DB_JNDI_NAME, and Quarry migrates and uses that database (H2 or PostgreSQL, whichever the pool points at).
 */
class JndiDataSourceIT {
    @Test
    void usesTheContainersDataSource() throws Exception {
        BasicDataSource pool = new BasicDataSource();
        if (TestAppDb.isPostgres()) {
            Map<String, String> pg = TestAppDb.fresh();
            pool.setUrl(pg.get("MB_DB_CONNECTION_URI").replaceFirst("^postgres:", "jdbc:postgresql:"));
            pool.setUsername(pg.get("MB_DB_USER"));
            pool.setPassword(pg.get("MB_DB_PASS"));
        } else {
            Path dir = Files.createTempDirectory("quarry-jndi");
            pool.setUrl("jdbc:h2:file:" + dir.resolve("container") + ";DB_CLOSE_ON_EXIT=FALSE");
            pool.setUsername("sa");
            pool.setPassword("");
        }
        Path override = Files.createTempFile("quarry-jndi", ".xml");
        Files.writeString(override, """
                <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
                  <resource-ref>
                    <res-ref-name>jdbc/quarry</res-ref-name>
                    <res-type>javax.sql.DataSource</res-type>
                    <res-auth>Container</res-auth>
                  </resource-ref>
                </web-app>
                """);
        Map<String, String> config = Map.of("MB_DB_TYPE", "jndi", "MB_DB_JNDI_NAME", "java:comp/env/jdbc/quarry");
        try (TestServer server = TestServer.startWith(config, webapp -> {
            webapp.addConfiguration(new EnvConfiguration(), new PlusConfiguration());
            webapp.addOverrideDescriptor(override.toString());
            try {
                new Resource(webapp, "jdbc/quarry", pool);
            } catch (NamingException e) {
                throw new IllegalStateException(e);
            }
        })) {
            Api api = server.api();
            assertEquals("ok", api.get(200, "health").json().get("status").asText());
            Fixtures.setUp(api);
        }
        // The administrator landed in the container's database, which Quarry did not close: it is the container's.
        try (Connection c = pool.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT email FROM core_user")) {
            rs.next();
            assertEquals(Fixtures.ADMIN_EMAIL, rs.getString(1));
        }
        pool.close();
    }
}
