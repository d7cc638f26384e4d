package io.quarry.warehouse;

import static io.quarry.warehouse.BrowseShop.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Browsing a database over HTTP as Metabase clients do: the database list and one database with tables and fields,
 * metadata, schemas, fields, SQL autocomplete, usage, and the Saved Questions virtual database — for anonymous callers,
 * ordinary users and administrators, with hidden, sensitive and inactive metadata left out where Metabase leaves it out.
 */
class DatabaseBrowseIT {
    private static BrowseShop shop;
    private static Api api;
    private static String admin;
    private static String user;
    private static long db;

    @BeforeAll
    static void start() throws Exception {
        shop = BrowseShop.start();
        api = shop.api;
        admin = shop.admin;
        user = shop.user;
        db = shop.dbId;
        api.as(admin).put(200, "table/" + shop.tableId("SECRETS"), map("visibility_type", "hidden"));
        api.as(admin).put(200, "field/" + shop.fieldId("WIDE", "COL_60"), map("visibility_type", "sensitive"));
    }

    @AfterAll
    static void stop() {
        shop.close();
    }

    private static List<String> names(JsonNode array, String key) {
        List<String> result = new ArrayList<>();
        array.forEach(n -> result.add(n.get(key).asText()));
        return result;
    }

    private static List<List<String>> pairs(JsonNode array) {
        List<List<String>> result = new ArrayList<>();
        array.forEach(pair -> result.add(List.of(pair.get(0).asText(), pair.get(1).asText())));
        return result;
    }

    private static void assertUnauthenticated(String path) {
        assertEquals("Unauthenticated", api.get(401, path).body(), path);
    }

    @Test
    void everyEndpointWantsASignedInCaller() {
        for (String path : List.of("database", "database/" + db, "database/" + db + "/metadata", "database/" + db + "/fields",
                "database/" + db + "/idfields", "database/" + db + "/schemas", "database/" + db + "/schema/PUBLIC",
                "database/" + db + "/schema/", "database/" + db + "/syncable_schemas", "database/" + db + "/usage_info",
                "database/" + db + "/autocomplete_suggestions?prefix=c", "database/" + db + "/card_autocomplete_suggestions?query=x",
                "database/-1337/metadata", "database/-1337/schemas", "database/-1337/datasets",
                "database/-1337/schema/Everything%20else", "database/-1337/datasets/Everything%20else")) {
            assertUnauthenticated(path);
        }
    }

    @Test
    void listShowsDatabasesWithTablesOnRequestAndDetailsOnlyToAdmins() {
        JsonNode asUser = api.as(user).get(200, "database").json();
        assertEquals(1, asUser.get("total").asInt());
        JsonNode shopDb = asUser.get("data").get(0);
        assertEquals("Shop", shopDb.get("name").asText());
        assertFalse(shopDb.has("details"), "no details for those who cannot edit the database");
        assertFalse(shopDb.has("tables"));
        assertEquals(DatabaseViews.REDACTED,
                api.as(admin).get(200, "database").json().get("data").get(0).get("details").get("password").asText());

        JsonNode withTables = api.as(user).get(200, "database", "include", "tables").json().get("data").get(0);
        assertEquals(List.of("OLD_ORDERS", "CUSTOMERS", "ORDERS", "WIDE"), names(withTables.get("tables"), "name"),
                "active tables that are not hidden, by schema then display name");
        assertEquals("ARCHIVE", withTables.get("tables").get(0).get("schema").asText());
        assertEquals(1, api.as(user).get(200, "database", "include", "").json().get("total").asInt(), "empty include is none");

        JsonNode bad = api.as(user).get(400, "database", "include", "fields").json();
        assertEquals("include must be either empty or the value 'tables'", bad.get("errors").get("include").asText());
        JsonNode badBool = api.as(user).get(400, "database", "saved", "yes").json();
        assertEquals("nullable value must be a valid boolean string ('true' or 'false').", badBool.get("errors").get("saved").asText());

        assertEquals(0, api.as(user).get(200, "database", "exclude_uneditable_details", "true").json().get("total").asInt(),
                "an ordinary user may edit no database's details");
        assertEquals(1, api.as(admin).get(200, "database", "exclude_uneditable_details", "true").json().get("total").asInt());
        assertEquals(0, api.as(admin).get(200, "database", "include_only_uploadable", "true").json().get("total").asInt(),
                "H2 takes no uploads");
        assertEquals(1, api.as(user).get(200, "database", "include_analytics", "true", "include_editable_data_model", "true")
                .json().get("total").asInt());
        JsonNode saved = api.as(user).get(200, "database", "saved", "true", "include", "tables").json();
        assertEquals(1, saved.get("total").asInt(), "saved=true adds the Saved Questions database only once a card can be a source");
    }

