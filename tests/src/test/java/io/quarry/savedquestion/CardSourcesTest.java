package io.quarry.savedquestion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which cards can be query sources, and how stored result metadata is read. */
class CardSourcesTest {
    private static SavedQuestionMapper.CardRow row(String queryType, String datasetQuery) {
        SavedQuestionMapper.CardRow row = new SavedQuestionMapper.CardRow();
        row.queryType = queryType;
        row.datasetQuery = datasetQuery;
        return row;
    }

    @Test
    void cumulativeAggregationsKeepACardFromBeingASource() {
        List<Map<String, Object>> cols = List.of(Map.of("name", "count"));
        assertTrue(CardSources.usableAsSource(row("query", "{\"database\":1,\"type\":\"query\",\"query\":{\"source-table\":2,"
                + "\"aggregation\":[[\"count\"]]}}"), cols));
        assertFalse(CardSources.usableAsSource(row("query", "{\"database\":1,\"type\":\"query\",\"query\":{\"source-table\":2,"
                + "\"aggregation\":[[\"cum-sum\",[\"field\",3,null]]]}}"), cols));
        assertFalse(CardSources.usableAsSource(row("query", "{\"lib/type\":\"mbql/query\",\"database\":1,\"stages\":[{"
                + "\"lib/type\":\"mbql.stage/mbql\",\"source-table\":2,\"aggregation\":[[\"cum-count\",{}]]}]}"), cols));
        // a column merely named like the clause is fine
        assertTrue(CardSources.usableAsSource(row("query", "{\"database\":1,\"type\":\"query\",\"query\":{\"source-table\":2,"
                + "\"fields\":[[\"field\",\"cum-count\",null]]}}"), cols));
        assertFalse(CardSources.usableAsSource(row("query", "not json"), cols));
    }

    @Test
    void ambiguousNativeColumnsKeepACardFromBeingASource() {
        String sql = "{\"database\":1,\"type\":\"native\",\"native\":{\"query\":\"SELECT a.name, b.name FROM a JOIN b\"}}";
        assertFalse(CardSources.usableAsSource(row("native", sql), List.of(Map.of("name", "NAME"), Map.of("name", "NAME_2"))));
        assertTrue(CardSources.usableAsSource(row("native", sql), List.of(Map.of("name", "NAME"), Map.of("name", "OTHER"))));
        assertTrue(CardSources.usableAsSource(row("query", "{\"type\":\"query\",\"query\":{}}"), List.of(Map.of("name", "NAME_2"))),
                "only native cards are suspected");
    }

    @Test
    void resultMetadataMustBeAListOfObjects() {
        assertEquals(1, CardSources.columns("[{\"name\":\"count\",\"base_type\":\"type/Integer\"}]").size());
        assertNull(CardSources.columns("{\"name\":\"count\"}"));
        assertNull(CardSources.columns("[1]"));
        assertNull(CardSources.columns("[null]"));
        assertEquals(0, CardSources.columns("[]").size());
    }

    @Test
    void likePatternsAreEscaped() {
        assertEquals("100\\%\\_a\\\\b", CardSources.escapeLike("100%_a\\b"));
    }
}
