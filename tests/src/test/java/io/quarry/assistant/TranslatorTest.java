package io.quarry.assistant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.assistant.SchemaSnapshot.FieldInfo;
import io.quarry.assistant.SchemaSnapshot.TableInfo;
import io.quarry.core.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The offline translator's reading of questions, over a small hand-made schema. */
class TranslatorTest {
    private static final SchemaSnapshot SHOP = new SchemaSnapshot(7, "H2", List.of(
            new TableInfo(1, "PUBLIC", "ORDERS", "Orders", null, List.of(
                    new FieldInfo(10, 1, "ID", "ID", "type/BigInteger", "type/PK", null, List.of()),
                    new FieldInfo(11, 1, "USER_ID", "User ID", "type/Integer", "type/FK", 20L, List.of()),
                    new FieldInfo(12, 1, "TOTAL", "Total", "type/Float", null, null, List.of()),
                    new FieldInfo(13, 1, "CREATED_AT", "Created At", "type/DateTime", "type/CreationTimestamp", null, List.of()))),
            new TableInfo(2, "PUBLIC", "PEOPLE", "People", null, List.of(
                    new FieldInfo(20, 2, "ID", "ID", "type/BigInteger", "type/PK", null, List.of()),
                    new FieldInfo(21, 2, "NAME", "Name", "type/Text", "type/Name", null, List.of()),
                    new FieldInfo(22, 2, "STATE", "State", "type/Text", "type/State", null, List.of("IN", "TX", "OR")),
                    new FieldInfo(23, 2, "PLAN", "Plan", "type/Text", "type/Category", null, List.of("Gold", "Golds"))))),
            null);

    private static String mbql(String question) {
        return Json.write(new Translator(SHOP).translate(question).query().get("query"));
    }

    private static String declined(String question) {
        return assertThrows(Translator.NotUnderstood.class, () -> new Translator(SHOP).translate(question)).getMessage();
    }

    @Test
    void readsAggregationsBreakoutsAndFilters() {
        assertEquals("{\"source-table\":1,\"aggregation\":[[\"count\"]]}", mbql("how many orders"));
        assertEquals("{\"source-table\":1,\"aggregation\":[[\"sum\",[\"field\",12,null]]],\"breakout\":[[\"field\",13,"
                + "{\"temporal-unit\":\"month\"}]]}", mbql("total sales by month"));
        assertEquals("{\"source-table\":1,\"aggregation\":[[\"count\"]],\"breakout\":[[\"field\",22,{\"source-field\":11}]],"
                + "\"order-by\":[[\"desc\",[\"aggregation\",0]]],\"limit\":3}", mbql("top 3 states by number of orders"));
        assertEquals("{\"source-table\":1,\"aggregation\":[[\"count\"]],\"filter\":[\"and\",[\"=\",[\"field\",22,"
                + "{\"source-field\":11}],\"TX\"],[\"time-interval\",[\"field\",13,null],-30,\"day\"]]}",
                mbql("how many orders from TX in the last 30 days"));
    }

    @Test
    void aShortValueCountsOnlyInItsOwnLetterCase() {
        // "in" is a word, "IN" is Indiana
        assertTrue(mbql("how many orders in 2024").contains("\"2024-01-01\""));
        assertTrue(mbql("how many orders from IN").contains("\"IN\""));
    }

    @Test
    void declinesRatherThanGuesses() {
        assertTrue(declined("how many orders by colour").contains("colour"));
        assertTrue(declined("how many orders not from TX").contains("not"));
        assertTrue(declined("how many gold people").contains("could be"), "Gold and Golds read alike");
        assertTrue(declined("total orders").contains("count or a sum"));
        assertTrue(declined("average name of people").contains("not a number"));
        assertTrue(declined("how many orders over 100").contains("which field"));
    }

    @Test
    void aModelIsKnownByTheWordsOfItsNameAndDescription() {
        SchemaSnapshot model = new SchemaSnapshot(7, "H2", List.of(new TableInfo(-1, null, "orders model 1764669000",
                "orders model 1764669000", "Every purchase the shop confirmed", List.of(
                        new FieldInfo(1, -1, "TOTAL", "Total", "type/Float", null, null, List.of())))), 42L);
        for (String question : List.of("How many orders are there?", "how many purchases", "how many rows in the model")) {
            assertEquals("{\"source-table\":\"card__42\",\"aggregation\":[[\"count\"]]}",
                    Json.write(new Translator(model).translate(question).query().get("query")), question);
        }
        // a word two tables share names neither
        SchemaSnapshot two = new SchemaSnapshot(7, "H2", List.of(
                new TableInfo(1, "PUBLIC", "ORDERS_2023", "Orders 2023", null, List.of()),
                new TableInfo(2, "PUBLIC", "ORDERS_2024", "Orders 2024", null, List.of())), null);
        assertThrows(Translator.NotUnderstood.class, () -> new Translator(two).translate("how many orders"));
    }
}
