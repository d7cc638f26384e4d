package io.quarry.warehouse;

import static io.quarry.warehouse.BrowseShop.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.TargetDatabases;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/table} and {@code /api/field}: browsing tables and fields as Metabase clients do, and the data-model
 * edits administrators make — validated key by key (one 400, nothing written), and kept when sync runs again.
 */
class TableFieldIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";

    private static BrowseShop shop;
    private static Api api;
    private static String admin;
    private static String user;

    @BeforeAll
    static void start() throws Exception {
        shop = BrowseShop.start();
        api = shop.api;
        admin = shop.admin;
        user = shop.user;
    }

    @AfterAll
    static void stop() {
        shop.close();
    }

    private static List<String> names(JsonNode array) {
        List<String> result = new ArrayList<>();
        array.forEach(n -> result.add(n.get("name").asText()));
        return result;
    }

    private static JsonNode field(JsonNode fields, String name) {
        for (JsonNode f : fields) {
            if (f.get("name").asText().equals(name)) {
                return f;
            }
        }
        throw new AssertionError("no field " + name + " in " + fields);
    }

    // --- tables ----------------------------------------------------------------------------------------------------

    @Test
    void tablesAreListedWithTheirDatabase() {
        assertEquals("Unauthenticated", api.get(401, "table").body());
        JsonNode tables = api.as(user).get(200, "table").json();
        assertEquals(List.of("CUSTOMERS", "OLD_ORDERS", "ORDERS", "SECRETS", "WIDE"), names(tables), "active tables by name");
        JsonNode customers = tables.get(0);
        assertEquals("PUBLIC", customers.get("schema").asText());
        assertEquals("Customers", customers.get("display_name").asText());
        assertEquals("People who buy things", customers.get("description").asText());
        assertEquals(shop.dbId, customers.get("db_id").asLong());
        assertEquals("Shop", customers.get("db").get("name").asText());
        assertFalse(customers.get("db").has("details"), "details only for those who may edit the database");
        for (String key : List.of("id", "db_id", "schema", "name", "display_name", "description", "entity_type", "visibility_type",
                "active", "initial_sync_status", "created_at", "updated_at", "field_order", "caveats", "points_of_interest",
                "show_in_getting_started", "estimated_row_count")) {
            assertTrue(customers.has(key), key);
        }
        assertEquals("database", customers.get("field_order").asText());
        assertEquals("complete", customers.get("initial_sync_status").asText());
    }

    @Test
    void oneTableWithItsPrimaryKey() {
        long customers = shop.tableId("CUSTOMERS");
        assertEquals("Unauthenticated", api.get(401, "table/" + customers).body());
        JsonNode table = api.as(user).get(200, "table/" + customers).json();
        assertEquals("CUSTOMERS", table.get("name").asText());
        assertEquals(shop.fieldId("CUSTOMERS", "ID"), table.get("pk_field").asLong());
        assertEquals("Shop", table.get("db").get("name").asText());
        assertEquals("h2", table.get("db").get("engine").asText());
        assertTrue(api.as(admin).get(200, "table/" + customers).json().get("db").has("details"));
        api.as(user).get(404, "table/999999");
        assertEquals("value must be an integer greater than zero.", api.as(user).get(400, "table/abc").json().get("errors").get("id").asText());
        assertEquals(FORBIDDEN, api.as(user).get(403, "table/" + customers, "include_editable_data_model", "true").body());
    }

    @Test
    void queryMetadataHasFieldsTargetsAndTheDatabase() {
        long orders = shop.tableId("ORDERS");
        assertEquals("Unauthenticated", api.get(401, "table/" + orders + "/query_metadata").body());
        JsonNode meta = api.as(user).get(200, "table/" + orders + "/query_metadata").json();
        assertEquals("ORDERS", meta.get("name").asText());
        assertEquals("PUBLIC", meta.get("schema").asText());
        assertFalse(api.as(admin).get(200, "table/" + orders + "/query_metadata").json().get("db").has("details"),
                "never details here, even for administrators (as Metabase)");
        assertEquals("Shop", meta.get("db").get("name").asText());
        assertEquals(List.of("ID", "CUSTOMER_ID", "TOTAL", "CATEGORY"), names(meta.get("fields")));
        for (String key : List.of("segments", "measures", "metrics")) {
            assertTrue(meta.get(key).isArray(), key);
        }

        JsonNode customerId = field(meta.get("fields"), "CUSTOMER_ID");
        long customersPk = shop.fieldId("CUSTOMERS", "ID");
        assertEquals("type/FK", customerId.get("semantic_type").asText());
        assertEquals(customersPk, customerId.get("fk_target_field_id").asLong());
        assertEquals(customersPk, customerId.get("target").get("id").asLong());
        assertEquals("type/PK", customerId.get("target").get("semantic_type").asText());
        assertEquals("none", customerId.get("has_field_values").asText());
        assertTrue(customerId.get("dimensions").isArray());
        assertTrue(field(meta.get("fields"), "ID").get("target").isNull());
        JsonNode category = field(meta.get("fields"), "CATEGORY");
        assertEquals("list", category.get("has_field_values").asText(), "analysis: few distinct values");
        for (String key : List.of("id", "table_id", "name", "display_name", "description", "base_type", "effective_type",
                "semantic_type", "database_type", "fk_target_field_id", "visibility_type", "has_field_values", "active", "position",
                "database_position", "custom_position", "preview_display", "fingerprint", "settings", "coercion_strategy",
                "parent_id", "nfc_path", "created_at", "updated_at", "last_analyzed", "name_field")) {
            assertTrue(category.has(key), key);
        }
        assertEquals("type/Text", category.get("base_type").asText());
        assertEquals("CHARACTER VARYING", category.get("database_type").asText());
        assertEquals(3, category.get("position").asInt());

        // hidden and sensitive fields only when asked; the data-model variant is for administrators
        long secrets = shop.tableId("SECRETS");
        api.as(admin).put(200, "field/" + shop.fieldId("SECRETS", "TOKEN"), map("visibility_type", "sensitive"));
        api.as(admin).put(200, "field/" + shop.fieldId("SECRETS", "ZZ_QUUX"), map("visibility_type", "hidden"));
        assertEquals(List.of("ID"), names(api.as(user).get(200, "table/" + secrets + "/query_metadata").json().get("fields")));
        assertEquals(List.of("ID", "ZZ_QUUX"), names(api.as(user).get(200, "table/" + secrets + "/query_metadata",
                "include_hidden_fields", "true").json().get("fields")));
        assertEquals(List.of("ID", "TOKEN", "ZZ_QUUX"), names(api.as(user).get(200, "table/" + secrets + "/query_metadata",
                "include_hidden_fields", "true", "include_sensitive_fields", "true").json().get("fields")));
        assertEquals(FORBIDDEN, api.as(user).get(403, "table/" + secrets + "/query_metadata", "include_editable_data_model", "true").body());
        api.as(admin).get(200, "table/" + secrets + "/query_metadata", "include_editable_data_model", "true");
        assertEquals("nullable value must be a valid boolean string ('true' or 'false').",
                api.as(user).get(400, "table/" + secrets + "/query_metadata", "include_hidden_fields", "1").json()
                        .get("errors").get("include_hidden_fields").asText());
        api.as(user).get(404, "table/999999/query_metadata");
    }

    @Test
    void tableEditsAreValidatedKeyByKeyAndWriteNothingWhenBad() {
        long wide = shop.tableId("WIDE");
        JsonNode before = api.as(admin).get(200, "table/" + wide).json();
        Map<String, Object> good = map("description", "ok");
        assertEquals("Unauthenticated", api.put(401, "table/" + wide, good).body());
        assertEquals(FORBIDDEN, api.as(user).put(403, "table/" + wide, good).body());

        JsonNode errors = api.as(admin).put(400, "table/" + wide, map("display_name", "  ", "entity_type", "entity/Nope",
                "visibility_type", "invisible", "description", 5, "caveats", List.of(), "points_of_interest", true,
                "show_in_getting_started", "yes", "field_order", "random")).json().get("errors");
        assertEquals("nullable value must be a non-blank string.", errors.get("display_name").asText());
        assertEquals("nullable value must be a valid entity type (keyword or string).", errors.get("entity_type").asText());
        assertEquals("nullable enum of technical, hidden, cruft", errors.get("visibility_type").asText());
        assertEquals("nullable string", errors.get("description").asText());
        assertEquals("nullable string", errors.get("caveats").asText());
        assertEquals("nullable string", errors.get("points_of_interest").asText());
        assertEquals("nullable boolean", errors.get("show_in_getting_started").asText());
        assertEquals("nullable enum of alphabetical, custom, database, smart", errors.get("field_order").asText());
        assertEquals(8, errors.size());
        // one bad key among good ones: still nothing written
        api.as(admin).put(400, "table/" + wide, map("display_name", "Fine", "description", "fine", "visibility_type", "nope"));
        assertEquals(before, api.as(admin).get(200, "table/" + wide).json(), "nothing half-written");

        api.as(admin).put(404, "table/999999", good);
        api.as(admin).put(400, "table/abc", good);
        api.as(admin).put(400, "table/" + wide, "[1]");
    }

    @Test
    void tableEdits() {
        long wide = shop.tableId("WIDE");
        JsonNode updated = api.as(admin).put(200, "table/" + wide, map("display_name", "Very wide", "description", "Sixty columns",
                "entity_type", "entity/EventTable", "visibility_type", "technical", "caveats", "Mind the width",
                "points_of_interest", "COL_7", "show_in_getting_started", true)).json();
        assertEquals("Very wide", updated.get("display_name").asText());
        assertEquals("Sixty columns", updated.get("description").asText());
        assertEquals("entity/EventTable", updated.get("entity_type").asText());
        assertEquals("technical", updated.get("visibility_type").asText());
        assertEquals("Mind the width", updated.get("caveats").asText());
        assertEquals("COL_7", updated.get("points_of_interest").asText());
        assertTrue(updated.get("show_in_getting_started").asBoolean());
        assertFalse(updated.has("fields"), "fields only come back when their order changed");

        // absent keys stay; null clears what may be cleared and leaves what may not (display name, entity type)
        JsonNode cleared = api.as(admin).put(200, "table/" + wide, map("display_name", null, "entity_type", null,
                "description", null, "visibility_type", null)).json();
        assertEquals("Very wide", cleared.get("display_name").asText());
        assertEquals("entity/EventTable", cleared.get("entity_type").asText());
        assertTrue(cleared.get("description").isNull());
        assertTrue(cleared.get("visibility_type").isNull());
        assertEquals("Mind the width", cleared.get("caveats").asText());
        assertEquals(cleared, withoutDb(api.as(admin).get(200, "table/" + wide).json(), cleared));

        // a new field order repositions the fields and answers them in that order
        JsonNode alpha = api.as(admin).put(200, "table/" + wide, map("field_order", "alphabetical")).json();
        List<String> alphabetical = names(alpha.get("fields"));
        assertEquals("COL_1", alphabetical.get(0));
        assertEquals(List.of("COL_1", "COL_10", "COL_11"), alphabetical.subList(0, 3));
        assertEquals("ID", alphabetical.get(alphabetical.size() - 1));
        assertEquals(0, alpha.get("fields").get(0).get("position").asInt());
        assertEquals(alphabetical, names(api.as(user).get(200, "table/" + wide + "/query_metadata").json().get("fields")));
        JsonNode smart = api.as(admin).put(200, "table/" + wide, map("field_order", "smart")).json();
        assertEquals("ID", smart.get("fields").get(0).get("name").asText(), "smart: the primary key first");
        JsonNode database = api.as(admin).put(200, "table/" + wide, map("field_order", "database")).json();
        assertEquals(List.of("ID", "COL_1", "COL_2"), names(database.get("fields")).subList(0, 3));
    }

    /** The GET view has keys the PUT view has not (db, pk_field); compare what both have. */
    private static JsonNode withoutDb(JsonNode get, JsonNode like) {
        com.fasterxml.jackson.databind.node.ObjectNode copy = get.deepCopy();
        copy.retain(iterable(like.fieldNames()));
        return copy;
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> list = new ArrayList<>();
        it.forEachRemaining(list::add);
        return list;
    }

    @Test
    void severalTablesAtOnceAllOrNothing() {
        long customers = shop.tableId("CUSTOMERS");
        long secrets = shop.tableId("SECRETS");
        assertEquals(FORBIDDEN, api.as(user).put(403, "table", map("ids", List.of(customers), "caveats", "x")).body());
        assertEquals("Unauthenticated", api.put(401, "table", map("ids", List.of(customers))).body());
        String message = "sequence of value must be an integer greater than zero.";
        assertEquals(message, api.as(admin).put(400, "table", map("caveats", "x")).json().get("errors").get("ids").asText());
        assertEquals(message, api.as(admin).put(400, "table", map("ids", List.of(customers, -2))).json().get("errors").get("ids").asText());
        assertEquals(message, api.as(admin).put(400, "table", map("ids", "1")).json().get("errors").get("ids").asText());
        assertEquals("nullable boolean", api.as(admin).put(400, "table", map("ids", List.of(customers), "show_in_getting_started", 1))
                .json().get("errors").get("show_in_getting_started").asText());
        api.as(admin).put(404, "table", map("ids", List.of(customers, 999999), "caveats", "Half"));
        assertTrue(api.as(admin).get(200, "table/" + customers).json().get("caveats").isNull(), "nothing half-written");

        JsonNode both = api.as(admin).put(200, "table", map("ids", List.of(customers, secrets), "caveats", "Checked",
                "show_in_getting_started", true)).json();
        assertEquals(2, both.size());
        for (long id : List.of(customers, secrets)) {
            JsonNode t = api.as(user).get(200, "table/" + id).json();
            assertEquals("Checked", t.get("caveats").asText());
            assertTrue(t.get("show_in_getting_started").asBoolean());
        }
    }

    // --- fields ----------------------------------------------------------------------------------------------------

    @Test
    void oneFieldWithItsTableAndTarget() {
        long customerId = shop.fieldId("ORDERS", "CUSTOMER_ID");
        assertEquals("Unauthenticated", api.get(401, "field/" + customerId).body());
        JsonNode f = api.as(user).get(200, "field/" + customerId).json();
        assertEquals("CUSTOMER_ID", f.get("name").asText());
        assertEquals("Customer ID", f.get("display_name").asText());
        assertEquals("ORDERS", f.get("table").get("name").asText());
        assertEquals("Shop", f.get("table").get("db").get("name").asText());
        assertEquals("ID", f.get("target").get("name").asText());
        assertEquals("none", f.get("has_field_values").asText());
        assertTrue(f.get("dimensions").isArray());
        api.as(user).get(404, "field/999999");
        assertEquals("value must be an integer greater than zero.", api.as(user).get(400, "field/0").json().get("errors").get("id").asText());
        assertEquals(FORBIDDEN, api.as(user).get(403, "field/" + customerId, "include_editable_data_model", "true").body());

        // a primary key names its row through the table's Name field: analysis finds it, and without one there is none
        long customersPk = shop.fieldId("CUSTOMERS", "ID");
        assertEquals("NAME", api.as(user).get(200, "field/" + customersPk).json().get("name_field").get("name").asText());
        api.as(admin).put(200, "field/" + shop.fieldId("CUSTOMERS", "NAME"), map("semantic_type", null));
        assertTrue(api.as(user).get(200, "field/" + customersPk).json().get("name_field").isNull());
        api.as(admin).put(200, "field/" + shop.fieldId("CUSTOMERS", "NAME"), map("semantic_type", "type/Name"));
        assertEquals("NAME", api.as(user).get(200, "field/" + customersPk).json().get("name_field").get("name").asText());
    }

    @Test
    void fieldEditsAreValidatedKeyByKeyAndWriteNothingWhenBad() throws Exception {
        long col3 = shop.fieldId("WIDE", "COL_3");
        JsonNode before = api.as(admin).get(200, "field/" + col3).json();
        Map<String, Object> good = map("description", "fine");
        assertEquals("Unauthenticated", api.put(401, "field/" + col3, good).body());
        assertEquals(FORBIDDEN, api.as(user).put(403, "field/" + col3, good).body());

        JsonNode errors = api.as(admin).put(400, "field/" + col3, map("display_name", "", "description", " ", "caveats", 3,
                "points_of_interest", "", "semantic_type", "type/Bogus", "coercion_strategy", "Coercion/Nope",
                "visibility_type", "invisible", "has_field_values", "maybe", "settings", "big", "fk_target_field_id", -1)).json()
                .get("errors");
        assertEquals("nullable value must be a non-blank string.", errors.get("display_name").asText());
        assertEquals("nullable value must be a non-blank string.", errors.get("description").asText());
        assertEquals("nullable value must be a non-blank string.", errors.get("caveats").asText());
        assertEquals("nullable value must be a non-blank string.", errors.get("points_of_interest").asText());
        assertEquals("nullable value must be a valid field semantic or relation type (keyword or string).",
                errors.get("semantic_type").asText());
        assertEquals("nullable value must be a valid coercion strategy (keyword or string).", errors.get("coercion_strategy").asText());
        assertEquals("nullable enum of retired, sensitive, normal, hidden, details-only", errors.get("visibility_type").asText());
        assertEquals("nullable enum of auto-list, list, none, search", errors.get("has_field_values").asText());
        assertEquals("nullable Value must be a map.", errors.get("settings").asText());
        assertEquals("nullable value must be an integer greater than zero.", errors.get("fk_target_field_id").asText());
        assertEquals(10, errors.size());
        assertEquals("nullable value must be a valid field semantic or relation type (keyword or string).",
                api.as(admin).put(400, "field/" + col3, map("semantic_type", "type/Integer")).json().get("errors").get("semantic_type")
                        .asText(), "a base type is not a semantic type");

        // the FK target must exist, in the same database
        JsonNode missing = api.as(admin).put(400, "field/" + col3, map("semantic_type", "type/FK", "fk_target_field_id", 999999,
                "display_name", "Would be")).json();
        assertEquals("Invalid target field", missing.get("errors").get("fk_target_field_id").asText());
        long other = api.as(admin).post(200, "database", map("engine", "h2", "name", "Other shop", "details",
                map("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        shop.server.quarry().sync.syncInBackground(other).get();
        long foreignPk = shop.server.quarry().metadata.pkFields(other).get(0).id;
        assertEquals("Invalid target field", api.as(admin).put(400, "field/" + col3, map("semantic_type", "type/FK",
                "fk_target_field_id", foreignPk)).json().get("errors").get("fk_target_field_id").asText());
        api.as(admin).delete(204, "database/" + other);

        assertEquals(before, api.as(admin).get(200, "field/" + col3).json(), "nothing half-written");
        api.as(admin).put(404, "field/999999", good);
        api.as(admin).put(400, "field/abc", good);
    }

    @Test
    void fieldEdits() {
        long col4 = shop.fieldId("WIDE", "COL_4");
        JsonNode updated = api.as(admin).put(200, "field/" + col4, map("display_name", "Fourth", "description", "The fourth column",
                "caveats", "Often empty", "points_of_interest", "Sums nicely", "semantic_type", "type/Quantity",
                "visibility_type", "details-only", "has_field_values", "auto-list", "settings", map("currency", "EUR"),
                "nfc_path", null, "json_unfolding", false)).json();
        assertEquals("Fourth", updated.get("display_name").asText());
        assertEquals("The fourth column", updated.get("description").asText());
        assertEquals("Often empty", updated.get("caveats").asText());
        assertEquals("Sums nicely", updated.get("points_of_interest").asText());
        assertEquals("type/Quantity", updated.get("semantic_type").asText());
        assertEquals("details-only", updated.get("visibility_type").asText());
        assertEquals("list", updated.get("has_field_values").asText(), "auto-list reads as list");
        assertEquals("EUR", updated.get("settings").get("currency").asText());
        assertTrue(updated.get("target").isNull());
        JsonNode read = api.as(user).get(200, "field/" + col4).json();
        assertEquals("Fourth", read.get("display_name").asText());
        assertEquals("EUR", read.get("settings").get("currency").asText());

        // null clears what may be cleared; display name and settings only change with a value
        JsonNode cleared = api.as(admin).put(200, "field/" + col4, map("display_name", null, "description", null,
                "semantic_type", null, "has_field_values", null, "settings", null)).json();
        assertEquals("Fourth", cleared.get("display_name").asText());
        assertTrue(cleared.get("description").isNull());
        assertTrue(cleared.get("semantic_type").isNull());
        assertEquals("none", cleared.get("has_field_values").asText(), "unset again: inferred for an integer");
        assertEquals("EUR", cleared.get("settings").get("currency").asText());

        // an FK points at its target; moving away from FK forgets the target
        long col2 = shop.fieldId("WIDE", "COL_2");
        long customersPk = shop.fieldId("CUSTOMERS", "ID");
        JsonNode fk = api.as(admin).put(200, "field/" + col2, map("semantic_type", "type/FK", "fk_target_field_id", customersPk)).json();
        assertEquals(customersPk, fk.get("fk_target_field_id").asLong());
        assertEquals("ID", fk.get("target").get("name").asText());
        JsonNode category = api.as(admin).put(200, "field/" + col2, map("semantic_type", "type/Category")).json();
        assertTrue(category.get("fk_target_field_id").isNull());
        assertTrue(category.get("target").isNull());

        // coercion: applies when the strategy fits the base type, otherwise the field stays as it is typed
        long token = shop.fieldId("SECRETS", "TOKEN");
        JsonNode coerced = api.as(admin).put(200, "field/" + token, map("coercion_strategy", "Coercion/ISO8601->DateTime")).json();
        assertEquals("Coercion/ISO8601->DateTime", coerced.get("coercion_strategy").asText());
        assertEquals("type/DateTime", coerced.get("effective_type").asText());
        assertEquals("type/Text", coerced.get("base_type").asText());
        JsonNode kept = api.as(admin).put(200, "field/" + token, map("description", "Tokens")).json();
        assertEquals("type/DateTime", kept.get("effective_type").asText(), "other edits leave the coercion alone");
        JsonNode unfit = api.as(admin).put(200, "field/" + token, map("coercion_strategy", "Coercion/UNIXSeconds->DateTime")).json();
        assertTrue(unfit.get("coercion_strategy").isNull(), "UNIX seconds do not apply to text");
        assertEquals("type/Text", unfit.get("effective_type").asText());
        api.as(admin).put(200, "field/" + token, map("coercion_strategy", "Coercion/ISO8601->Date"));
        JsonNode uncoerced = api.as(admin).put(200, "field/" + token, map("coercion_strategy", null)).json();
        assertTrue(uncoerced.get("coercion_strategy").isNull());
        assertEquals("type/Text", uncoerced.get("effective_type").asText());
    }

    @Test
    void editsByPeopleSurviveSync() throws Exception {
        long oldOrders = shop.tableId("OLD_ORDERS");
        long note = shop.fieldId("OLD_ORDERS", "NOTE");
        long buyer = shop.fieldId("OLD_ORDERS", "BUYER_REF");
        assertEquals("type/FK", api.as(user).get(200, "field/" + buyer).json().get("semantic_type").asText(), "sync found the FK");

        api.as(admin).put(200, "table/" + oldOrders, map("display_name", "Archived orders", "description", "Before 2020",
                "visibility_type", "cruft"));
        api.as(admin).put(200, "field/" + note, map("display_name", "Remark", "description", "What the clerk wrote",
                "semantic_type", "type/Description", "visibility_type", "details-only"));
        api.as(admin).put(200, "field/" + buyer, map("semantic_type", "type/Category", "display_name", "Buyer"));

        // the database changes under them (a column's type, a new column), and sync runs again
        TargetDatabases.h2Execute(shop.file, "ALTER TABLE ARCHIVE.OLD_ORDERS ALTER COLUMN NOTE SET DATA TYPE CHARACTER LARGE OBJECT",
                "ALTER TABLE ARCHIVE.OLD_ORDERS ADD COLUMN ADDED_LATER INT");
        shop.resync();
        shop.resync();

        JsonNode table = api.as(admin).get(200, "table/" + oldOrders).json();
        assertEquals("Archived orders", table.get("display_name").asText());
        assertEquals("Before 2020", table.get("description").asText());
        assertEquals("cruft", table.get("visibility_type").asText());
        JsonNode noteField = api.as(admin).get(200, "field/" + note).json();
        assertEquals("CHARACTER LARGE OBJECT", noteField.get("database_type").asText(), "sync did see the change");
        assertEquals("Remark", noteField.get("display_name").asText());
        assertEquals("What the clerk wrote", noteField.get("description").asText());
        assertEquals("type/Description", noteField.get("semantic_type").asText());
        assertEquals("details-only", noteField.get("visibility_type").asText());
        JsonNode buyerField = api.as(admin).get(200, "field/" + buyer).json();
        assertEquals("type/Category", buyerField.get("semantic_type").asText(), "a person's semantic type beats the FK constraint");
        assertTrue(buyerField.get("fk_target_field_id").isNull());
        assertEquals("Buyer", buyerField.get("display_name").asText());
        JsonNode fields = api.as(admin).get(200, "table/" + oldOrders + "/query_metadata", "include_hidden_fields", "true").json()
                .get("fields");
        assertEquals("Added Later", field(fields, "ADDED_LATER").get("display_name").asText());
    }
}
