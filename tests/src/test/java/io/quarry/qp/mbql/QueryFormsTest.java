package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import io.quarry.core.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Legacy MBQL to MBQL 5 and back gives the query it started from. */
class QueryFormsTest {
    private static Map<String, Object> parse(String json) throws Exception {
        return Json.MAPPER.readValue(json.replace('\'', '"'), new TypeReference<Map<String, Object>>() { });
    }

    @Test
    void aRichLegacyQueryGoesToMbql5AndBackUnchanged() throws Exception {
        Map<String, Object> legacy = parse("{'database': 1, 'type': 'query', 'query': {"
                + "'source-query': {'source-table': 'card__12', 'filter': ['time-interval', ['field', 5, null], -30, 'day',"
                + " {'include-current': true}]},"
                + "'joins': [{'source-table': 3, 'alias': 'P', 'strategy': 'left-join', 'fields': 'all',"
                + " 'condition': ['=', ['field', 4, null], ['field', 7, {'join-alias': 'P'}]]}],"
                + "'expressions': {'double': ['*', ['field', 6, null], 2], 'one': 1},"
                + "'filter': ['and', ['contains', ['field', 8, null], 'a', {'case-sensitive': false}], ['>', ['expression', 'double'], 3]],"
                + "'breakout': [['field', 5, {'temporal-unit': 'month'}]],"
                + "'aggregation': [['aggregation-options', ['sum', ['field', 6, null]], {'name': 'S', 'display-name': 'Sum'}], ['count']],"
                + "'order-by': [['desc', ['aggregation', 1]]], 'limit': 10}, 'parameters': []}");
        Map<String, Object> five = QueryForms.mbql5(legacy);
        assertEquals("mbql/query", five.get("lib/type"));
        List<?> stages = (List<?>) five.get("stages");
        assertEquals(2, stages.size());
        assertEquals(12L, ((Number) ((Map<?, ?>) stages.get(0)).get("source-card")).longValue());
        // the same tree (object keys in any order)
        assertEquals(Json.MAPPER.valueToTree(legacy), Json.MAPPER.valueToTree(QueryForms.legacy(five)));
    }

    @Test
    void nativeQueriesAndNativeSourcesHaveNativeStages() throws Exception {
        Map<String, Object> legacy = parse("{'database': 1, 'type': 'native', 'native': {'query': 'SELECT {{x}}',"
                + " 'template-tags': {'x': {'name': 'x', 'type': 'text'}}}}");
        Map<String, Object> five = QueryForms.mbql5(legacy);
        Map<?, ?> stage = (Map<?, ?>) ((List<?>) five.get("stages")).get(0);
        assertEquals("mbql.stage/native", stage.get("lib/type"));
        assertEquals("SELECT {{x}}", stage.get("native"));
        assertEquals(Json.write(legacy), Json.write(QueryForms.legacy(five)));

        Map<String, Object> nested = parse("{'database': 1, 'type': 'query', 'query': {'source-query': {'native': 'SELECT 1 AS N'},"
                + " 'aggregation': [['count']]}}");
        List<?> nestedStages = (List<?>) QueryForms.mbql5(nested).get("stages");
        assertEquals("mbql.stage/native", ((Map<?, ?>) nestedStages.get(0)).get("lib/type"));
        assertEquals("mbql.stage/mbql", ((Map<?, ?>) nestedStages.get(1)).get("lib/type"));
    }

    @Test
    void eachFormIsLeftAsItIsByItsOwnConversion() throws Exception {
        Map<String, Object> five = parse("{'lib/type': 'mbql/query', 'database': 1, 'stages': [{'lib/type': 'mbql.stage/mbql',"
                + " 'source-table': 2}]}");
        assertSame(five, QueryForms.mbql5(five));
        Map<String, Object> legacy = QueryForms.legacy(five);
        assertSame(legacy, QueryForms.legacy(legacy));
        assertTrue(legacy.get("query") instanceof Map<?, ?> inner && inner.get("source-table").equals(2));
    }
}