    @Test
    void oneDatabaseWithTablesAndFields() {
        api.as(user).get(404, "database/999999");
        assertEquals("value must be an integer greater than zero.",
                api.as(user).get(400, "database/abc").json().get("errors").get("id").asText());
        api.as(user).get(400, "database/-1337");
        JsonNode bad = api.as(user).get(400, "database/" + db, "include", "everything").json();
        assertEquals("nullable enum of tables, tables.fields", bad.get("errors").get("include").asText());

        JsonNode plain = api.as(user).get(200, "database/" + db).json();
        assertFalse(plain.has("tables"));
        assertFalse(plain.has("details"));
        assertFalse(plain.has("can-manage"));
        assertTrue(api.as(admin).get(200, "database/" + db).json().get("can-manage").asBoolean());
        api.as(user).get(403, "database/" + db, "exclude_uneditable_details", "true");

        JsonNode tables = api.as(user).get(200, "database/" + db, "include", "tables").json().get("tables");
        assertEquals(List.of("Customers", "Old Orders", "Orders", "Wide"), names(tables, "display_name"),
                "by display name; the hidden SECRETS left out");
        assertFalse(tables.get(0).has("fields"));

        JsonNode withFields = api.as(user).get(200, "database/" + db, "include", "tables.fields").json().get("tables");
        JsonNode orders = withFields.get(2);
        assertEquals(List.of("ID", "CUSTOMER_ID", "TOTAL", "CATEGORY"), names(orders.get("fields"), "name"), "database order");
        JsonNode customerId = orders.get("fields").get(1);
        assertEquals("type/FK", customerId.get("semantic_type").asText());
        assertEquals("CUSTOMERS", tableNameOf(customerId.get("target").get("table_id").asLong()));
        assertEquals("ID", customerId.get("target").get("name").asText());
        assertEquals("none", customerId.get("has_field_values").asText(), "inferred: numbers are not searched");
        assertEquals("list", orders.get("fields").get(3).get("has_field_values").asText(), "analysis: few distinct values");
        JsonNode wide = withFields.get(3);
        assertFalse(names(wide.get("fields"), "name").contains("COL_60"), "sensitive fields are left out");
        assertEquals(61, wide.get("fields").size());
    }

    private static String tableNameOf(long tableId) {
        return api.as(admin).get(200, "table/" + tableId).json().get("name").asText();
    }

    @Test
    void metadataLeavesOutHiddenTablesAndSensitiveFieldsUnlessAsked() {
        api.as(user).get(404, "database/999999/metadata");
        JsonNode bad = api.as(user).get(400, "database/" + db + "/metadata", "include_hidden", "maybe").json();
        assertEquals("nullable value must be a valid boolean string ('true' or 'false').", bad.get("errors").get("include_hidden").asText());

        JsonNode meta = api.as(user).get(200, "database/" + db + "/metadata").json();
        assertEquals("Shop", meta.get("name").asText());
        assertEquals(List.of("Customers", "Old Orders", "Orders", "Wide"), names(meta.get("tables"), "display_name"));
        JsonNode customers = meta.get("tables").get(0);
        assertEquals("PUBLIC", customers.get("schema").asText());
        assertEquals(List.of("ID", "NAME", "EMAIL", "CREATED_AT"), names(customers.get("fields"), "name"));
        assertTrue(customers.get("segments").isArray());
        assertTrue(customers.get("metrics").isArray());
        assertFalse(names(meta.get("tables").get(3).get("fields"), "name").contains("COL_60"));

        // with each field's cached values, as pairs
        long category = shop.fieldId("ORDERS", "CATEGORY");
        FieldValues values = new FieldValues();
        values.fieldId = category;
        values.fieldValues = "[\"Gizmo\",\"Widget\"]";
        values.createdAt = OffsetDateTime.now();
        values.updatedAt = values.createdAt;
        shop.server.quarry().db.run(s -> {
            s.getMapper(WarehouseMapper.class).deleteFieldValues(category);
            s.getMapper(WarehouseMapper.class).insertFieldValues(values);
        });
        JsonNode orders = api.as(user).get(200, "database/" + db + "/metadata").json().get("tables").get(2);
        assertEquals("[[\"Gizmo\"],[\"Widget\"]]", orders.get("fields").get(3).get("values").toString());
        assertTrue(orders.get("fields").get(0).get("values").isArray());

        JsonNode all = api.as(user).get(200, "database/" + db + "/metadata", "include_hidden", "true").json();
        assertEquals(List.of("Customers", "Old Orders", "Orders", "Secrets", "Wide"), names(all.get("tables"), "display_name"));
        assertTrue(names(all.get("tables").get(4).get("fields"), "name").contains("COL_60"));

        JsonNode skipped = api.as(user).get(200, "database/" + db + "/metadata", "skip_fields", "true", "remove_inactive", "true").json();
        assertEquals(0, skipped.get("tables").get(0).get("fields").size());
    }

