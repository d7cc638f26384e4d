package io.quarry.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.core.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryNormalizerTest {
    private static Query normalize(String json) throws Exception {
        return QueryNormalizer.normalize(Json.read(json));
    }

    @Test
    void legacyNativeAndStructuredQueries() throws Exception {
        Query nativeQuery = normalize("{\"database\": 3, \"type\": \"native\", \"native\": {\"query\": \"SELECT 1\","
                + " \"template-tags\": {\"x\": {\"type\": \"text\"}}}, \"constraints\": {\"max-results\": 5},"
                + " \"middleware\": {\"js-int-to-string?\": false}}");
        assertEquals(3, nativeQuery.databaseId());
        assertEquals(Query.Type.NATIVE, nativeQuery.type());
        assertEquals("SELECT 1", nativeQuery.nativeSql());
        assertTrue(nativeQuery.templateTags().containsKey("x"));
        assertEquals(5L, nativeQuery.maxResults());
        assertFalse(nativeQuery.jsIntToString());
        Query mbql = normalize("{\"database\": 3, \"type\": \"query\", \"query\": {\"source-table\": 7}}");
        assertEquals(Query.Type.MBQL, mbql.type());
        assertEquals(7, mbql.mbql().get("source-table"));
        assertTrue(mbql.jsIntToString(), "js-int-to-string? defaults to true for the API");
    }

    @Test
    void mbql5NativeStagesBecomeNativeQueries() throws Exception {
        Query q = normalize("{\"lib/type\": \"mbql/query\", \"database\": 2, \"stages\": [{\"lib/type\": \"mbql.stage/native\","
                + " \"native\": \"SELECT 2\", \"template-tags\": {}}]}");
        assertEquals(Query.Type.NATIVE, q.type());
        assertEquals("SELECT 2", q.nativeSql());
        Query structured = normalize("{\"lib/type\": \"mbql/query\", \"database\": 2, \"stages\": [{\"lib/type\": \"mbql.stage/mbql\","
                + " \"source-table\": 4}]}");
        assertEquals(Query.Type.MBQL, structured.type());
        assertTrue(structured.mbql().containsKey("stages"));
    }

    @Test
    void parametersMapToTemplateTagsByTarget() {
        Map<String, Object> values = QueryNormalizer.tagValues(List.of(
                Map.of("target", List.of("variable", List.of("template-tag", "min")), "value", 10),
                Map.of("target", List.of("dimension", List.of("template-tag", "cat")), "value", List.of("Gizmo")),
                Map.of("target", List.of("dimension", List.of("field", 5, Map.of())), "value", "ignored here")));
        assertEquals(Map.of("min", 10, "cat", List.of("Gizmo")), values);
    }

    @Test
    void malformedQueriesAreInvalidQueryFailures() {
        for (String bad : List.of("[]", "{\"type\": \"native\", \"native\": {\"query\": \"x\"}}",
                "{\"database\": 0, \"type\": \"native\", \"native\": {\"query\": \"x\"}}",
                "{\"database\": 1, \"type\": \"native\", \"native\": {\"query\": \"  \"}}",
                "{\"database\": 1, \"type\": \"query\"}", "{\"database\": 1, \"type\": \"sql\"}",
                "{\"lib/type\": \"mbql/query\", \"database\": 1, \"stages\": []}")) {
            QueryFailure failure = assertThrows(QueryFailure.class, () -> normalize(bad), bad);
            assertEquals(QueryFailure.Type.INVALID_QUERY, failure.type(), bad);
        }
    }
}
