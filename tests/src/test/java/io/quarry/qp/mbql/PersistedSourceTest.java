package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.driver.h2.H2Dialect;
import io.quarry.qp.CompiledQuery;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A persisted model used as a source is read from its table only when the table has exactly the model's columns. */
class PersistedSourceTest {
    private static final Map<String, Object> MODEL = KeyQueries.parse("{\"type\": \"query\", \"query\": {\"source-table\": 2,"
            + " \"aggregation\": [[\"count\"]], \"breakout\": [[\"field\", 21, null]]}}");

    private static CompiledQuery compile(MbqlReferences.PersistedTable table, String json) {
        MbqlReferences.CardQuery card = new MbqlReferences.CardQuery(1, MODEL, table);
        return MbqlCompilerTest.compile(new H2Dialect(), FakeMetadata.shop(), new MbqlCompilerTest.References(Map.of(5L, card), Map.of(),
                Map.of()), json);
    }

    private static List<String> modelColumns() {
        String plain = compile(null, "{\"source-table\": \"card__5\", \"limit\": 1}").sql();
        assertFalse(plain.contains("metabase_cache"), plain);
        // the model's aliases, as the refresh built its table with them
        List<String> aliases = new java.util.ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(" AS \"([^\"]+)\"[,)]?").matcher(plain.substring(plain.indexOf("(SELECT")));
        while (m.find() && !m.group(1).equals("source")) {
            aliases.add(m.group(1));
        }
        return aliases;
    }

    @Test
    void aTableWithTheModelsColumnsIsRead() {
        List<String> columns = modelColumns();
        assertEquals(2, columns.size(), columns.toString());
        String sql = compile(new MbqlReferences.PersistedTable("metabase_cache_1e483_1", "model_5_x", columns),
                "{\"source-table\": \"card__5\", \"aggregation\": [[\"count\"]]}").sql();
        assertTrue(sql.contains("FROM (SELECT \"" + columns.get(0) + "\", \"" + columns.get(1) + "\" FROM \"metabase_cache_1e483_1\".\"model_5_x\")"),
                sql);
        String joined = compile(new MbqlReferences.PersistedTable("metabase_cache_1e483_1", "model_5_x", columns),
                "{\"source-table\": 2, \"joins\": [{\"source-table\": \"card__5\", \"alias\": \"m\", \"condition\": true}]}").sql();
        assertTrue(joined.contains("\"metabase_cache_1e483_1\".\"model_5_x\""), joined);
    }

    @Test
    void aTableWithOtherColumnsIsNot() {
        String sql = compile(new MbqlReferences.PersistedTable("metabase_cache_1e483_1", "model_5_x", List.of("ID")),
                "{\"source-table\": \"card__5\"}").sql();
        assertFalse(sql.contains("metabase_cache"), sql);
    }

    @Test
    void aClientCannotNameATableToRead() {
        String sql = MbqlCompilerTest.sql("{\"source-query\": {\"source-table\": 2, \"qp/persisted-table\": "
                + "{\"schema\": \"INFORMATION_SCHEMA\", \"table\": \"USERS\", \"columns\": []}}}");
        assertFalse(sql.contains("INFORMATION_SCHEMA"), sql);
    }
}