    @Test
    void fieldsAndPrimaryKeys() {
        JsonNode fields = api.as(user).get(200, "database/" + db + "/fields").json();
        JsonNode note = null;
        for (JsonNode f : fields) {
            assertFalse(f.get("name").asText().equals("COL_60"), "sensitive fields are left out");
            if (f.get("name").asText().equals("NOTE")) {
                note = f;
            }
        }
        assertEquals(List.of("id", "name", "display_name", "base_type", "semantic_type", "table_name", "table_id", "schema"),
                iterableToList(note.fieldNames()));
        assertEquals("OLD_ORDERS", note.get("table_name").asText());
        assertEquals("ARCHIVE", note.get("schema").asText());
        assertEquals("type/Text", note.get("base_type").asText());
        api.as(user).get(404, "database/999999/fields");

        JsonNode pks = api.as(user).get(200, "database/" + db + "/idfields").json();
        List<String> tables = new ArrayList<>();
        for (JsonNode pk : pks) {
            assertEquals("type/PK", pk.get("semantic_type").asText());
            tables.add(pk.get("table").get("name").asText());
        }
        assertEquals(List.of("CUSTOMERS", "OLD_ORDERS", "ORDERS", "SECRETS", "WIDE"), tables, "by table name");
        assertEquals(0, api.as(user).get(200, "database/" + db + "/idfields", "include_editable_data_model", "true").json().size(),
                "an ordinary user may edit no field");
        assertEquals(5, api.as(admin).get(200, "database/" + db + "/idfields", "include_editable_data_model", "true").json().size());
    }

    private static List<String> iterableToList(java.util.Iterator<String> it) {
        List<String> list = new ArrayList<>();
        it.forEachRemaining(list::add);
        return list;
    }

    @Test
    void schemasAndTheirTables() throws Exception {
        assertEquals(List.of("ARCHIVE", "PUBLIC"), strings(api.as(user).get(200, "database/" + db + "/schemas").json()));
        JsonNode publicTables = api.as(user).get(200, "database/" + db + "/schema/PUBLIC").json();
        assertEquals(List.of("Customers", "Orders", "Wide"), names(publicTables, "display_name"), "hidden SECRETS left out");
        assertEquals(List.of("Customers", "Orders", "Secrets", "Wide"),
                names(api.as(user).get(200, "database/" + db + "/schema/PUBLIC", "include_hidden", "true").json(), "display_name"));
        assertEquals("Old Orders", api.as(user).get(200, "database/" + db + "/schema/ARCHIVE").json().get(0).get("display_name").asText());
        api.as(user).get(404, "database/" + db + "/schema/NOPE");
        api.as(user).get(404, "database/" + db + "/schema/EMPTY_ONE", "include_hidden", "true");
        api.as(user).get(404, "database/999999/schema/PUBLIC");
        api.as(user).get(404, "database/" + db + "/schema/", "include_hidden", "true");

        // an engine without schemas (SQLite) syncs tables with a null schema: they are listed under /schema/
        Table loose = new Table();
        loose.dbId = db;
        loose.name = "LOOSE";
        loose.displayName = "Loose";
        loose.createdAt = OffsetDateTime.now();
        loose.updatedAt = loose.createdAt;
        shop.server.quarry().db.run(s -> s.getMapper(WarehouseMapper.class).insertTable(loose));
        try {
            JsonNode schemaless = api.as(user).get(200, "database/" + db + "/schema/").json();
            assertEquals(List.of("LOOSE"), names(schemaless, "name"));
            assertTrue(schemaless.get(0).get("schema").isNull());
            assertEquals(List.of("", "ARCHIVE", "PUBLIC"), strings(api.as(user).get(200, "database/" + db + "/schemas").json()),
                    "a null schema reads as the empty string");
        } finally {
            loose.active = false;
            shop.server.quarry().db.run(s -> s.getMapper(WarehouseMapper.class).updateTableSyncState(loose));
        }
        api.as(user).get(404, "database/" + db + "/schema/");
    }

