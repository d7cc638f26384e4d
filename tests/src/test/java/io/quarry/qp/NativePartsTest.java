package io.quarry.qp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.qp.mbql.MbqlReferences.CardQuery;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/** {@link NativeParts}: a structured query with SQL anywhere in it needs native rights (issue #25, 2). */
class NativePartsTest {
    private static final Map<String, Object> NATIVE_CARD = Map.of("database", 1, "type", "native", "native", Map.of("query", "SELECT 1"));
    private static final Map<String, Object> STRUCTURED_CARD = Map.of("database", 1, "type", "query", "query", Map.of("source-table", 5));

    private static final LongFunction<CardQuery> CARDS = id -> switch ((int) id) {
        case 7 -> new CardQuery(1, NATIVE_CARD);
        case 8 -> new CardQuery(1, STRUCTURED_CARD);
        case 9 -> new CardQuery(1, Map.of("database", 1, "type", "query", "query", Map.of("source-table", "card__7")));
        case 10 -> new CardQuery(1, Map.of("database", 1, "type", "query", "query", Map.of("source-table", "card__10")));
        case 11 -> new CardQuery(1, Map.of("lib/type", "mbql/query", "database", 1,
                "stages", List.of(Map.of("lib/type", "mbql.stage/native", "native", "SELECT 1"))));
        default -> null;
    };

    @Test
    void aPlainStructuredQueryHasNone() {
        assertFalse(NativeParts.in(Map.of("source-table", 5, "filter", List.of("=", List.of("field", 1, Map.of()), "native")), CARDS));
        assertFalse(NativeParts.in(Map.of("source-table", "card__8"), CARDS));
        assertFalse(NativeParts.in(Map.of("source-table", "card__10"), CARDS), "a card referring to itself ends");
    }

    @Test
    void nativeStagesJoinsAndCardsAnywhereCount() {
        assertTrue(NativeParts.in(Map.of("source-query", Map.of("native", "SELECT * FROM secrets")), CARDS));
        assertTrue(NativeParts.in(Map.of("source-query", Map.of("source-query", Map.of("native", "SELECT 1"))), CARDS));
        assertTrue(NativeParts.in(Map.of("source-table", 5, "joins", List.of(Map.of("source-query", Map.of("native", "SELECT 1"),
                "alias", "j", "condition", List.of("=", 1, 1)))), CARDS));
        assertTrue(NativeParts.in(Map.of("source-table", "card__7"), CARDS));
        assertTrue(NativeParts.in(Map.of("source-table", "card__9"), CARDS), "through another card");
        assertTrue(NativeParts.in(Map.of("source-table", 5, "joins", List.of(Map.of("source-table", "card__7"))), CARDS));
        assertTrue(NativeParts.in(Map.of("stages", List.of(Map.of("lib/type", "mbql.stage/mbql", "source-card", 11))), CARDS));
        assertTrue(NativeParts.in(Map.of("stages", List.of(Map.of("lib/type", "mbql.stage/native", "native", "SELECT 1"))), CARDS));
    }
}
