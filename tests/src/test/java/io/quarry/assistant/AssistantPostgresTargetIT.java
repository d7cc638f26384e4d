package io.quarry.assistant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The offline assistant on another engine: the Sample Database's four main tables copied into PostgreSQL, a few
 * questions of each kind (time grouping, dates, joins, values, top N), compared with PostgreSQL SQL written by hand.
 * The structured query is compiled by the PostgreSQL dialect and its literals written for it.
 */
class AssistantPostgresTargetIT {
    private static final List<String> TABLES = List.of("PRODUCTS", "PEOPLE", "ORDERS", "REVIEWS");

    private static TestServer server;
    private static Api admin;
    private static long db;

    @BeforeAll
    static void start() throws Exception {
        String pg = PostgresTargets.create("assistant");
        copySample(pg);
        server = TestServer.start();
        Api anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        PostgresTargets.ensureDriver(server.quarry());
        db = admin.post(200, "database", Map.of("engine", "postgres", "name", "Sample on PostgreSQL",
                "details", PostgresTargets.details(pg))).json().get("id").asLong();
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!("complete".equals(admin.get(200, "database/" + db).json().get("initial_sync_status").asText())
                && !server.quarry().sync.isSyncing(db)) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Copies the four tables (types, keys, rows) from the generated H2 Sample Database. */
    private static void copySample(String pg) throws Exception {
        Path sample = SampleDatabase.ensure(Files.createTempDirectory("quarry-sample"));
        try (Connection h2 = DriverManager.getConnection("jdbc:h2:file:" + sample + ";ACCESS_MODE_DATA=r", SampleDatabase.USER,
                SampleDatabase.PASSWORD); Connection target = PostgresTargets.connect(pg)) {
            target.setAutoCommit(false);
            for (String table : TABLES) {
                try (Statement s = h2.createStatement(); ResultSet rows = s.executeQuery("SELECT * FROM PUBLIC." + table)) {
                    ResultSetMetaData meta = rows.getMetaData();
                    List<String> columns = new ArrayList<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        String type = switch (meta.getColumnType(i)) {
                            case java.sql.Types.BIGINT -> "BIGINT";
                            case java.sql.Types.INTEGER -> "INTEGER";
                            case java.sql.Types.DOUBLE, java.sql.Types.FLOAT, java.sql.Types.REAL -> "DOUBLE PRECISION";
                            case java.sql.Types.TIMESTAMP -> "TIMESTAMP";
                            case java.sql.Types.DATE -> "DATE";
                            case java.sql.Types.BOOLEAN -> "BOOLEAN";
                            default -> "TEXT";
                        };
                        columns.add("\"" + meta.getColumnName(i) + "\" " + type + (meta.getColumnName(i).equals("ID") ? " PRIMARY KEY" : ""));
                    }
                    try (Statement create = target.createStatement()) {
                        create.execute("CREATE TABLE \"" + table + "\" (" + String.join(", ", columns) + ")");
                    }
                    String marks = String.join(", ", java.util.Collections.nCopies(meta.getColumnCount(), "?"));
                    try (PreparedStatement insert = target.prepareStatement("INSERT INTO \"" + table + "\" VALUES (" + marks + ")")) {
                        while (rows.next()) {
                            for (int i = 1; i <= meta.getColumnCount(); i++) {
                                insert.setObject(i, rows.getObject(i));
                            }
                            insert.addBatch();
                        }
                        insert.executeBatch();
                    }
                }
            }
            try (Statement s = target.createStatement()) {
                s.execute("ALTER TABLE \"ORDERS\" ADD FOREIGN KEY (\"USER_ID\") REFERENCES \"PEOPLE\" (\"ID\")");
                s.execute("ALTER TABLE \"ORDERS\" ADD FOREIGN KEY (\"PRODUCT_ID\") REFERENCES \"PRODUCTS\" (\"ID\")");
                s.execute("ALTER TABLE \"REVIEWS\" ADD FOREIGN KEY (\"PRODUCT_ID\") REFERENCES \"PRODUCTS\" (\"ID\")");
            }
            target.commit();
        }
    }

    @Test
    void questionsCompileForPostgresAndAnswerAsHandWrittenSql() {
        LocalDate monthStart = LocalDate.now(ZoneOffset.UTC).withDayOfMonth(1);
        String join = " FROM \"ORDERS\" o LEFT JOIN \"PRODUCTS\" p ON o.\"PRODUCT_ID\" = p.\"ID\"";
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("how many orders", "SELECT COUNT(*) FROM \"ORDERS\"");
        cases.put("average rating of reviews by month", "SELECT date_trunc('month', \"CREATED_AT\"), AVG(\"RATING\")"
                + " FROM \"REVIEWS\" GROUP BY 1");
        cases.put("total of subtotal by product category", "SELECT p.\"CATEGORY\", SUM(o.\"SUBTOTAL\")" + join + " GROUP BY 1");
        cases.put("number of orders per quarter in 2024", "SELECT date_trunc('quarter', \"CREATED_AT\"), COUNT(*) FROM \"ORDERS\""
                + " WHERE \"CREATED_AT\" >= '2024-01-01' AND \"CREATED_AT\" < '2025-01-01' GROUP BY 1");
        cases.put("how many people in the last 12 months", "SELECT COUNT(*) FROM \"PEOPLE\" WHERE \"CREATED_AT\" >= DATE '"
                + monthStart.minusMonths(12) + "' AND \"CREATED_AT\" < DATE '" + monthStart + "'");
        cases.put("top 5 products by total sales", "SELECT p.\"TITLE\", SUM(o.\"TOTAL\")" + join + " GROUP BY 1 ORDER BY 2 DESC LIMIT 5");
        cases.put("how many people from state TX", "SELECT COUNT(*) FROM \"PEOPLE\" WHERE \"STATE\" = 'TX'");
        cases.put("how many orders of Widget products", "SELECT COUNT(*)" + join + " WHERE p.\"CATEGORY\" = 'Widget'");
        cases.put("how many orders with a total between 50 and 100", "SELECT COUNT(*) FROM \"ORDERS\" WHERE \"TOTAL\" BETWEEN 50 AND 100");
        cases.put("which category has the most orders", "SELECT p.\"CATEGORY\", COUNT(*)" + join + " GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        cases.put("max price of products by category", "SELECT \"CATEGORY\", MAX(\"PRICE\") FROM \"PRODUCTS\" GROUP BY 1");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            JsonNode answer = admin.post(200, "assistant/database/" + db, Map.of("question", c.getKey())).json();
            JsonNode datasetQuery = answer.get("card").get("dataset_query");
            assertEquals("native", datasetQuery.get("type").asText());
            SampleData.Result got = SampleData.run(admin, db, datasetQuery.get("native").get("query").asText());
            SampleData.Result expected = SampleData.run(admin, db, c.getValue());
            assertFalse(expected.rows().isEmpty() || expected.normalised().get(0).startsWith("0"), c.getKey());
            assertEquals(expected.normalised(), got.normalised(), c.getKey() + "\n" + answer.get("bot-sql").asText());
        }
    }
}