    private static List<String> strings(JsonNode array) {
        List<String> result = new ArrayList<>();
        array.forEach(n -> result.add(n.asText()));
        return result;
    }

    @Test
    void syncableSchemasAreReadLiveAndOnlyForAdmins() {
        assertEquals(List.of("ARCHIVE", "EMPTY_ONE", "PUBLIC"),
                strings(api.as(admin).get(200, "database/" + db + "/syncable_schemas").json()),
                "read from the database itself (EMPTY_ONE has no tables), system schemas left out");
        assertEquals("You don't have permissions to do that.", api.as(user).get(403, "database/" + db + "/syncable_schemas").body());
        api.as(admin).get(404, "database/999999/syncable_schemas");
    }

    @Test
    void usageInfoCountsZeroUntilThereIsSomethingToCount() {
        JsonNode usage = api.as(admin).get(200, "database/" + db + "/usage_info").json();
        assertEquals(Map.of("question", 0, "dataset", 0, "metric", 0, "segment", 0),
                Map.of("question", usage.get("question").asInt(), "dataset", usage.get("dataset").asInt(),
                        "metric", usage.get("metric").asInt(), "segment", usage.get("segment").asInt()));
        assertEquals(4, usage.size());
        assertEquals("You don't have permissions to do that.", api.as(user).get(403, "database/" + db + "/usage_info").body());
        api.as(admin).get(404, "database/999999/usage_info");
        api.as(admin).get(400, "database/0/usage_info");

        shop.server.quarry().databaseUsage.register("question", databaseId -> databaseId == db ? 7 : 0);
        try {
            assertEquals(7, api.as(admin).get(200, "database/" + db + "/usage_info").json().get("question").asInt(),
                    "a module counts its own entities");
        } finally {
            shop.server.quarry().databaseUsage.register("question", databaseId -> 0);
        }
    }

    @Test
    void autocompleteAnswersExactPairsTablesFirst() {
        String path = "database/" + db + "/autocomplete_suggestions";
        Api.Res res = api.as(user).get(200, path, "prefix", "CuSt");
        assertEquals(List.of(List.of("CUSTOMERS", "Table"), List.of("CUSTOMER_ID", "ORDERS type/BigInteger type/FK")), pairs(res.json()),
                "case-insensitive; a field without semantic type would omit it");
        assertEquals("public, max-age=60", res.header("Cache-Control"));
        assertEquals(List.of(List.of("ZZ_QUUX", "SECRETS type/Integer")), pairs(api.as(user).get(200, path, "prefix", "zz").json()),
                "no semantic type: just table and base type (fields of hidden tables still suggested, as Metabase)");

        // substring matches inside names, prefix only at the start; substring wins when both are sent
        assertEquals(pairs(api.as(user).get(200, path, "prefix", "cust").json()), pairs(api.as(user).get(200, path, "substring", "tom").json()));
        assertEquals(List.of(), pairs(api.as(user).get(200, path, "prefix", "tom").json()));
        assertEquals(List.of(List.of("OLD_ORDERS", "Table"), List.of("ORDERS", "Table")),
                pairs(api.as(user).get(200, path, "prefix", "cust", "substring", "rder").json()));

        // wildcards in what is typed are literal: "col_5" does not match COLX5
        List<String> col5 = new ArrayList<>();
        pairs(api.as(user).get(200, path, "prefix", "col_5").json()).forEach(p -> col5.add(p.get(0)));
        assertEquals(List.of("COL_5", "COL_50", "COL_51", "COL_52", "COL_53", "COL_54", "COL_55", "COL_56", "COL_57", "COL_58", "COL_59"),
                col5);
        assertEquals(List.of(List.of("COL_6", "WIDE type/Integer")), pairs(api.as(user).get(200, path, "prefix", "col_6").json()),
                "sensitive COL_60 is never suggested");
        assertEquals(50, api.as(user).get(200, path, "prefix", "col").json().size(), "at most 50");
        assertEquals(List.of(), pairs(api.as(user).get(200, path, "prefix", "secr").json()), "hidden tables are not suggested");

        assertEquals("Must include prefix or search", api.as(user).get(400, path).body());
        assertEquals("nullable value must be a non-blank string.",
                api.as(user).get(400, path, "prefix", "  ").json().get("errors").get("prefix").asText());
        api.as(user).get(404, "database/999999/autocomplete_suggestions", "prefix", "c");
    }

