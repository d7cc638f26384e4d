package io.quarry.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.qp.CompiledQuery;
import io.quarry.qp.mbql.MbqlCompiler;
import io.quarry.qp.mbql.MbqlMetadata;
import io.quarry.qp.mbql.MbqlReferences;
import io.quarry.testing.MariaDbServer;
import io.quarry.testing.PostgresTargets;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The engine contract: one body per case, run for every engine {@link Drivers#standard()} lists, skipped where the
 * engine lacks the case's {@link Feature} (Metabase's "one test per driver with the feature"). Each engine gets the
 * same two small tables, connected through its own driver (details → connection spec), typed by its own type mapping,
 * and compiled with the dialect its driver returns. H2, SQLite and DuckDB are files; PostgreSQL is a database of the
 * embedded server the tests share ({@link PostgresTargets}); MySQL is the MariaDB server of {@link MariaDbServer}.
 */
class EngineContractIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final LocalDateTime NOW = LocalDateTime.of(2024, 4, 1, 12, 0);
    private static final Map<String, Target> TARGETS = new LinkedHashMap<>();

    /** One engine's database: the open connection and the metadata read from it. */
    private record Target(Driver driver, Connection connection, ContractMetadata metadata) {
    }

    /** A query of the contract: what it needs, its MBQL (with {@code ITEMS}, {@code ITEMS.PRICE} ... as ids) and its rows. */
    private record Case(String name, Feature feature, String mbql, List<List<Object>> rows) {
    }

    private static final List<Case> CASES = List.of(
            new Case("count", Feature.BASIC_AGGREGATIONS, "{'source-table': ITEMS, 'aggregation': [['count']]}", rows(row(5))),
            new Case("sum by category", Feature.BASIC_AGGREGATIONS, "{'source-table': ITEMS, 'aggregation': [['sum', ITEMS.PRICE]],"
                    + " 'breakout': [ITEMS.CATEGORY_ID], 'filter': ['not-null', ITEMS.CATEGORY_ID]}", rows(row(1, 30), row(2, 70))),
            new Case("filter, order and limit", Feature.BASIC_AGGREGATIONS, "{'source-table': ITEMS, 'fields': [ITEMS.TITLE],"
                    + " 'filter': ['>', ITEMS.PRICE, 15], 'order-by': [['desc', ITEMS.PRICE]], 'limit': 2}", rows(row("Epsilon"), row("Delta"))),
            new Case("case-insensitive contains", Feature.CASE_SENSITIVITY_STRING_FILTER_OPTIONS, "{'source-table': ITEMS,"
                    + " 'aggregation': [['count']], 'filter': ['contains', ITEMS.TITLE, 'ALP', {'case-sensitive': false}]}", rows(row(1))),
            new Case("expression", Feature.EXPRESSIONS, "{'source-table': ITEMS, 'expressions': {'double': ['*', ITEMS.PRICE, 2]},"
                    + " 'fields': [['expression', 'double']], 'filter': ['=', ITEMS.ID, 1]}", rows(row(20))),
            new Case("month buckets", Feature.BASIC_AGGREGATIONS, "{'source-table': ITEMS, 'aggregation': [['count']],"
                    + " 'breakout': [['field', ITEMS.CREATED_AT, {'temporal-unit': 'month'}]]}",
                    rows(row("2024-01-01", 2), row("2024-02-01", 1), row("2024-03-01", 2))),
            new Case("relative date filter", Feature.BASIC_AGGREGATIONS, "{'source-table': ITEMS, 'aggregation': [['count']],"
                    + " 'filter': ['time-interval', ITEMS.CREATED_AT, -1, 'month']}", rows(row(2))),
            new Case("standard deviation", Feature.STANDARD_DEVIATION_AGGREGATIONS, "{'source-table': ITEMS,"
                    + " 'aggregation': [['stddev', ITEMS.PRICE]]}", rows(row(Math.sqrt(200)))),
            new Case("median and percentile", Feature.PERCENTILE_AGGREGATIONS, "{'source-table': ITEMS,"
                    + " 'aggregation': [['median', ITEMS.PRICE], ['percentile', ITEMS.PRICE, 0.25]]}", rows(row(30, 20))),
            new Case("datetime-diff", Feature.DATETIME_DIFF, "{'source-table': ITEMS, 'expressions': {'days':"
                    + " ['datetime-diff', ITEMS.CREATED_AT, '2024-03-15T10:00:00', 'day']}, 'fields': [['expression', 'days']],"
                    + " 'filter': ['=', ITEMS.ID, 1]}", rows(row(60))),
            new Case("left join", Feature.LEFT_JOIN, join("left-join"), rows(row(5))),
            new Case("inner join", Feature.INNER_JOIN, join("inner-join"), rows(row(4))),
            new Case("right join", Feature.RIGHT_JOIN, join("right-join"), rows(row(5))),
            new Case("full join", Feature.FULL_JOIN, join("full-join"), rows(row(6))),
            new Case("nested query", Feature.NESTED_QUERIES, "{'source-query': {'source-table': ITEMS, 'aggregation': [['count']],"
                    + " 'breakout': [ITEMS.CATEGORY_ID]}, 'aggregation': [['count']]}", rows(row(3))));

    private static String join(String strategy) {
        return "{'source-table': ITEMS, 'aggregation': [['count']], 'joins': [{'source-table': CATEGORIES, 'alias': 'C',"
                + " 'strategy': '" + strategy + "', 'condition': ['=', ITEMS.CATEGORY_ID, ['field', CATEGORIES.ID, {'join-alias': 'C'}]],"
                + " 'fields': 'none'}]}";
    }

    @TestFactory
    Stream<DynamicNode> everyEngineAnswersTheContract() {
        return Drivers.standard().all().stream().map(driver -> DynamicContainer.dynamicContainer(driver.engine(),
                CASES.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> run(driver, c)))));
    }

    /** What an engine advertises, its dialect compiles, and nothing more; the dialect is the engine's own. */
    @Test
    void everyDriverReturnsItsOwnDialectCompilingWhatItAdvertises() {
        for (Driver driver : Drivers.standard().all()) {
            SqlDialect dialect = driver.dialect();
            assertEquals(driver.engine(), dialect.engine());
            assertEquals(driver.displayName(), dialect.displayName());
            assertTrue(dialect.getClass().getPackageName().startsWith("io.quarry.driver." + driver.engine()),
                    driver.engine() + ": " + dialect.getClass());
            assertTrue(driver.getClass().getPackageName().equals(dialect.getClass().getPackageName()), driver.engine());
            for (Feature feature : driver.features()) {
                assertTrue(dialect.supports(feature), driver.engine() + " advertises " + feature.keyword() + " but cannot compile it");
            }
            for (Feature feature : Feature.values()) {
                assertTrue(!dialect.supports(feature) || driver.supports(feature),
                        driver.engine() + " compiles " + feature.keyword() + " but does not advertise it");
            }
        }
    }

    private static void run(Driver driver, Case c) throws Exception {
        assumeTrue(driver.supports(c.feature()), () -> driver.engine() + " lacks " + c.feature().keyword());
        Target target = target(driver);
        SqlDialect dialect = driver.dialect();
        MbqlCompiler compiler = new MbqlCompiler(new MbqlCompiler.Context(dialect, target.metadata(), MbqlReferences.NONE, 1, NOW,
                DayOfWeek.SUNDAY, MbqlCompiler.DEFAULT_BINS, MbqlCompiler.DEFAULT_BIN_WIDTH));
        CompiledQuery compiled = compiler.compile(target.metadata().mbql(c.mbql()));
        List<List<Object>> actual;
        try {
            actual = rows(target.connection(), compiled.sql(), compiled.params().stream().map(dialect::bindValue).toList());
        } catch (SQLException e) {
            throw new AssertionError(driver.engine() + ": " + c.name() + " failed: " + e.getMessage() + "\n" + compiled.sql(), e);
        }
        assertEquals(normalized(c.rows()), normalized(actual), driver.engine() + ": " + c.name() + "\n" + compiled.sql());
    }

    private static synchronized Target target(Driver driver) throws Exception {
        Target target = TARGETS.get(driver.engine());
        if (target == null) {
            Map<String, Object> details = create(driver.engine());
            Connection connection = Drivers.open(driver.connectionSpec(details));
            target = new Target(driver, connection, new ContractMetadata(connection, driver));
            TARGETS.put(driver.engine(), target);
        }
        return target;
    }

    @AfterAll
    static void close() throws SQLException {
        for (Target target : TARGETS.values()) {
            target.connection().close();
        }
        if (TARGETS.containsKey("mysql")) {
            try (Connection c = MariaDbServer.get().connect(""); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + mysqlDatabase());
            }
        }
        TARGETS.clear();
    }

    private static String mysqlDatabase() {
        return "contract_" + ProcessHandle.current().pid();
    }

    /** Creates the engine's database with the contract's tables and answers the details Quarry would be given. */
    private static Map<String, Object> create(String engine) throws Exception {
        String timestamp = engine.equals("mysql") ? "DATETIME" : "TIMESTAMP";
        List<String> ddl = List.of("CREATE TABLE categories (id INTEGER PRIMARY KEY, name VARCHAR(50))",
                "CREATE TABLE items (id INTEGER PRIMARY KEY, category_id INTEGER, title VARCHAR(50), price DOUBLE PRECISION,"
                        + " created_at " + timestamp + ")",
                "INSERT INTO categories VALUES (1, 'Gizmo'), (2, 'Widget'), (3, 'Doohickey')",
                "INSERT INTO items VALUES (1, 1, 'Alpha', 10.0, '2024-01-15 10:00:00'), (2, 1, 'Beta', 20.0, '2024-01-20 12:30:00'),"
                        + " (3, 2, 'Gamma', 30.0, '2024-02-03 08:00:00'), (4, 2, 'Delta', 40.0, '2024-03-10 09:00:00'),"
                        + " (5, NULL, 'Epsilon', 50.0, '2024-03-31 23:00:00')");
        Map<String, Object> details = new LinkedHashMap<>();
        switch (engine) {
            case "h2", "sqlite", "duckdb" -> {
                Path file = Files.createTempDirectory("contract-" + engine).resolve("contract");
                String url = switch (engine) {
                    case "h2" -> "jdbc:h2:file:" + file;
                    case "sqlite" -> "jdbc:sqlite:" + file;
                    default -> "jdbc:duckdb:" + file;
                };
                execute(DriverManager.getConnection(url), ddl);
                details.put("db", file.toString());
            }
            case "postgres" -> {
                String database = PostgresTargets.create("contract");
                execute(PostgresTargets.connect(database), ddl);
                details.putAll(PostgresTargets.details(database));
            }
            case "mysql" -> {
                MariaDbServer mariadb = MariaDbServer.get();
                String database = mysqlDatabase();
                mariadb.createDatabase(database);
                execute(mariadb.connect(database), ddl);
                details.put("host", "127.0.0.1");
                details.put("port", mariadb.port());
                details.put("dbname", database);
                details.put("user", "root");
            }
            default -> throw new AssertionError("The contract does not know how to create a " + engine + " database yet");
        }
        return details;
    }

    private static void execute(Connection connection, List<String> statements) throws SQLException {
        try (connection; Statement s = connection.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private static List<List<Object>> rows(Connection connection, String sql, List<Object> params) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            List<List<Object>> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= columns; i++) {
                        row.add(rs.getObject(i));
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    /**
     * Rows as engines agree on them: numbers to six decimals, dates and times as their day ({@code 2024-01-01}) —
     * engines answer a month's start as a timestamp, a date or (SQLite) text.
     */
    private static List<List<String>> normalized(List<List<Object>> rows) {
        Function<Object, String> value = v -> {
            if (v instanceof Number n) {
                return new BigDecimal(n.toString()).setScale(6, RoundingMode.HALF_UP).toPlainString();
            }
            if (v instanceof java.util.Date || v instanceof TemporalAccessor) {
                return v.toString().substring(0, 10);
            }
            String text = String.valueOf(v);
            return text.matches("\\d{4}-\\d{2}-\\d{2}.*") ? text.substring(0, 10) : text;
        };
        return rows.stream().map(r -> r.stream().map(value).toList()).toList();
    }

    private static List<Object> row(Object... values) {
        return List.of(values);
    }

    @SafeVarargs
    private static List<List<Object>> rows(List<Object>... rows) {
        return List.of(rows);
    }

    /**
     * The contract's two tables as the engine describes them (JDBC metadata), typed by the driver's own mapping, with
     * ids in order; {@code ITEMS} and {@code ITEMS.PRICE} in a case's MBQL become the table's id and the field's reference.
     */
    private static final class ContractMetadata implements MbqlMetadata {
        private final Map<Long, Table> tables = new LinkedHashMap<>();
        private final Map<Long, Field> fields = new LinkedHashMap<>();
        private final Map<String, Long> ids = new LinkedHashMap<>();

        ContractMetadata(Connection connection, Driver driver) throws SQLException {
            DatabaseMetaData meta = connection.getMetaData();
            long tableId = 1;
            long fieldId = 100;
            for (String name : List.of("ITEMS", "CATEGORIES")) {
                Table table = null;
                try (ResultSet rs = meta.getTables(connection.getCatalog(), null, "%", null)) {
                    while (rs.next() && table == null) {
                        String schema = rs.getString("TABLE_SCHEM");
                        if (rs.getString("TABLE_NAME").equalsIgnoreCase(name) && (schema == null || !driver.systemSchemas().contains(schema))) {
                            table = new Table();
                            table.id = tableId++;
                            table.dbId = 1L;
                            table.schemaName = schema;
                            table.name = rs.getString("TABLE_NAME");
                            table.displayName = name;
                        }
                    }
                }
                assertTrue(table != null, driver.engine() + " has no table " + name);
                tables.put(table.id, table);
                ids.put(name, table.id);
                try (ResultSet rs = meta.getColumns(connection.getCatalog(), table.schemaName, table.name, "%")) {
                    while (rs.next()) {
                        Field field = new Field();
                        field.id = fieldId++;
                        field.tableId = table.id;
                        field.name = rs.getString("COLUMN_NAME");
                        field.displayName = field.name;
                        field.databaseType = rs.getString("TYPE_NAME");
                        field.baseType = driver.baseType(rs.getInt("DATA_TYPE"), field.databaseType);
                        field.effectiveType = field.baseType;
                        field.position = rs.getInt("ORDINAL_POSITION");
                        fields.put(field.id, field);
                        ids.put(name + "." + field.name.toUpperCase(Locale.ROOT), field.id);
                    }
                }
            }
        }

        /** The case's MBQL with table and field names replaced by ids ({@code ITEMS.PRICE} → {@code ["field", 103, null]}). */
        Map<String, Object> mbql(String template) throws Exception {
            String json = template.replace('\'', '"');
            for (Map.Entry<String, Long> id : ids.entrySet().stream().sorted((a, b) -> b.getKey().length() - a.getKey().length()).toList()) {
                String replacement = id.getKey().contains(".") ? "[\"field\", " + id.getValue() + ", null]" : String.valueOf(id.getValue());
                json = json.replace("[\"field\", " + id.getKey() + ",", "[\"field\", " + id.getValue() + ",")
                        .replaceAll("(?<![\\w.])" + java.util.regex.Pattern.quote(id.getKey()) + "(?![\\w.])", replacement);
            }
            return JSON.readValue(json, new TypeReference<>() { });
        }

        @Override
        public Table table(long id) {
            return tables.get(id);
        }

        @Override
        public Field field(long id) {
            return fields.get(id);
        }

        @Override
        public List<Field> fields(long tableId) {
            return fields.values().stream().filter(f -> f.tableId == tableId).toList();
        }

        @Override
        public double[] numberRange(Field field) {
            return null;
        }
    }
}
