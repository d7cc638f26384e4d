package io.quarry.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SampleDatabaseTest {
    private static final Map<String, Integer> ROW_COUNTS = new LinkedHashMap<>();

    static {
        ROW_COUNTS.put("PRODUCTS", 200);
        ROW_COUNTS.put("PEOPLE", 2_500);
        ROW_COUNTS.put("ORDERS", 18_760);
        ROW_COUNTS.put("REVIEWS", 1_112);
        ROW_COUNTS.put("ACCOUNTS", 2_500);
        ROW_COUNTS.put("ANALYTIC_EVENTS", 25_000);
        ROW_COUNTS.put("FEEDBACK", 800);
        ROW_COUNTS.put("INVOICES", 6_000);
    }

    @TempDir
    static Path shared;

    private static Path database;
    private static Connection connection;
    private static Map<String, String> checksums;

    @BeforeAll
    static void generateOnce() throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuStarted = threads.getCurrentThreadCpuTime();
        long started = System.nanoTime();
        database = SampleDatabase.ensure(shared);
        System.out.printf("Sample database generated in %d ms wall, %d ms CPU of this thread (%d bytes)%n",
                (System.nanoTime() - started) / 1_000_000, (threads.getCurrentThreadCpuTime() - cpuStarted) / 1_000_000,
                Files.size(shared.resolve(SampleDatabase.FILE_NAME)));
        connection = SampleDatabase.connect(database);
        checksums = checksums(connection);
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    @Test
    void ensureReturnsTheDatabasePathWithoutSuffix() {
        assertEquals(shared.toAbsolutePath().normalize().resolve("sample-database"), database);
        assertTrue(Files.isRegularFile(shared.resolve("sample-database.mv.db")));
        assertEquals("jdbc:h2:file:" + database + ";ACCESS_MODE_DATA=r;IFEXISTS=TRUE", SampleDatabase.jdbcUrl(database));
    }

    @Test
    void everyTableHasItsExactRowCount() throws SQLException {
        assertEquals(new TreeSet<>(ROW_COUNTS.keySet()), new TreeSet<>(tableNames()));
        for (Map.Entry<String, Integer> entry : ROW_COUNTS.entrySet()) {
            assertEquals(entry.getValue(), count("SELECT COUNT(*) FROM " + entry.getKey()), entry.getKey());
            assertEquals(entry.getValue(), count("SELECT COUNT(DISTINCT ID) FROM " + entry.getKey()), entry.getKey());
            assertEquals(1, count("SELECT MIN(ID) FROM " + entry.getKey()), entry.getKey());
            assertEquals(entry.getValue(), count("SELECT MAX(ID) FROM " + entry.getKey()), entry.getKey());
        }
    }

    @Test
    void columnsHaveTheDocumentedNamesAndTypes() throws SQLException {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("PRODUCTS", "ID BIGINT, EAN CHARACTER VARYING, TITLE CHARACTER VARYING, CATEGORY CHARACTER VARYING, "
                + "VENDOR CHARACTER VARYING, PRICE DOUBLE PRECISION, RATING DOUBLE PRECISION, CREATED_AT TIMESTAMP");
        expected.put("PEOPLE", "ID BIGINT, ADDRESS CHARACTER VARYING, EMAIL CHARACTER VARYING, "
                + "PASSWORD CHARACTER VARYING, NAME CHARACTER VARYING, CITY CHARACTER VARYING, "
                + "LONGITUDE DOUBLE PRECISION, STATE CHARACTER VARYING, SOURCE CHARACTER VARYING, BIRTH_DATE DATE, "
                + "ZIP CHARACTER VARYING, LATITUDE DOUBLE PRECISION, CREATED_AT TIMESTAMP");
        expected.put("ORDERS", "ID BIGINT, USER_ID INTEGER, PRODUCT_ID INTEGER, SUBTOTAL DOUBLE PRECISION, "
                + "TAX DOUBLE PRECISION, TOTAL DOUBLE PRECISION, DISCOUNT DOUBLE PRECISION, CREATED_AT TIMESTAMP, "
                + "QUANTITY INTEGER");
        expected.put("REVIEWS", "ID BIGINT, PRODUCT_ID INTEGER, REVIEWER CHARACTER VARYING, RATING INTEGER, "
                + "BODY CHARACTER VARYING, CREATED_AT TIMESTAMP");
        expected.put("ACCOUNTS", "ID BIGINT, EMAIL CHARACTER VARYING, FIRST_NAME CHARACTER VARYING, "
                + "LAST_NAME CHARACTER VARYING, PLAN CHARACTER VARYING, SOURCE CHARACTER VARYING, SEATS INTEGER, "
                + "CREATED_AT TIMESTAMP, TRIAL_ENDS_AT TIMESTAMP, CANCELED_AT TIMESTAMP, TRIAL_CONVERTED BOOLEAN, "
                + "ACTIVE_SUBSCRIPTION BOOLEAN, LEGACY_PLAN BOOLEAN, LATITUDE DOUBLE PRECISION, "
                + "LONGITUDE DOUBLE PRECISION, COUNTRY CHARACTER VARYING");
        expected.put("ANALYTIC_EVENTS", "ID BIGINT, ACCOUNT_ID BIGINT, EVENT CHARACTER VARYING, TIMESTAMP TIMESTAMP, "
                + "PAGE_URL CHARACTER VARYING, BUTTON_LABEL CHARACTER VARYING");
        expected.put("FEEDBACK", "ID BIGINT, ACCOUNT_ID BIGINT, EMAIL CHARACTER VARYING, DATE_RECEIVED TIMESTAMP, "
                + "RATING INTEGER, RATING_MAPPED CHARACTER VARYING, BODY CHARACTER VARYING");
        expected.put("INVOICES", "ID BIGINT, ACCOUNT_ID BIGINT, PAYMENT DOUBLE PRECISION, EXPECTED_INVOICE BOOLEAN, "
                + "PLAN CHARACTER VARYING, DATE_RECEIVED DATE");
        DatabaseMetaData metaData = connection.getMetaData();
        for (Map.Entry<String, String> table : expected.entrySet()) {
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = metaData.getColumns(null, "PUBLIC", table.getKey(), null)) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME") + ' ' + rs.getString("TYPE_NAME"));
                    String remarks = rs.getString("REMARKS");
                    assertTrue(remarks != null && !remarks.isBlank(), table.getKey() + '.' + rs.getString("COLUMN_NAME"));
                }
            }
            assertEquals(table.getValue(), String.join(", ", columns), table.getKey());
        }
        try (ResultSet rs = metaData.getColumns(null, "PUBLIC", "PEOPLE", "NAME")) {
            assertTrue(rs.next());
            assertEquals("The name of the user who owns an account", rs.getString("REMARKS"));
            assertEquals(Types.VARCHAR, rs.getInt("DATA_TYPE"));
        }
        try (ResultSet rs = metaData.getTables(null, "PUBLIC", null, null)) {
            int tables = 0;
            while (rs.next()) {
                tables++;
                String remarks = rs.getString("REMARKS");
                assertTrue(remarks != null && !remarks.isBlank(), rs.getString("TABLE_NAME"));
            }
            assertEquals(8, tables);
        }
    }

    @Test
    void metadataReportsPrimaryAndForeignKeys() throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        for (String table : ROW_COUNTS.keySet()) {
            try (ResultSet rs = metaData.getPrimaryKeys(null, "PUBLIC", table)) {
                assertTrue(rs.next(), table);
                assertEquals("ID", rs.getString("COLUMN_NAME"), table);
                assertFalse(rs.next(), table);
            }
        }
        Map<String, Set<String>> expected = Map.of(
                "ORDERS", Set.of("USER_ID->PEOPLE.ID", "PRODUCT_ID->PRODUCTS.ID"),
                "REVIEWS", Set.of("PRODUCT_ID->PRODUCTS.ID"),
                "ANALYTIC_EVENTS", Set.of("ACCOUNT_ID->ACCOUNTS.ID"),
                "FEEDBACK", Set.of("ACCOUNT_ID->ACCOUNTS.ID"),
                "INVOICES", Set.of("ACCOUNT_ID->ACCOUNTS.ID"));
        for (String table : ROW_COUNTS.keySet()) {
            Set<String> keys = new TreeSet<>();
            try (ResultSet rs = metaData.getImportedKeys(null, "PUBLIC", table)) {
                while (rs.next()) {
                    keys.add(rs.getString("FKCOLUMN_NAME") + "->" + rs.getString("PKTABLE_NAME") + '.'
                            + rs.getString("PKCOLUMN_NAME"));
                }
            }
            assertEquals(new TreeSet<>(expected.getOrDefault(table, Set.of())), keys, table);
        }
    }

    @Test
    void noRowPointsAtAMissingParent() throws SQLException {
        assertEquals(0, count("SELECT COUNT(*) FROM ORDERS o LEFT JOIN PEOPLE p ON p.ID = o.USER_ID WHERE p.ID IS NULL"));
        assertEquals(0, count("SELECT COUNT(*) FROM ORDERS o LEFT JOIN PRODUCTS p ON p.ID = o.PRODUCT_ID WHERE p.ID IS NULL"));
        assertEquals(0, count("SELECT COUNT(*) FROM REVIEWS r LEFT JOIN PRODUCTS p ON p.ID = r.PRODUCT_ID WHERE p.ID IS NULL"));
        for (String table : List.of("ANALYTIC_EVENTS", "FEEDBACK", "INVOICES")) {
            assertEquals(0, count("SELECT COUNT(*) FROM " + table + " t LEFT JOIN ACCOUNTS a ON a.ID = t.ACCOUNT_ID "
                    + "WHERE a.ID IS NULL"), table);
        }
        for (String column : List.of("o.USER_ID", "o.PRODUCT_ID")) {
            assertEquals(0, count("SELECT COUNT(*) FROM ORDERS o WHERE " + column + " IS NULL"), column);
        }
        // Every product is ordered, not every person orders (like Metabase's data).
        assertEquals(200, count("SELECT COUNT(DISTINCT PRODUCT_ID) FROM ORDERS"));
        int buyers = count("SELECT COUNT(DISTINCT USER_ID) FROM ORDERS");
        assertTrue(buyers > 1_200 && buyers < 2_500, "buyers " + buyers);
    }

    @Test
    void generatingAgainElsewhereGivesIdenticalDataWhateverTheTimeZoneAndLocale(@TempDir Path other) throws Exception {
        TimeZone zone = TimeZone.getDefault();
        Locale locale = Locale.getDefault();
        Path second;
        try {
            // Far from UTC, and a locale whose lower-casing of "I" differs: neither may leak into the data.
            TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Kiritimati"));
            Locale.setDefault(Locale.forLanguageTag("tr-TR"));
            second = SampleDatabase.ensure(other);
        } finally {
            TimeZone.setDefault(zone);
            Locale.setDefault(locale);
        }
        try (Connection again = SampleDatabase.connect(second)) {
            assertEquals(checksums, checksums(again));
        }
        assertEquals(ROW_COUNTS.keySet(), checksums.keySet());
        assertEquals(8, Set.copyOf(checksums.values()).size());
    }

    /**
     * The data is part of Quarry's contract (examples, docs and tests quote its values), so it may only change on
     * purpose: after a deliberate change to the generator, replace these with the printed checksums.
     */
    @Test
    void theDataMatchesItsRecordedChecksums() {
        Map<String, String> recorded = new LinkedHashMap<>();
        recorded.put("PRODUCTS", "d4bbbd78faee62fce91eb290c5e8b2a81f6a931996a1a556fb08b55a0144e5bd");
        recorded.put("PEOPLE", "6028d16da6ff881fbcb220c223c8555c27978e8062d573840dacc40b4eeebd41");
        recorded.put("ORDERS", "37c16f1738f25a9136af05644afefaf9776ba93e320949effc02312b07a59e17");
        recorded.put("REVIEWS", "86bb0b3527a43875edd6fc591fa8b18539938e003b4511ecc5f7e14bbb5d32b4");
        recorded.put("ACCOUNTS", "09274e5237427d2d75e9698d1f1195742662fdb0558e2c28f2775a1a81782adc");
        recorded.put("ANALYTIC_EVENTS", "08d17a87496fc56f8298d3ada992d816af0057c9926258cadc1e208ba49395bc");
        recorded.put("FEEDBACK", "18326439e2d9e0c69c924449fc7211e523151b8c7b39c5f5424d31dffc685a57");
        recorded.put("INVOICES", "0632e063dd7f1c29ef1dedefb433da65931fb8644f1002ab20613702a85d514a");
        assertEquals(recorded, checksums, "current checksums: " + checksums);
    }

    @Test
    void aDifferentSeedGivesDifferentData() {
        Object[] firstOrder = SampleDataGenerator.generate(SampleDatabase.SEED).get(SampleSchema.ORDERS).get(1);
        Object[] otherOrder = SampleDataGenerator.generate(SampleDatabase.SEED + 1).get(SampleSchema.ORDERS).get(1);
        assertNotEquals(Arrays.asList(firstOrder), Arrays.asList(otherOrder));
    }

    @Test
    void orderOneHasQuantityTwo() throws SQLException {
        assertEquals(2, count("SELECT QUANTITY FROM ORDERS WHERE ID = 1"));
    }

    @Test
    void ordersAddUp() throws SQLException {
        int withDiscount = count("SELECT COUNT(*) FROM ORDERS WHERE DISCOUNT IS NOT NULL");
        double nullShare = 1.0 - withDiscount / 18_760.0;
        assertTrue(nullShare >= 0.85 && nullShare <= 0.95, "DISCOUNT null share " + nullShare);
        assertEquals(0, count("SELECT COUNT(*) FROM ORDERS WHERE QUANTITY < 1 OR QUANTITY > 100"));
        assertTrue(count("SELECT COUNT(*) FROM ORDERS WHERE QUANTITY <= 5") > 18_760 * 0.7, "quantities skew small");
        assertTrue(count("SELECT COUNT(*) FROM ORDERS WHERE QUANTITY > 20") > 0, "some bulk orders");
        assertEquals(0, count("SELECT COUNT(*) FROM ORDERS o JOIN PRODUCTS p ON p.ID = o.PRODUCT_ID "
                + "WHERE ABS(o.SUBTOTAL - p.PRICE * o.QUANTITY) > 0.006"));
        assertEquals(0, count("SELECT COUNT(*) FROM ORDERS "
                + "WHERE ABS(TOTAL - (SUBTOTAL + TAX - COALESCE(DISCOUNT, 0))) > 0.011"));
        assertEquals(0, count("SELECT COUNT(*) FROM ORDERS WHERE TAX < 0 OR TAX > SUBTOTAL * 0.08 + 0.01"));
        assertEquals(0, count("SELECT COUNT(*) FROM ORDERS WHERE DISCOUNT <= 0 OR DISCOUNT >= SUBTOTAL"));
        // Tax follows the buyer's state: one rate per state, none in Oregon.
        assertEquals(0, count("SELECT COUNT(*) FROM ORDERS o JOIN PEOPLE p ON p.ID = o.USER_ID "
                + "WHERE p.STATE = 'OR' AND o.TAX <> 0"));
        assertTrue(count("SELECT COUNT(*) FROM ORDERS o JOIN PEOPLE p ON p.ID = o.USER_ID "
                + "WHERE p.STATE = 'CA' AND o.TAX > 0") > 0);
    }

    @Test
    void categoricalColumnsUseExactlyTheDocumentedValues() throws SQLException {
        assertEquals(List.of("Doohickey", "Gadget", "Gizmo", "Widget"),
                strings("SELECT DISTINCT CATEGORY FROM PRODUCTS ORDER BY 1"));
        assertEquals(List.of("Affiliate", "Facebook", "Google", "Organic", "Twitter"),
                strings("SELECT DISTINCT SOURCE FROM PEOPLE ORDER BY 1"));
        assertEquals(List.of("Basic", "Business", "Premium"), strings("SELECT DISTINCT PLAN FROM ACCOUNTS ORDER BY 1"));
        assertEquals(List.of("Basic", "Business", "Premium"), strings("SELECT DISTINCT PLAN FROM INVOICES ORDER BY 1"));
        assertEquals(List.of("Clicked Button", "Submitted Form", "Viewed Page"),
                strings("SELECT DISTINCT EVENT FROM ANALYTIC_EVENTS ORDER BY 1"));
        assertEquals(0, count("SELECT COUNT(*) FROM ANALYTIC_EVENTS WHERE (EVENT = 'Clicked Button') "
                + "<> (BUTTON_LABEL IS NOT NULL)"));
        assertEquals(0, count("SELECT COUNT(*) FROM ANALYTIC_EVENTS WHERE PAGE_URL NOT LIKE 'https://www.example.com/%'"));
        assertEquals(5, count("SELECT COUNT(DISTINCT RATING || RATING_MAPPED) FROM FEEDBACK"));
        assertEquals(0, count("SELECT COUNT(*) FROM FEEDBACK f JOIN ACCOUNTS a ON a.ID = f.ACCOUNT_ID "
                + "WHERE f.EMAIL <> a.EMAIL"));
    }

    @Test
    void productsLookReal() throws SQLException {
        assertEquals(200, count("SELECT COUNT(DISTINCT TITLE) FROM PRODUCTS"));
        assertEquals(200, count("SELECT COUNT(DISTINCT EAN) FROM PRODUCTS"));
        assertEquals(0, count("SELECT COUNT(*) FROM PRODUCTS WHERE NOT REGEXP_LIKE(TITLE, '^[A-Z][A-Za-z-]+( [A-Z][a-z]+){2}$', 'c')"));
        assertEquals(0, count("SELECT COUNT(*) FROM PRODUCTS WHERE PRICE < 15 OR PRICE > 100"));
        assertEquals(0, count("SELECT COUNT(*) FROM PRODUCTS WHERE RATING < 0 OR RATING > 5 "
                + "OR ABS(RATING * 10 - ROUND(RATING * 10)) > 1e-9"));
        assertTrue(count("SELECT COUNT(DISTINCT VENDOR) FROM PRODUCTS") > 30);
        for (String ean : strings("SELECT EAN FROM PRODUCTS")) {
            assertTrue(ean.matches("\\d{13}"), ean);
            assertEquals(ean, SampleDataGenerator.ean(ean.substring(0, 12)), "check digit of " + ean);
        }
    }

    @Test
    void peopleLookReal() throws SQLException {
        assertEquals(2_500, count("SELECT COUNT(DISTINCT EMAIL) FROM PEOPLE"));
        assertEquals(0, count("SELECT COUNT(*) FROM PEOPLE WHERE NOT REGEXP_LIKE(EMAIL, '^[a-z]+\\.[a-z]+[0-9]*@[a-z]+\\.com$', 'c')"));
        assertEquals(0, count("SELECT COUNT(*) FROM PEOPLE WHERE POSITION(LOWER(SUBSTRING(NAME, 1, POSITION(' ' IN NAME) - 1)) IN EMAIL) <> 1"));
        assertEquals(0, count("SELECT COUNT(*) FROM PEOPLE WHERE NOT REGEXP_LIKE(ZIP, '^[0-9]{5}$')"));
        assertEquals(0, count("SELECT COUNT(*) FROM PEOPLE WHERE NOT REGEXP_LIKE(STATE, '^[A-Z]{2}$', 'c')"));
        assertTrue(count("SELECT COUNT(DISTINCT STATE) FROM PEOPLE") >= 45);
        assertEquals(0, count("SELECT COUNT(*) FROM PEOPLE WHERE NOT REGEXP_LIKE(PASSWORD, "
                + "'^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$')"));
        assertEquals(0, count("SELECT COUNT(*) FROM PEOPLE WHERE NOT REGEXP_LIKE(ADDRESS, '^[0-9]{1,4} [A-Z][a-z]+ [A-Z][a-z]+$', 'c')"));
        assertEquals(0, count("SELECT COUNT(*) FROM PEOPLE WHERE LATITUDE < 18 OR LATITUDE > 65 "
                + "OR LONGITUDE < -160 OR LONGITUDE > -66"));
        // Ages at sign-up between 18 and 80.
        assertEquals(0, count("SELECT COUNT(*) FROM PEOPLE WHERE BIRTH_DATE > DATEADD(YEAR, -18, CAST(CREATED_AT AS DATE)) "
                + "OR BIRTH_DATE <= DATEADD(YEAR, -81, CAST(CREATED_AT AS DATE))"));
        assertEquals(0, count("SELECT COUNT(*) FROM PEOPLE WHERE NAME IS NULL OR CITY IS NULL OR CREATED_AT IS NULL"));
    }

    @Test
    void datesFallInSaneRanges() throws SQLException {
        assertEquals(List.of("2022-05", "2026-04"),
                strings("SELECT FORMATDATETIME(MIN(CREATED_AT), 'yyyy-MM') FROM ORDERS "
                        + "UNION ALL SELECT FORMATDATETIME(MAX(CREATED_AT), 'yyyy-MM') FROM ORDERS"));
        assertEquals(0, count("SELECT COUNT(*) FROM ORDERS o JOIN PEOPLE p ON p.ID = o.USER_ID "
                + "WHERE o.CREATED_AT < p.CREATED_AT"));
        assertEquals(0, count("SELECT COUNT(*) FROM ORDERS o JOIN PRODUCTS p ON p.ID = o.PRODUCT_ID "
                + "WHERE o.CREATED_AT < p.CREATED_AT"));
        assertEquals(0, count("SELECT COUNT(*) FROM REVIEWS r JOIN PRODUCTS p ON p.ID = r.PRODUCT_ID "
                + "WHERE r.CREATED_AT <= p.CREATED_AT"));
        String end = "TIMESTAMP '2026-05-01 00:00:00'";
        for (String column : List.of("ORDERS.CREATED_AT", "REVIEWS.CREATED_AT", "PEOPLE.CREATED_AT",
                "PRODUCTS.CREATED_AT", "ACCOUNTS.CREATED_AT", "ANALYTIC_EVENTS.TIMESTAMP", "FEEDBACK.DATE_RECEIVED")) {
            String table = column.substring(0, column.indexOf('.'));
            assertEquals(0, count("SELECT COUNT(*) FROM " + table + " WHERE " + column + " >= " + end
                    + " OR " + column + " < TIMESTAMP '2022-04-01 00:00:00' OR " + column + " IS NULL"), column);
        }
        assertEquals(0, count("SELECT COUNT(*) FROM INVOICES WHERE DATE_RECEIVED > DATE '2026-04-30'"));
        assertEquals(0, count("SELECT COUNT(*) FROM ACCOUNTS WHERE TRIAL_ENDS_AT <> DATEADD(DAY, 14, CREATED_AT)"));
        assertEquals(0, count("SELECT COUNT(*) FROM ACCOUNTS WHERE CANCELED_AT < TRIAL_ENDS_AT"));
        assertEquals(0, count("SELECT COUNT(*) FROM ACCOUNTS WHERE ACTIVE_SUBSCRIPTION "
                + "<> (TRIAL_CONVERTED AND CANCELED_AT IS NULL)"));
        assertEquals(0, count("SELECT COUNT(*) FROM ANALYTIC_EVENTS e JOIN ACCOUNTS a ON a.ID = e.ACCOUNT_ID "
                + "WHERE e.TIMESTAMP < a.CREATED_AT OR e.TIMESTAMP > COALESCE(a.CANCELED_AT, " + end + ")"));
        assertEquals(0, count("SELECT COUNT(*) FROM INVOICES i JOIN ACCOUNTS a ON a.ID = i.ACCOUNT_ID "
                + "WHERE NOT a.TRIAL_CONVERTED OR i.DATE_RECEIVED < CAST(a.TRIAL_ENDS_AT AS DATE) OR i.PLAN <> a.PLAN"));
        // Event and invoice ids follow time.
        assertEquals(0, count("SELECT COUNT(*) FROM ANALYTIC_EVENTS a JOIN ANALYTIC_EVENTS b ON b.ID = a.ID + 1 "
                + "WHERE b.TIMESTAMP < a.TIMESTAMP"));
        int span = count("SELECT DATEDIFF(DAY, MIN(CREATED_AT), MAX(CREATED_AT)) FROM ORDERS");
        assertTrue(span > 3 * 365, "orders span " + span + " days");
    }

    @Test
    void reviewsAndAccountsLookReal() throws SQLException {
        assertEquals(List.of("1", "2", "3", "4", "5"), strings("SELECT DISTINCT RATING FROM REVIEWS ORDER BY 1"));
        assertEquals(0, count("SELECT COUNT(*) FROM REVIEWS WHERE LENGTH(BODY) < 30 OR REVIEWER IS NULL"));
        assertEquals(0, count("SELECT COUNT(*) FROM REVIEWS WHERE BODY LIKE '%{%'"));
        // A product's rating is the average of its reviews (0 without any).
        assertEquals(0, count("SELECT COUNT(*) FROM PRODUCTS p WHERE ABS(p.RATING - COALESCE("
                + "(SELECT ROUND(AVG(CAST(r.RATING AS DOUBLE PRECISION)), 1) FROM REVIEWS r WHERE r.PRODUCT_ID = p.ID), 0)) > 0.051"));
        assertEquals(2_500, count("SELECT COUNT(DISTINCT EMAIL) FROM ACCOUNTS"));
        assertEquals(0, count("SELECT COUNT(*) FROM ACCOUNTS WHERE SEATS < 1 OR SEATS > 500"));
        assertEquals(0, count("SELECT COUNT(*) FROM ACCOUNTS WHERE NOT REGEXP_LIKE(COUNTRY, '^[A-Z]{2}$', 'c')"));
        int converted = count("SELECT COUNT(*) FROM ACCOUNTS WHERE TRIAL_CONVERTED");
        int active = count("SELECT COUNT(*) FROM ACCOUNTS WHERE ACTIVE_SUBSCRIPTION");
        assertTrue(converted > 1_500 && converted < 2_000, "converted " + converted);
        assertTrue(active > 1_000 && active < converted, "active " + active);
        assertTrue(count("SELECT COUNT(*) FROM ACCOUNTS WHERE LEGACY_PLAN") > 100);
        assertEquals(0, count("SELECT COUNT(*) FROM INVOICES WHERE PAYMENT <= 0"));
        assertTrue(count("SELECT COUNT(*) FROM INVOICES WHERE NOT EXPECTED_INVOICE") > 0);
    }

    @Test
    void theReadOnlyUrlRefusesWritesAndAdminFunctions() throws SQLException {
        try (Statement statement = connection.createStatement()) {
            SQLException insert = assertThrows(SQLException.class,
                    () -> statement.executeUpdate("INSERT INTO PRODUCTS (ID, TITLE) VALUES (999, 'x')"));
            assertEquals(90097, insert.getErrorCode(), insert.getMessage()); // The database is read only
            assertThrows(SQLException.class, () -> statement.executeUpdate("UPDATE ORDERS SET QUANTITY = 3 WHERE ID = 1"));
            assertThrows(SQLException.class, () -> statement.executeUpdate("DELETE FROM REVIEWS"));
            assertThrows(SQLException.class, () -> statement.execute("CREATE TABLE X (A INT)"));
            assertThrows(SQLException.class, () -> statement.execute("DROP TABLE REVIEWS"));
            SQLException admin = assertThrows(SQLException.class,
                    () -> statement.executeQuery("SELECT FILE_READ('" + database + ".mv.db')"));
            assertEquals(90040, admin.getErrorCode(), admin.getMessage()); // Admin rights are required
            assertThrows(SQLException.class,
                    () -> statement.execute("CREATE ALIAS GETPROP FOR 'java.lang.System.getProperty'"));
        }
        assertTrue(connection.isReadOnly());
        assertEquals(200, count("SELECT COUNT(*) FROM PRODUCTS"));
        assertEquals(2, count("SELECT QUANTITY FROM ORDERS WHERE ID = 1"));
    }

    @Test
    void theReadOnlyUrlNeverCreatesAMissingDatabase(@TempDir Path empty) {
        assertThrows(SQLException.class, () -> SampleDatabase.connect(empty.resolve(SampleDatabase.NAME)).close());
        assertEquals(List.of(), list(empty));
    }

    @Test
    @Timeout(180)
    void concurrentCallersInThreadsAndAnotherProcessGetOneCompleteDatabase(@TempDir Path dir) throws Exception {
        // What a process killed half-way leaves behind: a partial file in its private build directory. It must
        // never be taken for the database, and the next build removes it.
        Path abandoned = Files.createDirectory(dir.resolve(".sample-database-build-123"));
        Files.write(abandoned.resolve("sample-database.mv.db"), "half a database".getBytes(StandardCharsets.UTF_8));

        Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), SampleEnsureProcess.class.getName(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        BufferedReader otherOutput = new BufferedReader(new InputStreamReader(other.getInputStream(),
                StandardCharsets.UTF_8));
        try {
            assertEquals("READY", awaitLine(otherOutput, "READY"));
            int buildsBefore = SampleDatabase.BUILDS.get();
            int callers = 3;
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(callers);
            try {
                List<Future<Path>> results = new ArrayList<>();
                for (int i = 0; i < callers; i++) {
                    results.add(pool.submit(() -> {
                        start.await();
                        return SampleDatabase.ensure(dir);
                    }));
                }
                other.getOutputStream().write('\n');
                other.getOutputStream().flush();
                start.countDown();
                for (Future<Path> result : results) {
                    assertEquals(dir.toAbsolutePath().normalize().resolve("sample-database"), result.get());
                }
            } finally {
                pool.shutdownNow();
            }
            String otherBuilds = awaitLine(otherOutput, "BUILDS=");
            assertTrue(other.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, other.exitValue());
            int builds = SampleDatabase.BUILDS.get() - buildsBefore + Integer.parseInt(otherBuilds.substring(7));
            assertEquals(1, builds, "built exactly once across both processes");
        } finally {
            other.destroyForcibly();
        }
        assertEquals(List.of("sample-database.lock", "sample-database.mv.db"), list(dir));
        try (Connection built = SampleDatabase.connect(dir.resolve("sample-database"))) {
            assertEquals(checksums, checksums(built));
        }
    }

    @Test
    void anExistingDatabaseIsReusedAsIs() throws Exception {
        Path file = shared.resolve(SampleDatabase.FILE_NAME);
        BasicFileAttributes before = Files.readAttributes(file, BasicFileAttributes.class);
        int buildsBefore = SampleDatabase.BUILDS.get();
        assertEquals(database, SampleDatabase.ensure(shared));
        BasicFileAttributes after = Files.readAttributes(file, BasicFileAttributes.class);
        assertEquals(buildsBefore, SampleDatabase.BUILDS.get());
        assertEquals(before.fileKey(), after.fileKey());
        assertEquals(before.lastModifiedTime(), after.lastModifiedTime());
        assertEquals(before.size(), after.size());
    }

    @Test
    void rejectsPathsThatWouldInjectUrlSettings(@TempDir Path dir) {
        assertThrows(IllegalArgumentException.class, () -> SampleDatabase.ensure(dir.resolve("x;INIT=RUNSCRIPT")));
        assertThrows(IllegalArgumentException.class, () -> SampleDatabase.jdbcUrl(dir.resolve("db;ACCESS_MODE_DATA=rw")));
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** The first line of the other process's output that starts with {@code prefix} (its log lines are skipped). */
    private static String awaitLine(BufferedReader output, String prefix) throws IOException {
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("The other process ended without printing " + prefix);
    }

    private static List<String> tableNames() throws SQLException {
        List<String> names = new ArrayList<>();
        try (ResultSet rs = connection.getMetaData().getTables(null, "PUBLIC", null, null)) {
            while (rs.next()) {
                names.add(rs.getString("TABLE_NAME"));
            }
        }
        return names;
    }

    /** SHA-256 over every value of every row of every table, in id order. */
    private static Map<String, String> checksums(Connection connection) throws Exception {
        Map<String, String> sums = new LinkedHashMap<>();
        for (String table : ROW_COUNTS.keySet()) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            try (Statement statement = connection.createStatement();
                 ResultSet rs = statement.executeQuery("SELECT * FROM " + table + " ORDER BY ID")) {
                ResultSetMetaData meta = rs.getMetaData();
                while (rs.next()) {
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        String value = rs.getString(i);
                        digest.update((value == null ? "\u0000NULL" : value).getBytes(StandardCharsets.UTF_8));
                        digest.update((byte) 0x1f);
                    }
                    digest.update((byte) 0x1e);
                }
            }
            sums.put(table, HexFormat.of().formatHex(digest.digest()));
        }
        return sums;
    }

    private static int count(String sql) throws SQLException {
        return count(connection, sql);
    }

    private static int count(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getInt(1);
        }
    }

    private static List<String> strings(String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    private static List<String> list(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
