package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResolveSourceCardsPassTest {
    private final MbqlPass pass = new ResolveSourceCardsPass();
    private final MbqlReferences cards = new MbqlCompilerTest.References(Map.of(
            7L, new MbqlReferences.CardQuery(1, KeyQueries.parse("{\"type\": \"query\", \"query\": {\"source-table\": 2}}")),
            8L, new MbqlReferences.CardQuery(2, Map.of("type", "query", "query", Map.of("source-table", 2))),
            9L, new MbqlReferences.CardQuery(1, Map.of("type", "native", "native", Map.of("query", "SELECT 1")))), Map.of(), Map.of());

    @Test
    void aCardSourceBecomesItsQuery() {
        Map<String, Object> out = PassTesting.run(pass, cards, "{\"source-table\": \"card__7\", \"limit\": 1}");
        assertFalse(out.containsKey("source-table"));
        assertEquals(Map.of("source-table", 2), out.get("source-query"));
        assertEquals(1, ((Number) out.get("limit")).intValue());
    }

    @Test
    void aJoinedCardBecomesTheJoinsQueryAndANativeCardItsSql() {
        Map<String, Object> out = PassTesting.run(pass, cards, "{\"source-table\": 2, \"joins\": [{\"source-table\": \"card__9\","
                + " \"alias\": \"n\", \"condition\": true}]}");
        Map<?, ?> join = (Map<?, ?>) ((List<?>) out.get("joins")).get(0);
        assertEquals(Map.of("native", "SELECT 1"), join.get("source-query"));
        assertEquals(2, ((Number) out.get("source-table")).intValue());
    }

    @Test
    void missingForeignAndMalformedCardsFail() {
        assertEquals("Card 123 not found.", PassTesting.failure(pass, cards, "{\"source-table\": \"card__123\"}"));
        assertEquals("Card 8 belongs to another database.", PassTesting.failure(pass, cards, "{\"source-table\": \"card__8\"}"));
        assertEquals("Invalid source table \"card__x\".", PassTesting.failure(pass, cards, "{\"source-table\": \"card__x\"}"));
    }

    @Test
    void aQueryWithoutCardsIsUntouched() {
        Map<String, Object> query = KeyQueries.parse("{\"source-table\": 2, \"joins\": [{\"source-table\": 1, \"condition\": true}]}");
        assertEquals(query, pass.apply(query, new MbqlPass.Input(PassTesting.context(cards), null, 0)));
    }
}
