package io.quarry.assistant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The offline assistant over the Sample Database: each question's SQL, as {@code POST /api/assistant/database/:id/query}
 * answers it, is run through {@code /api/dataset} and its rows compared with those of SQL written by hand. A question
 * it declines is a 400 (counted); a wrong answer fails the test.
 */
class AssistantTranslatorIT {
    private static TestServer server;
    private static Api admin;
    private static long db;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        Api anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        db = SampleData.add(server.quarry(), admin, "Sample Database");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** A question, the SQL that answers it, and whether to compare rows by their ID column only (plain rows). */
    private record Case(String question, String sql, boolean byId) {
    }

    private static Case q(String question, String sql) {
        return new Case(question, sql, false);
    }

    private static Case rows(String question, String sql) {
        return new Case(question, sql, true);
    }

    private static List<Case> cases() {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        LocalDate monthStart = today.withDayOfMonth(1);
        String join = " FROM ORDERS o LEFT JOIN PRODUCTS p ON o.PRODUCT_ID = p.ID";
        String people = " FROM ORDERS o LEFT JOIN PEOPLE u ON o.USER_ID = u.ID";
        return List.of(
                q("how many orders", "SELECT COUNT(*) FROM ORDERS"),
                q("How many products are there?", "SELECT COUNT(*) FROM PRODUCTS"),
                q("number of people", "SELECT COUNT(*) FROM PEOPLE"),
                q("count of reviews", "SELECT COUNT(*) FROM REVIEWS"),
                q("number of customers", "SELECT COUNT(*) FROM PEOPLE"),
                q("total of subtotal of orders", "SELECT SUM(SUBTOTAL) FROM ORDERS"),
                q("sum of tax", "SELECT SUM(TAX) FROM ORDERS"),
                q("average total of orders", "SELECT AVG(TOTAL) FROM ORDERS"),
                q("average price of products", "SELECT AVG(PRICE) FROM PRODUCTS"),
                q("max price of products", "SELECT MAX(PRICE) FROM PRODUCTS"),
                q("minimum price of products", "SELECT MIN(PRICE) FROM PRODUCTS"),
                q("average rating of reviews", "SELECT AVG(CAST(RATING AS DOUBLE PRECISION)) FROM REVIEWS"),
                q("total of subtotal by product category", "SELECT p.CATEGORY, SUM(o.SUBTOTAL)" + join + " GROUP BY p.CATEGORY"),
                q("how many orders by product category", "SELECT p.CATEGORY, COUNT(*)" + join + " GROUP BY p.CATEGORY"),
                q("number of products by category", "SELECT CATEGORY, COUNT(*) FROM PRODUCTS GROUP BY CATEGORY"),
                q("how many people by source", "SELECT SOURCE, COUNT(*) FROM PEOPLE GROUP BY SOURCE"),
                q("how many customers per state", "SELECT STATE, COUNT(*) FROM PEOPLE GROUP BY STATE"),
                q("average rating of reviews by month", "SELECT DATE_TRUNC('MONTH', CREATED_AT), AVG(CAST(RATING AS DOUBLE PRECISION))"
                        + " FROM REVIEWS GROUP BY DATE_TRUNC('MONTH', CREATED_AT)"),
                q("how many orders by year", "SELECT DATE_TRUNC('YEAR', CREATED_AT), COUNT(*) FROM ORDERS GROUP BY DATE_TRUNC('YEAR', CREATED_AT)"),
                q("orders per quarter", "SELECT DATE_TRUNC('QUARTER', CREATED_AT), COUNT(*) FROM ORDERS GROUP BY DATE_TRUNC('QUARTER', CREATED_AT)"),
                q("number of orders per month in 2024", "SELECT DATE_TRUNC('MONTH', CREATED_AT), COUNT(*) FROM ORDERS"
                        + " WHERE CREATED_AT >= DATE '2024-01-01' AND CREATED_AT < DATE '2025-01-01' GROUP BY DATE_TRUNC('MONTH', CREATED_AT)"),
                q("how many orders in 2024", "SELECT COUNT(*) FROM ORDERS WHERE CREATED_AT >= DATE '2024-01-01'"
                        + " AND CREATED_AT < DATE '2025-01-01'"),
                q("how many orders in the last 30 days", "SELECT COUNT(*) FROM ORDERS WHERE CREATED_AT >= DATE '"
                        + today.minusDays(30) + "' AND CREATED_AT < DATE '" + today + "'"),
                q("how many people in the last 12 months", "SELECT COUNT(*) FROM PEOPLE WHERE CREATED_AT >= DATE '"
                        + monthStart.minusMonths(12) + "' AND CREATED_AT < DATE '" + monthStart + "'"),
                q("top 5 products by total sales", "SELECT p.TITLE, SUM(o.TOTAL)" + join + " GROUP BY p.TITLE ORDER BY 2 DESC LIMIT 5"),
                q("top 3 categories by number of orders", "SELECT p.CATEGORY, COUNT(*)" + join
                        + " GROUP BY p.CATEGORY ORDER BY 2 DESC LIMIT 3"),
                rows("top 5 products by price", "SELECT ID FROM PRODUCTS ORDER BY PRICE DESC LIMIT 5"),
                rows("people from state TX", "SELECT ID FROM PEOPLE WHERE STATE = 'TX'"),
                q("how many people from state TX", "SELECT COUNT(*) FROM PEOPLE WHERE STATE = 'TX'"),
                q("how many Gizmo products", "SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'"),
                q("how many orders of Widget products", "SELECT COUNT(*)" + join + " WHERE p.CATEGORY = 'Widget'"),
                q("average price of products by category", "SELECT CATEGORY, AVG(PRICE) FROM PRODUCTS GROUP BY CATEGORY"),
                q("how many orders with quantity over 10", "SELECT COUNT(*) FROM ORDERS WHERE QUANTITY > 10"),
                q("how many products with a price under 20", "SELECT COUNT(*) FROM PRODUCTS WHERE PRICE < 20"),
                q("average discount of orders", "SELECT AVG(DISCOUNT) FROM ORDERS"),
                q("number of distinct vendors", "SELECT COUNT(DISTINCT VENDOR) FROM PRODUCTS"),
                q("how many unique states", "SELECT COUNT(DISTINCT STATE) FROM PEOPLE"),
                q("sum of quantity by month in 2025", "SELECT DATE_TRUNC('MONTH', CREATED_AT), SUM(QUANTITY) FROM ORDERS"
                        + " WHERE CREATED_AT >= DATE '2025-01-01' AND CREATED_AT < DATE '2026-01-01' GROUP BY DATE_TRUNC('MONTH', CREATED_AT)"),
                q("how many orders by product category and year", "SELECT p.CATEGORY, DATE_TRUNC('YEAR', o.CREATED_AT), COUNT(*)"
                        + join + " GROUP BY p.CATEGORY, DATE_TRUNC('YEAR', o.CREATED_AT)"),
                q("how many reviews by product category", "SELECT p.CATEGORY, COUNT(*) FROM REVIEWS r LEFT JOIN PRODUCTS p"
                        + " ON r.PRODUCT_ID = p.ID GROUP BY p.CATEGORY"),
                q("average rating of products by category", "SELECT CATEGORY, AVG(CAST(RATING AS DOUBLE PRECISION)) FROM PRODUCTS"
                        + " GROUP BY CATEGORY"),
                q("how many orders by source", "SELECT u.SOURCE, COUNT(*)" + people + " GROUP BY u.SOURCE"),
                q("total sales by year", "SELECT DATE_TRUNC('YEAR', CREATED_AT), SUM(TOTAL) FROM ORDERS GROUP BY DATE_TRUNC('YEAR', CREATED_AT)"),
                q("how many orders since 2025", "SELECT COUNT(*) FROM ORDERS WHERE CREATED_AT >= DATE '2025-01-01'"),
                q("how many orders before 2023", "SELECT COUNT(*) FROM ORDERS WHERE CREATED_AT < DATE '2023-01-01'"),
                q("number of orders by product category, highest first", "SELECT p.CATEGORY, COUNT(*)" + join
                        + " GROUP BY p.CATEGORY ORDER BY 2 DESC"),
                q("average subtotal of orders by customer source", "SELECT u.SOURCE, AVG(o.SUBTOTAL)" + people + " GROUP BY u.SOURCE"),
                q("how many people by birth date year", "SELECT DATE_TRUNC('YEAR', BIRTH_DATE), COUNT(*) FROM PEOPLE GROUP BY DATE_TRUNC('YEAR', BIRTH_DATE)"),
                q("max total of orders in 2023", "SELECT MAX(TOTAL) FROM ORDERS WHERE CREATED_AT >= DATE '2023-01-01'"
                        + " AND CREATED_AT < DATE '2024-01-01'"),
                q("how many Facebook customers", "SELECT COUNT(*) FROM PEOPLE WHERE SOURCE = 'Facebook'"),
                q("how many reviews with rating at least 4", "SELECT COUNT(*) FROM REVIEWS WHERE RATING >= 4"),
                rows("products with price over 95", "SELECT ID FROM PRODUCTS WHERE PRICE > 95"),
                q("how many orders this year", "SELECT COUNT(*) FROM ORDERS WHERE CREATED_AT >= DATE '" + today.withDayOfYear(1)
                        + "' AND CREATED_AT < DATE '" + today.withDayOfYear(1).plusYears(1) + "'"),
                q("which category has the most orders", "SELECT p.CATEGORY, COUNT(*)" + join
                        + " GROUP BY p.CATEGORY ORDER BY 2 DESC LIMIT 1"),
                q("which source has the most customers", "SELECT SOURCE, COUNT(*) FROM PEOPLE GROUP BY SOURCE ORDER BY 2 DESC LIMIT 1"),
                q("which source has the fewest customers", "SELECT SOURCE, COUNT(*) FROM PEOPLE GROUP BY SOURCE ORDER BY 2 LIMIT 1"),
                q("product category with the most total sales", "SELECT p.CATEGORY, SUM(o.TOTAL)" + join
                        + " GROUP BY p.CATEGORY ORDER BY 2 DESC LIMIT 1"),
                q("how many orders with a total between 50 and 100", "SELECT COUNT(*) FROM ORDERS WHERE TOTAL BETWEEN 50 AND 100"),
                q("how many orders with quantity over 99999999999999999999", "SELECT COUNT(*) FROM ORDERS WHERE QUANTITY > 99999999999999999999"),
                q("how many products with a price under 20.5", "SELECT COUNT(*) FROM PRODUCTS WHERE PRICE < 20.5"),
                // questions it should decline rather than guess
                q("average rating by category", "SELECT CATEGORY, AVG(CAST(RATING AS DOUBLE PRECISION)) FROM PRODUCTS GROUP BY CATEGORY"),
                q("which product sells best", "SELECT p.TITLE, SUM(o.QUANTITY)" + join + " GROUP BY p.TITLE ORDER BY 2 DESC LIMIT 1"),
                q("how many orders did Hudson Borer place", "SELECT COUNT(*)" + people + " WHERE u.NAME = 'Hudson Borer'"));
    }

