package io.quarry.sync;

import static io.quarry.sync.SyncSupport.awaitSynced;
import static io.quarry.sync.SyncSupport.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.boot.Quarry;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The bundled Sample Database added as an H2 database and synced: Metabase's semantic types and values. */
class SampleDatabaseSyncIT {
    private static TestServer server;
    private static Quarry quarry;
    private static Api admin;
    private static Path sample;
    private static long id;
    private static Map<String, Field> fields;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        quarry = server.quarry();
        Api anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        sample = SampleDatabase.ensure(Files.createTempDirectory("quarry-sample"));
        id = admin.post(200, "database", Map.of("engine", "h2", "name", "Sample Database", "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password",
                        SampleDatabase.PASSWORD))).json().get("id").asLong();
        awaitSynced(quarry, admin, id);
        fields = fields(quarry, id);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Field f(String name) {
        Field field = fields.get(name.toLowerCase(java.util.Locale.ROOT));
        assertTrue(field != null, name);
        return field;
    }

    @Test
    void semanticTypesAreMetabases() {
        Map<String, String> expected = new HashMap<>();
        expected.put("PRODUCTS.ID", "type/PK");
        expected.put("PRODUCTS.TITLE", "type/Title");
        expected.put("PRODUCTS.CATEGORY", "type/Category");
        expected.put("PRODUCTS.VENDOR", "type/Company");
        expected.put("PRODUCTS.RATING", "type/Score");
        expected.put("PRODUCTS.CREATED_AT", "type/CreationTimestamp");
        expected.put("PRODUCTS.PRICE", "type/Price"); // Quarry's addition: Metabase leaves PRICE without a semantic type
        expected.put("PEOPLE.EMAIL", "type/Email");
        expected.put("PEOPLE.NAME", "type/Name");
        expected.put("PEOPLE.CITY", "type/City");
        expected.put("PEOPLE.STATE", "type/State");
        expected.put("PEOPLE.ZIP", "type/ZipCode");
        expected.put("PEOPLE.SOURCE", "type/Source");
        expected.put("PEOPLE.LATITUDE", "type/Latitude");
        expected.put("PEOPLE.LONGITUDE", "type/Longitude");
        expected.put("PEOPLE.CREATED_AT", "type/CreationTimestamp");
        expected.put("PEOPLE.BIRTH_DATE", null);
        expected.put("PEOPLE.ADDRESS", null);
        expected.put("ORDERS.USER_ID", "type/FK");
        expected.put("ORDERS.PRODUCT_ID", "type/FK");
        expected.put("ORDERS.DISCOUNT", "type/Discount");
        expected.put("ORDERS.QUANTITY", "type/Quantity");
        expected.put("ORDERS.CREATED_AT", "type/CreationTimestamp");
        expected.put("ORDERS.TOTAL", null);
        expected.put("REVIEWS.RATING", "type/Score");
        expected.put("REVIEWS.BODY", "type/Description");
        expected.put("REVIEWS.PRODUCT_ID", "type/FK");
        expected.put("ACCOUNTS.CANCELED_AT", "type/CancelationTimestamp");
        expected.put("ACCOUNTS.COUNTRY", "type/Country");
        expected.put("ACCOUNTS.FIRST_NAME", "type/Name");
        expected.put("ANALYTIC_EVENTS.PAGE_URL", "type/URL");
        Map<String, String> actual = new HashMap<>();
        expected.keySet().forEach(k -> actual.put(k, f(k).semanticType));
        assertEquals(expected, actual);
        assertEquals(f("PEOPLE.ID").id, f("ORDERS.USER_ID").fkTargetFieldId);
        assertEquals("type/BigInteger", f("ORDERS.ID").baseType);
        assertEquals(8, quarry.db.with(WarehouseMapper.class, m -> m.listTables(id, true)).size());
    }

    @Test
    void categoriesAreListsWithCachedValuesAndEmailsAreSearched() {
        Field category = f("PRODUCTS.CATEGORY");
        assertEquals("list", category.hasFieldValues);
        JsonNode values = admin.get(200, "field/" + category.id + "/values").json();
        assertEquals("[[\"Doohickey\"],[\"Gadget\"],[\"Gizmo\"],[\"Widget\"]]", values.get("values").toString());
        assertEquals(false, values.get("has_more_values").asBoolean());
        assertEquals("[[\"Affiliate\"],[\"Facebook\"],[\"Google\"],[\"Organic\"],[\"Twitter\"]]",
                admin.get(200, "field/" + f("PEOPLE.SOURCE").id + "/values").json().get("values").toString());
        assertEquals("search", f("PEOPLE.EMAIL").hasFieldValues);
        assertEquals("search", f("PEOPLE.PASSWORD").hasFieldValues);
        assertEquals("none", f("PEOPLE.LATITUDE").hasFieldValues);
        assertEquals("list", f("PEOPLE.STATE").hasFieldValues);
        assertEquals(0, admin.get(200, "field/" + f("PEOPLE.EMAIL").id + "/values").json().get("values").size());

        // a person makes the 2,500 emails a list: the cache keeps the first 1,000 and says there are more
        Field email = f("PEOPLE.EMAIL");
        email.hasFieldValues = "list";
        quarry.db.with(WarehouseMapper.class, m -> m.updateFieldMetadata(email));
        admin.post(200, "field/" + email.id + "/rescan_values", null);
        JsonNode emails = admin.get(200, "field/" + email.id + "/values").json();
        assertEquals(1000, emails.get("values").size());
        assertEquals(true, emails.get("has_more_values").asBoolean());
        String previous = "";
        for (JsonNode pair : emails.get("values")) {
            String value = pair.get(0).asText();
            assertTrue(previous.compareTo(value) < 0, "sorted and distinct: " + value);
            previous = value;
        }
    }

    @Test
    void fingerprintsAgreeWithTheDatabase() throws Exception {
        Map<Long, Table> tables = new HashMap<>();
        quarry.db.with(WarehouseMapper.class, m -> m.listTables(id, true)).forEach(t -> tables.put(t.id, t));
        int compared = 0;
        try (Connection c = SampleDatabase.connect(sample); Statement s = c.createStatement()) {
            for (Field field : fields.values()) {
                if (field.fingerprint == null) {
                    assertEquals("type/PK", field.semanticType, field.name);
                    continue;
                }
                String table = tables.get(field.tableId).name;
                long rows;
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"" + table + "\"")) {
                    rs.next();
                    rows = rs.getLong(1);
                }
                // the sample: the first 10,000 rows of a scan of the whole rows (primary-key order in H2)
                String from = rows <= Analyzer.SAMPLE_ROWS ? "\"" + table + "\""
                        : "(SELECT * FROM \"" + table + "\" LIMIT " + Analyzer.SAMPLE_ROWS + ") AS sample";
                try (ResultSet rs = s.executeQuery("SELECT COUNT(DISTINCT \"" + field.name + "\") FROM " + from)) {
                    rs.next();
                    assertEquals(rs.getLong(1), Fingerprints.global(field.fingerprint, "distinct-count").longValue(),
                            table + "." + field.name);
                    compared++;
                }
            }
        }
        assertTrue(compared > 50, "compared " + compared);
        assertEquals(2500, Fingerprints.global(f("PEOPLE.EMAIL").fingerprint, "distinct-count").intValue());
        assertEquals(200, Fingerprints.global(f("ORDERS.PRODUCT_ID").fingerprint, "distinct-count").intValue());
        assertEquals(4, Fingerprints.global(f("PRODUCTS.CATEGORY").fingerprint, "distinct-count").intValue());
        double discountNils = Fingerprints.global(f("ORDERS.DISCOUNT").fingerprint, "nil%").doubleValue();
        assertTrue(discountNils > 0.8 && discountNils < 0.97, "DISCOUNT is mostly null: " + discountNils);
        Map<String, Object> created = Fingerprints.typed(f("PRODUCTS.CREATED_AT").fingerprint, "type/DateTime");
        try (Connection c = SampleDatabase.connect(sample); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT MIN(CREATED_AT), MAX(CREATED_AT) FROM PRODUCTS")) {
            rs.next();
            assertEquals(rs.getTimestamp(1).toLocalDateTime().toInstant(java.time.ZoneOffset.UTC).toString(), created.get("earliest"));
            assertEquals(rs.getTimestamp(2).toLocalDateTime().toInstant(java.time.ZoneOffset.UTC).toString(), created.get("latest"));
        }
    }
}
