package io.quarry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarry.web.error.ApiException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Metabase's names for the cache schema and tables, the query hash, and the refresh cron rules. */
class PersistenceNamesTest {
    @Test
    void theSchemaTakesTheFirstCharacterOfEachGroupOfTheSiteUuid() {
        assertEquals("metabase_cache_1e483_1", PersistedTables.schemaName("143dd8ce-e116-4c7f-8d6d-32e99eaefbbc", 1));
        assertEquals("metabase_cache_abcde_12", PersistedTables.schemaName("A1-B2-C3-D4-E5", 12));
    }

    @Test
    void theTableIsTheCardIdAndASlugOfItsName() {
        assertEquals("orders_by_", PersistedTables.slug("Orders by category"));
        assertEquals("model_7_orders_by_", PersistedTables.tableName(7, PersistedTables.slug("Orders by category")));
        assertEquals("caf_s_", PersistedTables.slug("Café's "));
        assertEquals("", PersistedTables.slug(null));
    }

    @Test
    void theHashIgnoresKeyOrderButNotContent() {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("database", 1);
        a.put("query", Map.of("source-table", 2, "limit", 5));
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("query", Map.of("limit", 5, "source-table", 2));
        b.put("database", 1);
        assertEquals(PersistedTables.queryHash(a), PersistedTables.queryHash(b));
        assertNotEquals(PersistedTables.queryHash(a), PersistedTables.queryHash(Map.of("database", 1, "query", Map.of("source-table", 3))));
        assertEquals(44, PersistedTables.queryHash(a).length(), "base64 of 32 bytes");
    }

    @Test
    void aRefreshCronHasSevenPartsAndNoYear() {
        assertEquals("0 0 0/6 * * ? *", PersistenceService.validCron(" 0 0 0/6 * * ? * ", "cron"));
        for (String bad : List.of("0 0 * * *", "0 0 0/6 * * ?", "0 0 0/6 * * ? * *")) {
            ApiException e = assertThrows(ApiException.class, () -> PersistenceService.validCron(bad, "cron"));
            assertEquals(400, e.status());
        }
        assertThrows(ApiException.class, () -> PersistenceService.validCron("0 0 0/6 * * ? 2030", "cron"));
        assertThrows(ApiException.class, () -> PersistenceService.validCron("x y z * * ? *", "cron"));
    }
}