    @Test
    void answersAtLeastThirtyQuestionsRightAndNoneWrong() {
        int correct = 0;
        List<String> declined = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        for (Case c : cases()) {
            Api.Res res = admin.call("POST", "assistant/database/" + db + "/query", Map.of("question", c.question()));
            if (res.status() == 400) {
                JsonNode body = res.json();
                assertTrue(body.path("errors").path("question").isTextual(), res.body());
                declined.add(c.question() + " → " + body.path("message").asText());
                continue;
            }
            assertEquals(200, res.status(), c.question() + ": " + res.body());
            String sql = res.json().get("sql").asText();
            SampleData.Result got = SampleData.run(admin, db, sql);
            SampleData.Result expected = SampleData.run(admin, db, c.sql());
            List<String> gotRows = c.byId() ? got.ids() : got.normalised();
            List<String> expectedRows = c.byId() ? expected.ids() : expected.normalised();
            if (gotRows.equals(expectedRows)) {
                correct++;
            } else {
                wrong.add(c.question() + "\n  SQL: " + sql + "\n  got " + head(gotRows) + "\n  expected " + head(expectedRows));
            }
        }
        System.out.printf("Offline assistant over the Sample Database: %d questions, %d correct, %d declined, %d wrong%n",
                cases().size(), correct, declined.size(), wrong.size());
        declined.forEach(d -> System.out.println("  declined: " + d));
        wrong.forEach(w -> System.out.println("  WRONG: " + w));
        assertTrue(cases().size() >= 40);
        assertEquals(List.of(), wrong, "wrong answers");
        assertTrue(correct >= 30, "only " + correct + " correct");
    }

    @Test
    void theCardIsANativeQuestionReadyToSave() {
        JsonNode answer = admin.post(200, "assistant/database/" + db, Map.of("question", "how many orders by product category")).json();
        JsonNode card = answer.get("card");
        assertEquals("native", card.get("dataset_query").get("type").asText());
        assertEquals("bar", card.get("display").asText());
        assertEquals(answer.get("bot-sql").asText(), card.get("dataset_query").get("native").get("query").asText());
        JsonNode saved = admin.post(200, "card", Map.of("name", card.get("name").asText(), "display", card.get("display").asText(),
                "dataset_query", card.get("dataset_query"), "visualization_settings", Map.of())).json();
        JsonNode result = admin.post(202, "card/" + saved.get("id").asLong() + "/query", Map.of()).json();
        assertEquals(4, result.get("data").get("rows").size());
    }

    private static String head(List<String> rows) {
        return rows.size() <= 6 ? rows.toString() : rows.subList(0, 6) + "... (" + rows.size() + " rows)";
    }
}