    @Test
    void autocompleteForgetsColumnsThatDisappear() throws Exception {
        String path = "database/" + db + "/autocomplete_suggestions";
        io.quarry.testing.TargetDatabases.h2Execute(shop.file, "CREATE TABLE GONE_SOON (ID INT PRIMARY KEY, GONE_COL INT)");
        shop.resync();
        assertEquals(List.of(List.of("GONE_SOON", "Table"), List.of("GONE_COL", "GONE_SOON type/Integer")),
                pairs(api.as(user).get(200, path, "prefix", "gone").json()));
        io.quarry.testing.TargetDatabases.h2Execute(shop.file, "DROP TABLE GONE_SOON");
        shop.resync();
        assertEquals(List.of(), pairs(api.as(user).get(200, path, "prefix", "gone").json()), "inactive tables and fields are not suggested");
    }

    @Test
    void cardAutocompleteValidatesItsQuery() {
        String path = "database/" + db + "/card_autocomplete_suggestions";
        assertEquals("value must be a non-blank string.", api.as(user).get(400, path).json().get("errors").get("query").asText());
        assertEquals("value must be a non-blank string.", api.as(user).get(400, path, "query", " ").json().get("errors").get("query").asText());
        assertEquals(0, api.as(user).get(200, path, "query", "orders").json().size());
        api.as(user).get(404, "database/999999/card_autocomplete_suggestions", "query", "orders");
    }

    @Test
    void savedQuestionsVirtualDatabase() {
        JsonNode meta = api.as(user).get(200, "database/-1337/metadata").json();
        assertEquals(-1337, meta.get("id").asInt());
        assertEquals("Saved Questions", meta.get("name").asText());
        assertTrue(meta.get("is_saved_questions").asBoolean());
        assertEquals(0, meta.get("tables").size());
        assertEquals(0, api.as(user).get(200, "database/-1337/schemas").json().size());
        assertEquals(0, api.as(user).get(200, "database/-1337/datasets").json().size());
        assertEquals(0, api.as(user).get(200, "database/-1337/schema/Everything%20else").json().size());
        assertEquals(0, api.as(user).get(200, "database/-1337/datasets/Everything%20else").json().size());
        api.as(user).get(404, "database/-1337/schema/No%20such%20collection");
        api.as(user).get(400, "database/-1337/fields");

        // once the cards module plugs in its cards, they appear as tables grouped by collection
        SavedQuestions saved = shop.server.quarry().savedQuestions;
        Function<String, List<SavedQuestions.SourceCard>> cards = type -> type.equals("model")
                ? List.of(new SavedQuestions.SourceCard(8, db, "Big orders", null, "Sales", "model", null, List.of()))
                : List.of(new SavedQuestions.SourceCard(7, db, "Orders per day", "Daily", null, "question", "verified",
                List.of(Map.of("name", "count", "display_name", "Count", "base_type", "type/BigInteger"))));
        saved.register(new SavedQuestions.Source() {
            @Override
            public List<SavedQuestions.SourceCard> cards(io.quarry.core.Caller caller, String type) {
                return cards.apply(type);
            }

            @Override
            public boolean collectionExists(String name) {
                return name.equals("Sales");
            }
        });
        try {
            JsonNode list = api.as(user).get(200, "database", "saved", "true", "include", "tables").json();
            assertEquals(2, list.get("total").asInt());
            JsonNode virtual = list.get("data").get(1);
            assertEquals(-1337, virtual.get("id").asInt());
            assertTrue(virtual.get("is_saved_questions").asBoolean());
            assertEquals("card__7", virtual.get("tables").get(0).get("id").asText());
            assertEquals("Everything else", virtual.get("tables").get(0).get("schema").asText());

            JsonNode table = api.as(user).get(200, "database/-1337/metadata").json().get("tables").get(0);
            assertEquals("Orders per day", table.get("display_name").asText());
            JsonNode count = table.get("fields").get(0);
            assertEquals("card__7", count.get("table_id").asText());
            assertEquals("field", count.get("id").get(0).asText());
            assertEquals("type/BigInteger", count.get("id").get(2).get("base-type").asText());
            assertEquals(List.of("Everything else"), strings(api.as(user).get(200, "database/-1337/schemas").json()));
            assertEquals(List.of("Sales"), strings(api.as(user).get(200, "database/-1337/datasets").json()));
            assertEquals("card__8", api.as(user).get(200, "database/-1337/datasets/Sales").json().get(0).get("id").asText());
            assertEquals(0, api.as(user).get(200, "database/-1337/schema/Sales").json().size(), "no question in Sales");
        } finally {
            saved.register(shop.server.quarry().cardSources);
        }
    }
}
